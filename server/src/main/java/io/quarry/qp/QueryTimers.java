package io.quarry.qp;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The timers of executing queries, their timeouts and their keep-alives, on one coarse clock: a task runs within
 * {@link #TICK_MILLIS} after it is due, on one of two threads.
 *
 * <p>Setting a timer and cancelling it is an add and a remove in a concurrent set, and wakes no thread. Almost every
 * timer of a query is cancelled long before it is due. A {@code ScheduledExecutorService} wakes its thread whenever a
 * new task becomes its earliest, which is every time when queries come one at a time. PostgreSQL's driver runs each
 * statement's timeout on its own {@code Timer} thread in the same way. On two cores those two wake-ups cost a lone card
 * query 0.03 to 0.05 ms of its 0.4 ms, measured from a fresh start; after a heavy load the difference did not show
 * (bench/README.md). Here the threads wake every tick, whatever the load.
 */
public final class QueryTimers implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(QueryTimers.class);
    static final long TICK_MILLIS = 100;

    private final Set<Timer> pending = ConcurrentHashMap.newKeySet();
    /**
     * Runs the ticks and the tasks that are due: two threads, so that a keep-alive writing to a client slow to take
     * its bytes, or a cancel waiting on its database, does not hold up the others.
     */
    private final ScheduledThreadPoolExecutor threads;

    public QueryTimers() {
        AtomicInteger count = new AtomicInteger();
        threads = new ScheduledThreadPoolExecutor(2, r -> {
            Thread t = new Thread(r, "quarry-query-timers-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        threads.scheduleAtFixedRate(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Runs {@code task} once, {@code delay} from now (up to a tick later), unless the timer is cancelled first. */
    public Timer schedule(Runnable task, long delay, TimeUnit unit) {
        Timer timer = new Timer(task, System.nanoTime() + unit.toNanos(delay));
        pending.add(timer);
        return timer;
    }

    private void tick() {
        long now = System.nanoTime();
        for (Timer timer : pending) {
            if (now - timer.due >= 0 && timer.fire()) {
                pending.remove(timer);
                try {
                    threads.execute(timer::run);
                } catch (RuntimeException stopped) {
                    return; // closing
                }
            }
        }
    }

    /** Stops the threads; timers not yet due never run (undeploying must not leave threads of the webapp behind). */
    @Override
    public void close() {
        threads.shutdownNow();
        pending.clear();
    }

    /** One task due at a time. */
    public final class Timer {
        private static final int PENDING = 0;
        private static final int FIRED = 1;
        private static final int CANCELLED = 2;

        private final Runnable task;
        private final long due;
        private final AtomicInteger state = new AtomicInteger(PENDING);

        private Timer(Runnable task, long due) {
            this.task = task;
            this.due = due;
        }

        private boolean fire() {
            return state.compareAndSet(PENDING, FIRED);
        }

        private void run() {
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                log.warn("A query's timer task failed", e);
            }
        }

        /** Keeps the task from running if it is still to come. */
        public void cancel() {
            if (state.compareAndSet(PENDING, CANCELLED)) {
                pending.remove(this);
            }
        }

        /** Whether the task's time came before it was cancelled: it ran, runs or is about to. */
        public boolean fired() {
            return state.get() == FIRED;
        }
    }
}
