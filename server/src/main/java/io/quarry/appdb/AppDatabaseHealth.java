package io.quarry.appdb;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;

/**
 * The health check of the application database, which must answer fast even when the database does not: a probe
 * (borrow a connection, {@code isValid}) runs on a thread of its own, at most one at a time; a caller waits for it at
 * most {@link #WAIT}, and a result younger than {@link #FRESH} is reused, so a burst of health checks costs one probe.
 */
public final class AppDatabaseHealth implements AutoCloseable {
    static final Duration FRESH = Duration.ofSeconds(1);
    static final Duration WAIT = Duration.ofMillis(1500);

    private final DataSource dataSource;
    private final AppDatabaseStatus status;
    private final ExecutorService prober = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "quarry-appdb-health");
        t.setDaemon(true);
        return t;
    });
    private volatile Result last;
    private CompletableFuture<Result> running;

    /** A probe's outcome: whether the database answered, and why not. */
    public record Result(boolean healthy, String reason, long atNanos) {
    }

    AppDatabaseHealth(DataSource dataSource, AppDatabaseStatus status) {
        this.dataSource = dataSource;
        this.status = status;
    }

    /** The latest probe's result, probing again when it is older than {@link #FRESH}; never waits more than {@link #WAIT}. */
    public Result check() {
        Result recent = last;
        // A healthy result is not reused once a request has seen the database fail since.
        if (recent != null && System.nanoTime() - recent.atNanos() < FRESH.toNanos() && (!recent.healthy() || status.available())) {
            return recent;
        }
        CompletableFuture<Result> probe;
        synchronized (this) {
            if (running == null || running.isDone()) {
                running = CompletableFuture.supplyAsync(this::probe, prober);
            }
            probe = running;
        }
        try {
            return probe.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            status.failed(new SQLTimeoutException("no answer to a health check within " + WAIT.toMillis() + " ms"));
            return new Result(false, "The application database did not answer within " + WAIT.toMillis() + " ms", System.nanoTime());
        } catch (ExecutionException e) {
            return new Result(false, String.valueOf(e.getCause()), System.nanoTime());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(false, "interrupted", System.nanoTime());
        }
    }

    private Result probe() {
        Result result;
        try (Connection connection = dataSource.getConnection()) {
            if (connection.isValid(2)) {
                status.answered();
                result = new Result(true, null, System.nanoTime());
            } else {
                status.failed(new SQLTimeoutException("connection is not valid"));
                result = new Result(false, "The application database connection is not valid", System.nanoTime());
            }
        } catch (SQLException | RuntimeException e) {
            status.failed(e);
            result = new Result(false, "Unable to get app-db connection", System.nanoTime());
        }
        last = result;
        return result;
    }

    @Override
    public void close() {
        prober.shutdownNow();
    }
}
