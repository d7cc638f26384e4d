package io.quarry.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.appdb.AppDatabaseUnavailable;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue #30: requests already in flight when the PostgreSQL application database freezes ({@code SIGSTOP}) answer
 * 503 within 10 s with the default timeouts; before, a card write waited for the 30 s socket timeout and a 10 s login
 * after it (40 s). The requests are held on the database first by table locks that the test takes on a connection
 * of its own (and, with a pool of four connections, some wait for a free connection), so they are surely in flight
 * when the server stops answering.
 */
class FrozenAppDatabaseInFlightIT {
    private static final Duration BOUND = Duration.ofSeconds(10);

    private static FrozenPostgres postgres;
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static long card;
    private static long dashboard;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(TestAppDb.isPostgres(), "the PostgreSQL application database pass");
        postgres = new FrozenPostgres();
        postgres.createDatabase("quarry_inflight");
        Map<String, String> config = new LinkedHashMap<>();
        config.put("MB_DB_TYPE", "postgres");
        config.put("MB_DB_CONNECTION_URI", "postgres://localhost:" + postgres.port() + "/quarry_inflight");
        config.put("MB_DB_USER", "postgres");
        config.put("MB_DB_PASS", "postgres");
        config.put("MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE", "4");
        // No timeout given: the defaults are what is proved.
        server = TestServer.startWith(config);
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        long database = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", TargetDatabases.h2Details(TargetDatabases.h2Shop()))).json().get("id").asLong();
        card = admin.post(200, "card", Map.of("name", "Orders", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", database, "type", "native", "native", Map.of("query", "SELECT 1 AS ONE"))))
                .json().get("id").asLong();
        dashboard = admin.post(200, "dashboard", Map.of("name", "Board")).json().get("id").asLong();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void requestsInFlightWhenTheDatabaseFreezesAnswer503WithinTenSeconds() throws Exception {
        Map<String, Supplier<Api.Res>> requests = new LinkedHashMap<>();
        requests.put("card write", () -> admin.call("PUT", "card/" + card, Map.of("name", "Orders renamed")));
        requests.put("card write 2", () -> admin.call("PUT", "card/" + card, Map.of("description", "frozen")));
        requests.put("dashboard read", () -> admin.call("GET", "dashboard/" + dashboard, null));
        requests.put("dashboard write", () -> admin.call("PUT", "dashboard/" + dashboard, Map.of("name", "Board renamed")));
        requests.put("search", () -> admin.call("GET", "search?q=Orders", null));
        requests.put("card read", () -> admin.call("GET", "card/" + card, null));
        requests.put("login", () -> anonymous.call("POST", "session",
                Map.of("username", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD)));
        requests.put("collection write", () -> admin.call("POST", "collection", Map.of("name", "Frozen")));

        ExecutorService clients = Executors.newFixedThreadPool(requests.size() + 4);
        String url = "jdbc:postgresql://localhost:" + postgres.port() + "/quarry_inflight";
        Connection locks = DriverManager.getConnection(url, "postgres", "postgres");
        List<Future<Timed>> inFlight = new ArrayList<>();
        long frozenAt;
        try {
            locks.setAutoCommit(false);
            try (Statement s = locks.createStatement()) {
                s.execute("LOCK TABLE report_card, report_dashboard, collection, core_user IN ACCESS EXCLUSIVE MODE");
            }
            requests.forEach((name, request) -> inFlight.add(clients.submit(() -> Timed.run(name, request))));
            awaitLockWaiters(url, 4);
            postgres.freeze();
            frozenAt = System.nanoTime();
            try {
                List<Future<Timed>> afterFreeze = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    afterFreeze.add(clients.submit(() -> Timed.run("card read after the freeze",
                            () -> admin.call("GET", "card/" + card, null))));
                }
                int answeredInFlight = 0;
                for (Future<Timed> future : inFlight) {
                    Timed done = future.get(60, TimeUnit.SECONDS);
                    long sinceFreeze = (done.endedAt - frozenAt) / 1_000_000;
                    System.out.printf("FrozenAppDatabaseInFlightIT: %s answered %d %d ms after the freeze%n", done.name,
                            done.res.status(), sinceFreeze);
                    assertTrue(sinceFreeze <= BOUND.toMillis(), done.name + " answered " + sinceFreeze + " ms after the freeze");
                    if (done.endedAt > frozenAt) {
                        answeredInFlight++;
                        assertEquals(503, done.res.status(), done.name + ": " + done.res.body());
                        assertEquals(AppDatabaseUnavailable.MESSAGE, done.res.body(), done.name);
                    }
                }
                assertTrue(answeredInFlight >= 4, answeredInFlight + " requests were in flight at the freeze");
                for (Future<Timed> future : afterFreeze) {
                    Timed done = future.get(60, TimeUnit.SECONDS);
                    long took = (done.endedAt - done.startedAt) / 1_000_000;
                    System.out.printf("FrozenAppDatabaseInFlightIT: %s answered %d after %d ms%n", done.name, done.res.status(), took);
                    assertTrue(took <= BOUND.toMillis(), done.name + " took " + took + " ms");
                    assertEquals(503, done.res.status(), done.res.body());
                }
            } finally {
                postgres.thaw();
            }
        } finally {
            locks.close();
            clients.shutdownNow();
        }
        awaitRecovery();
    }

    /** Waits until the server's requests are queued behind the test's locks (at most 5 s). */
    private static void awaitLockWaiters(String url, int atLeast) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        try (Connection watch = DriverManager.getConnection(url, "postgres", "postgres"); Statement s = watch.createStatement()) {
            while (true) {
                try (ResultSet rows = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")) {
                    rows.next();
                    if (rows.getInt(1) >= atLeast) {
                        return;
                    }
                }
                assertTrue(System.nanoTime() < deadline, "requests wait on the locks");
                Thread.sleep(50);
            }
        }
    }

    private static void awaitRecovery() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (admin.call("GET", "health", null).status() != 200) {
            assertTrue(System.nanoTime() < deadline, "health recovers within 60 s");
            Thread.sleep(200);
        }
        Api.Res write = null;
        while (System.nanoTime() < deadline) {
            write = admin.call("PUT", "card/" + card, Map.of("name", "After the freeze"));
            if (write.status() == 200) {
                break;
            }
            Thread.sleep(200);
        }
        assertEquals(200, write.status(), write.body());
        assertEquals("After the freeze", admin.get(200, "card/" + card).json().get("name").asText());
        Fixtures.login(anonymous, Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
        admin.get(200, "search", "q", "After");
    }

    private record Timed(String name, Api.Res res, long startedAt, long endedAt) {
        static Timed run(String name, Supplier<Api.Res> request) {
            long began = System.nanoTime();
            Api.Res res = request.get();
            return new Timed(name, res, began, System.nanoTime());
        }
    }
}
