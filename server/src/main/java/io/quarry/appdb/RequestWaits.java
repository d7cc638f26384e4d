package io.quarry.appdb;

/**
 * Marks the thread that serves an HTTP request, so that the application database's pool bounds every wait of that
 * request on the database (see {@link AppDatabasePool}): a request must answer 503 within the request timeout when
 * the database freezes, while background work (sync, scheduled jobs) keeps the longer socket timeout. A servlet
 * filter brackets each request with {@link #begin()} and {@link #end()}.
 */
public final class RequestWaits {
    private static final ThreadLocal<Wait> CURRENT = new ThreadLocal<>();

    private RequestWaits() {
    }

    /** The current thread serves a request from now on. */
    public static void begin() {
        CURRENT.set(new Wait());
    }

    /** The request is answered: the thread is a pooled container thread again. */
    public static void end() {
        CURRENT.remove();
    }

    /** The current request's wait, or null on a thread that serves no request. */
    static Wait current() {
        return CURRENT.get();
    }

    /**
     * What the current request has waited on the database since it last asked the pool for a connection: when that
     * was, and whether a connection already failed it since (then the pool neither validates another idle connection
     * nor opens a new one for it: each would wait on the same frozen server again).
     */
    static final class Wait {
        private long borrowedAtNanos = System.nanoTime();
        private boolean failed;

        void borrowing() {
            borrowedAtNanos = System.nanoTime();
            failed = false;
        }

        long remainingMillis(long limitMillis) {
            return limitMillis - (System.nanoTime() - borrowedAtNanos) / 1_000_000;
        }

        void failed() {
            failed = true;
        }

        boolean hasFailed() {
            return failed;
        }
    }
}
