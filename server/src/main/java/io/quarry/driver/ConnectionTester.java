package io.quarry.driver;

import io.quarry.web.error.ApiException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tries connection details for real: opens one unpooled connection and runs the engine's validation query, and
 * explains a failure as Metabase does ({@code {"message": ..., "errors": {"host": ...}}}). The attempt runs on a
 * thread of its own with the driver's timeouts set, and the caller waits no longer than the configured connection
 * timeout ({@code db-connection-timeout-ms}, 10 s by default) plus a little: a server that never answers cannot hold an
 * API thread.
 */
public final class ConnectionTester implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ConnectionTester.class);
    /** Connection tests running at once; more are refused rather than queued behind hung servers. */
    private static final int MAX_RUNNING = 16;

    private final Drivers drivers;
    private final LongSupplier timeoutMillis;
    private final ThreadPoolExecutor executor;

    public ConnectionTester(Drivers drivers, LongSupplier timeoutMillis) {
        this.drivers = drivers;
        this.timeoutMillis = timeoutMillis;
        AtomicInteger n = new AtomicInteger();
        // Threads die after a minute idle: nothing lingers in a stopped webapp's class loader for long.
        this.executor = new ThreadPoolExecutor(0, MAX_RUNNING, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "quarry-connection-test-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Why connecting failed: a sentence, and hints per detail field (possibly none). */
    public record Failure(String message, Map<String, String> errors) {
        /** Metabase's body for a failed connection: {@code {"message": ..., "errors": {...}}}. */
        public Map<String, Object> body() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("message", message);
            body.put("errors", errors);
            return body;
        }

        /** A 400 answering {@link #body()}. */
        public ApiException toException() {
            return new ApiException(400, message, body());
        }

        static Failure of(Map<String, String> explained) {
            Map<String, String> errors = new LinkedHashMap<>(explained);
            String message = errors.remove(ConnectionErrors.MESSAGE);
            return new Failure(message == null ? "Unable to connect to database." : message, errors);
        }
    }

    /**
     * Connects with these details. Returns null when the database answered, the failure otherwise. Details the engine
     * cannot even turn into a connection (unknown engine, a forbidden option) answer a 400 naming the field instead.
     */
    public Failure test(String engine, Map<String, Object> details) {
        Driver driver = drivers.require(engine);
        Driver.ConnectionSpec spec = driver.connectionSpec(details);
        long millis = Math.max(500, timeoutMillis.getAsLong());
        int seconds = (int) Math.max(1, (millis + 999) / 1000);
        Properties properties = new Properties();
        properties.putAll(spec.properties());
        driver.applyTimeouts(properties, seconds);
        Driver.ConnectionSpec bounded = new Driver.ConnectionSpec(spec.driverClass(), spec.url(), properties);
        Future<SQLException> attempt;
        try {
            attempt = executor.submit(() -> tryConnect(driver, bounded, seconds));
        } catch (RejectedExecutionException e) {
            return new Failure("Too many connection tests are running at once; try again in a moment.", Map.of());
        }
        try {
            SQLException failure = attempt.get(millis + 2_000, TimeUnit.MILLISECONDS);
            if (failure == null) {
                return null;
            }
            log.info("Connecting to a {} database failed: {}", engine, JdbcDriver.rootMessage(failure));
            return Failure.of(driver.explainConnectionFailure(failure, details));
        } catch (TimeoutException e) {
            attempt.cancel(true);
            log.info("Connecting to a {} database timed out after {} ms", engine, millis);
            Map<String, String> explained = details.containsKey("host") ? ConnectionErrors.hostAndPort()
                    : ConnectionErrors.of("Timed out connecting to the database.", "db", "check your connection string");
            return Failure.of(explained);
        } catch (ExecutionException e) {
            SQLException failure = new SQLException(String.valueOf(e.getCause().getMessage()), e.getCause());
            return Failure.of(driver.explainConnectionFailure(failure, details));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            attempt.cancel(true);
            return new Failure("Interrupted while connecting to the database.", Map.of());
        }
    }

    /** As {@link #test}, throwing the failure's 400. */
    public void require(String engine, Map<String, Object> details) {
        Failure failure = test(engine, details);
        if (failure != null) {
            throw failure.toException();
        }
    }

    /** Stops the test threads (a test still running is interrupted). */
    @Override
    public void close() {
        executor.shutdownNow();
    }

    private static SQLException tryConnect(Driver driver, Driver.ConnectionSpec spec, int seconds) {
        try (Connection connection = Drivers.open(spec); Statement statement = connection.createStatement()) {
            try {
                statement.setQueryTimeout(seconds);
            } catch (SQLException | UnsupportedOperationException e) {
                // not every driver supports query timeouts; the caller's wait is bounded anyway
            }
            statement.execute(driver.validationQuery());
            return null;
        } catch (SQLException e) {
            return e;
        } catch (RuntimeException e) {
            return new SQLException(String.valueOf(e.getMessage()), e);
        }
    }
}
