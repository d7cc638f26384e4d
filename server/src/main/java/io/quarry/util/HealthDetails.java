package io.quarry.util;

import io.quarry.appdb.AppDatabase;
import io.quarry.appdb.AppDatabaseHealth;
import io.quarry.core.ConnectionPools;
import io.quarry.core.Problem;
import io.quarry.mail.Mailer;
import io.quarry.qp.Warehouses;
import io.quarry.schedule.ClusterJobs;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * {@code GET /api/health/details}: each dependency checked now — the application database, each connected database
 * (a connection from its pool, asked whether it is valid), the SMTP server when e-mail is set up (connect and sign in),
 * and the scheduler (its polls of the job table and its leases) — with its status ({@code ok}, {@code down},
 * {@code not-configured}), the error of this check, and the last error seen in use with its time (a query that could
 * not get a connection, a message the SMTP server refused). The checks run side by side, each bounded by
 * {@link #CHECK_TIMEOUT}, so one frozen database delays the answer by that at most.
 */
public final class HealthDetails implements AutoCloseable {
    static final Duration CHECK_TIMEOUT = Duration.ofSeconds(5);
    /** The scheduler polls every 15 s: no finished poll for this long means it is stuck or failing. */
    static final Duration POLL_STALE = ClusterJobs.POLL_EVERY.multipliedBy(3);

    private final AppDatabase appDatabase;
    private final DatabaseService databases;
    private final Warehouses warehouses;
    private final ConnectionPools pools;
    private final Mailer mailer;
    private final ClusterJobs clusterJobs;
    private final ExecutorService checks;

    public HealthDetails(AppDatabase appDatabase, DatabaseService databases, Warehouses warehouses, ConnectionPools pools, Mailer mailer,
                         ClusterJobs clusterJobs) {
        this.appDatabase = appDatabase;
        this.databases = databases;
        this.warehouses = warehouses;
        this.pools = pools;
        this.mailer = mailer;
        this.clusterJobs = clusterJobs;
        AtomicInteger n = new AtomicInteger();
        this.checks = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "quarry-health-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** {@code {"status": "ok"|"down", "dependencies": [...]}}: down when any dependency is. */
    public Map<String, Object> check() {
        List<CompletableFuture<Map<String, Object>>> running = new ArrayList<>();
        running.add(bounded("app-db", "app-db", this::appDb));
        for (Database database : databases.list()) {
            running.add(bounded("db-" + database.id, "database", () -> warehouse(database)));
        }
        running.add(bounded("smtp", "smtp", this::smtp));
        running.add(bounded("scheduler", "scheduler", this::scheduler));
        List<Map<String, Object>> dependencies = new ArrayList<>();
        boolean down = false;
        for (CompletableFuture<Map<String, Object>> check : running) {
            Map<String, Object> result = check.join();
            down |= "down".equals(result.get("status"));
            dependencies.add(result);
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("status", down ? "down" : "ok");
        answer.put("checked_at", Instant.now().toString());
        answer.put("dependencies", dependencies);
        return answer;
    }

    /** A check on a thread of its own; one that does not answer within the timeout is down. */
    private CompletableFuture<Map<String, Object>> bounded(String name, String kind, Supplier<Map<String, Object>> check) {
        long began = System.nanoTime();
        CompletableFuture<Map<String, Object>> future = CompletableFuture.supplyAsync(() -> {
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("name", name);
            result.put("kind", kind);
            result.putAll(check.get());
            return result;
        }, checks);
        return CompletableFuture.supplyAsync(() -> {
            Map<String, Object> result;
            try {
                result = future.get(CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                result = failed(name, kind, "No answer within " + CHECK_TIMEOUT.toSeconds() + " s");
            } catch (ExecutionException e) {
                result = failed(name, kind, Problem.of(e.getCause()).message());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                result = failed(name, kind, "interrupted");
            }
            result.put("duration_ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
            return result;
        }, checks);
    }

    private static Map<String, Object> failed(String name, String kind, String error) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("name", name);
        result.put("kind", kind);
        result.put("status", "down");
        result.put("error", error);
        return result;
    }

    private Map<String, Object> appDb() {
        AppDatabaseHealth.Result probe = appDatabase.health().check();
        Map<String, Object> result = status(probe.healthy(), probe.reason());
        result.put("pool", appDatabase.poolInfo());
        lastError(result, appDatabase.status().lastFailure());
        return result;
    }

    private Map<String, Object> warehouse(Database database) {
        String error = null;
        try {
            warehouses.check(database, (int) CHECK_TIMEOUT.toSeconds());
        } catch (Exception e) {
            error = Problem.of(e).message();
        }
        Map<String, Object> result = status(error == null, error);
        result.put("database_id", database.id);
        result.put("database_name", database.name);
        // the read pool as the check left it (opened by it, when no query had used the database yet)
        result.put("pool", pools.describe().get("db-" + database.id));
        lastError(result, warehouses.lastConnectionFailure(database.id));
        return result;
    }

    private Map<String, Object> smtp() {
        Map<String, Object> result;
        if (!mailer.configured()) {
            result = new LinkedHashMap<>();
            result.put("status", "not-configured");
            result.put("error", null);
        } else {
            String error = null;
            try {
                mailer.configuredServer().checkConnection(CHECK_TIMEOUT);
            } catch (Exception e) {
                error = Problem.of(e).message();
            }
            result = status(error == null, error);
        }
        Instant sent = mailer.lastSent();
        result.put("last_sent_at", sent == null ? null : sent.toString());
        lastError(result, mailer.lastFailure());
        return result;
    }

    private Map<String, Object> scheduler() {
        ClusterJobs.Health health = clusterJobs.health();
        Problem lastPollFailure = health.lastPollFailure();
        String error = null;
        if (!health.started()) {
            error = "The scheduler is not running";
        } else if (health.lastPoll() == null && lastPollFailure != null
                || health.lastPoll() != null && lastPollFailure != null && lastPollFailure.at().isAfter(health.lastPoll())) {
            error = "Polling the scheduled jobs failed: " + lastPollFailure.message();
        } else if (health.lastPoll() != null && health.lastPoll().isBefore(Instant.now().minus(POLL_STALE))) {
            error = "No poll of the scheduled jobs finished since " + health.lastPoll();
        }
        Map<String, Object> result = status(error == null, error);
        result.put("last_poll_at", health.lastPoll() == null ? null : health.lastPoll().toString());
        Problem lease = health.lastLeaseFailure();
        result.put("last_lease_error", lease == null ? null : lease.message());
        result.put("last_lease_error_at", lease == null ? null : lease.at().toString());
        Problem last = lastPollFailure;
        if (lease != null && (last == null || lease.at().isAfter(last.at()))) {
            last = lease;
        }
        lastError(result, last);
        return result;
    }

    private static Map<String, Object> status(boolean ok, String error) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("status", ok ? "ok" : "down");
        result.put("error", ok ? null : error);
        return result;
    }

    private static void lastError(Map<String, Object> result, Problem problem) {
        result.put("last_error", problem == null ? null : problem.message());
        result.put("last_error_at", problem == null ? null : problem.at().toString());
    }

    @Override
    public void close() {
        checks.shutdownNow();
    }
}
