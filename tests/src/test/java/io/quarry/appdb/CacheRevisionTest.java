package io.quarry.appdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When the cache revision is read again, and that no thread is answered with a revision older than its own change. */
class CacheRevisionTest {
    private static final long LONG_INTERVAL = 60_000;

    private final AtomicLong stored = new AtomicLong(1);
    private final AtomicInteger reads = new AtomicInteger();

    private Db database(CountDownLatch blockedReadStarted, CountDownLatch releaseBlockedRead, Thread[] blockedThread) {
        Db db = mock(Db.class);
        when(db.with(eq(CacheRevisionMapper.class), any())).thenAnswer(call -> {
            reads.incrementAndGet();
            long value = stored.get();
            if (blockedThread != null && Thread.currentThread() == blockedThread[0]) {
                blockedReadStarted.countDown();
                assertTrue(releaseBlockedRead.await(10, TimeUnit.SECONDS));
            }
            return value;
        });
        return db;
    }

    @Test
    void aReadingServesForTheIntervalUntilThisInstanceChangesSomething() {
        CacheRevision revision = new CacheRevision(LONG_INTERVAL);
        revision.readFrom(database(null, null, null));
        assertEquals(1, revision.current());
        stored.set(2); // another instance's change: seen only after the interval
        assertEquals(1, revision.current());
        assertEquals(1, reads.get());
        revision.changed(); // this instance's own change: seen at once
        assertEquals(2, revision.current());
        assertEquals(2, revision.current());
        assertEquals(2, reads.get());
    }

    @Test
    void noIntervalReadsEveryTime() {
        CacheRevision revision = new CacheRevision(0);
        revision.readFrom(database(null, null, null));
        revision.current();
        revision.current();
        assertEquals(2, reads.get());
    }

    /**
     * A thread that asks after this instance's change, while another thread's read of the counter is under way, must
     * not get the revision from before the change (its caches would serve what the change replaced, e.g. a permission
     * just granted answering 403).
     */
    @Test
    void aReadUnderWayElsewhereDoesNotAnswerWithTheRevisionBeforeTheChange() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread[] slow = new Thread[1];
        CacheRevision revision = new CacheRevision(LONG_INTERVAL);
        revision.readFrom(database(started, release, slow));
        assertEquals(1, revision.current());

        stored.set(2);
        revision.changed();
        CompletableFuture<Long> slowRead = new CompletableFuture<>();
        slow[0] = new Thread(() -> slowRead.complete(revision.current()));
        slow[0].start();
        assertTrue(started.await(10, TimeUnit.SECONDS));

        assertEquals(2, revision.current(), "the revision after this instance's change, while another read is under way");
        release.countDown();
        assertEquals(2, slowRead.get(10, TimeUnit.SECONDS));
        assertEquals(2, revision.current());
    }

    @Test
    void aSlowOlderReadingNeverPutsBackAnOlderRevision() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread[] slow = new Thread[1];
        CacheRevision revision = new CacheRevision(0);
        revision.readFrom(database(started, release, slow));
        CompletableFuture<Long> slowRead = new CompletableFuture<>();
        slow[0] = new Thread(() -> slowRead.complete(revision.current()));
        slow[0].start();
        assertTrue(started.await(10, TimeUnit.SECONDS)); // it read 1 and is held
        stored.set(5);
        assertEquals(5, revision.current());
        release.countDown();
        assertEquals(5, slowRead.get(10, TimeUnit.SECONDS), "the slow reader's older 1 does not replace 5");
    }
}
