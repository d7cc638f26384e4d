package io.quarry.appdb;

import io.quarry.core.Problem;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the application database answers, as the last requests saw it. An outage is logged twice, when it starts
 * (one warning with the cause, no stack trace) and when it ends, however many requests fail in between.
 */
public final class AppDatabaseStatus {
    private static final Logger log = LoggerFactory.getLogger(AppDatabaseStatus.class);

    /** Nanos (System.nanoTime) when the current outage began; 0 while the database answers. */
    private final AtomicLong downSince = new AtomicLong();
    /** The last failed attempt, kept after the outage ends (for the health details). */
    private volatile Problem lastFailure;

    /**
     * Whether {@code failure} says the database cannot be reached, rather than that one statement was wrong: a
     * connection-class SQLState ({@code 08…}), PostgreSQL's shutdown states ({@code 57P01-57P03}), a refused or timed
     * out socket, or dbcp2 giving up waiting for a pooled connection.
     */
    public static boolean isConnectionFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof AppDatabaseUnavailable
                    || t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
                    || t instanceof ConnectException || t instanceof SocketTimeoutException || t instanceof SocketException) {
                return true;
            }
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if (state != null && (state.startsWith("08") || state.startsWith("57P0"))) {
                    return true;
                }
                String message = String.valueOf(sql.getMessage()).toLowerCase(Locale.ROOT);
                // dbcp2: "Cannot get a connection, pool error Timeout waiting for idle object" and
                // "Cannot create PoolableConnectionFactory (...)"
                if (message.startsWith("cannot get a connection") || message.startsWith("cannot create poolableconnectionfactory")) {
                    return true;
                }
            }
            if (t instanceof NoSuchElementException && String.valueOf(t.getMessage()).startsWith("Timeout waiting for idle object")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /** Records a failed attempt: the first one of an outage logs a warning. */
    public void failed(Throwable cause) {
        lastFailure = new Problem(rootMessage(cause), java.time.Instant.now());
        if (downSince.compareAndSet(0, System.nanoTime())) {
            log.warn("The application database is unavailable: {}. Requests answer 503 until it is back.", rootMessage(cause));
        }
    }

    /** Records a successful round trip: the first one after an outage logs its end. */
    public void answered() {
        long since = downSince.get();
        if (since != 0 && downSince.compareAndSet(since, 0)) {
            log.warn("The application database is available again (after {} s).",
                    String.format(Locale.ROOT, "%.1f", (System.nanoTime() - since) / 1e9));
        }
    }

    /** The last failed attempt to reach the database, or null when none failed since start-up. */
    public Problem lastFailure() {
        return lastFailure;
    }

    public boolean available() {
        return downSince.get() == 0;
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
