package io.quarry.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.quarry.warehouse.DatabaseService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SyncServiceTest {
    @Test
    void aSyncAskedForAfterAnotherFinishedRunsAgain() throws Exception {
        DatabaseService databases = mock(DatabaseService.class);
        when(databases.find(1L)).thenReturn(null);
        AtomicInteger runs = new AtomicInteger();
        Executor direct = task -> {
            runs.incrementAndGet();
            task.run();
        };
        SyncService sync = new SyncService(databases, new SchemaSync(null, databases, null, java.time.Clock.systemUTC()), direct);
        CompletableFuture<Void> first = sync.syncInBackground(1);
        first.get();
        CompletableFuture<Void> second = sync.syncInBackground(1);
        second.get();
        assertNotSame(first, second);
        assertEquals(2, runs.get(), "a finished sync is never handed out again");
        assertFalse(sync.isSyncing(1));
    }

    @Test
    void aSyncAskedForWhileOneRunsJoinsIt() throws Exception {
        DatabaseService databases = mock(DatabaseService.class);
        List<Runnable> queued = new ArrayList<>();
        SyncService sync = new SyncService(databases, new SchemaSync(null, databases, null, java.time.Clock.systemUTC()), queued::add);
        CompletableFuture<Void> first = sync.syncInBackground(1);
        assertSame(first, sync.syncInBackground(1));
        assertTrue(sync.isSyncing(1));
        assertEquals(1, queued.size());
        queued.get(0).run();
        first.get();
        assertFalse(sync.isSyncing(1));
    }
}
