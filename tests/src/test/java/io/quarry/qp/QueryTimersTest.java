package io.quarry.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class QueryTimersTest {
    private final QueryTimers timers = new QueryTimers();

    @AfterEach
    void close() {
        timers.close();
    }

    @Test
    void aTimerRunsItsTaskOnceWhenDue() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch ran = new CountDownLatch(1);
        QueryTimers.Timer timer = timers.schedule(() -> {
            runs.incrementAndGet();
            ran.countDown();
        }, 50, TimeUnit.MILLISECONDS);
        assertTrue(ran.await(10, TimeUnit.SECONDS), "the task ran");
        assertTrue(timer.fired());
        timer.cancel(); // too late: it stays fired
        assertTrue(timer.fired());
        Thread.sleep(5 * QueryTimers.TICK_MILLIS);
        assertEquals(1, runs.get(), "once only");
    }

    @Test
    void aCancelledTimerNeverRuns() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        QueryTimers.Timer cancelled = timers.schedule(runs::incrementAndGet, 0, TimeUnit.MILLISECONDS);
        cancelled.cancel();
        // a timer set after it, with the same delay, has run: the tick that would have run the first has passed
        CountDownLatch later = new CountDownLatch(1);
        timers.schedule(later::countDown, 0, TimeUnit.MILLISECONDS);
        assertTrue(later.await(10, TimeUnit.SECONDS));
        Thread.sleep(2 * QueryTimers.TICK_MILLIS);
        assertEquals(0, runs.get());
        assertFalse(cancelled.fired());
    }

    @Test
    void aTaskThatFailsDoesNotStopTheOthers() throws Exception {
        timers.schedule(() -> {
            throw new IllegalStateException("a failing keep-alive");
        }, 0, TimeUnit.MILLISECONDS);
        CountDownLatch next = new CountDownLatch(2);
        timers.schedule(next::countDown, 0, TimeUnit.MILLISECONDS);
        timers.schedule(next::countDown, 3 * QueryTimers.TICK_MILLIS, TimeUnit.MILLISECONDS);
        assertTrue(next.await(10, TimeUnit.SECONDS), "later ticks still run their timers");
    }

    @Test
    void aTimerNotDueAtCloseNeverRuns() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        QueryTimers.Timer timer = timers.schedule(runs::incrementAndGet, 2 * QueryTimers.TICK_MILLIS, TimeUnit.MILLISECONDS);
        timers.close();
        Thread.sleep(5 * QueryTimers.TICK_MILLIS);
        assertEquals(0, runs.get());
        assertFalse(timer.fired());
    }
}
