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
    /** The thread whose read of the counter is held mid-way (after reading the value, before returning it). */
    private volatile Thread held;
    private final CountDownLatch heldStarted = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    private CacheRevision revision(long intervalMillis) {
        Db db = mock(Db.class);
        when(db.with(eq(CacheRevisionMapper.class), any())).thenAnswer(call -> {
            reads.incrementAndGet();
            long value = stored.get();
            if (Thread.currentThread() == held) {
                heldStarted.countDown();
                assertTrue(release.await(10, TimeUnit.SECONDS));
            }
            return value;
        });
        CacheRevision revision = new CacheRevision(intervalMillis);
        revision.readFrom(db);
        return revision;
    }

    /** Asks for the revision on another thread, whose read is held once it has read the stored value. */
    private CompletableFuture<Long> heldRead(CacheRevision revision) throws InterruptedException {
        CompletableFuture<Long> result = new CompletableFuture<>();
        held = new Thread(() -> result.complete(revision.current()));
        held.start();
        assertTrue(heldStarted.await(10, TimeUnit.SECONDS));
        return result;
    }

    @Test
    void aReadingServesForTheIntervalUntilThisInstanceChangesSomething() {
        CacheRevision revision = revision(LONG_INTERVAL);
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
        CacheRevision revision = revision(0);
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
        CacheRevision revision = revision(LONG_INTERVAL);
        assertEquals(1, revision.current());
        stored.set(2);
        revision.changed();
        CompletableFuture<Long> slowRead = heldRead(revision);

        assertEquals(2, revision.current(), "the revision after this instance's change, while another read is under way");
        release.countDown();
        assertEquals(2, slowRead.get(10, TimeUnit.SECONDS));
        assertEquals(2, revision.current());
    }

    @Test
    void aSlowOlderReadingNeverPutsBackAnOlderRevision() throws Exception {
        CacheRevision revision = revision(0);
        CompletableFuture<Long> slowRead = heldRead(revision); // it read 1 and is held
        stored.set(5);
        assertEquals(5, revision.current());
        release.countDown();
        assertEquals(5, slowRead.get(10, TimeUnit.SECONDS), "the slow reader's older 1 does not replace 5");
    }
}
