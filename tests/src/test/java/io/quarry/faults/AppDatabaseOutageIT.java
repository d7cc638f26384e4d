package io.quarry.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.quarry.appdb.AppDatabaseStatus;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import io.quarry.web.error.UnexpectedExceptionMapper;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL application database stopped, then frozen: requests answer 503 with a message that says so within a
 * bounded time, {@code /api/health} answers within about 1.5 s, the outage is logged once (start and end), and
 * Quarry recovers when the database is back.
 */
class AppDatabaseOutageIT {
    private static final String UNAVAILABLE = "The application database is unavailable. Please try again later.";

    private static FrozenPostgres postgres;
    private static TestServer server;
    private static Api admin;
    private static long collection;
    private final ListAppender<ILoggingEvent> statusLog = new ListAppender<>();
    private final ListAppender<ILoggingEvent> errorLog = new ListAppender<>();

    @BeforeAll
    static void start() throws Exception {
        // Runs once, with the PostgreSQL pass; its database is its own either way.
        Assumptions.assumeTrue(TestAppDb.isPostgres(), "the PostgreSQL application database pass");
        postgres = new FrozenPostgres();
        postgres.createDatabase("quarry_outage");
        Map<String, String> config = new LinkedHashMap<>();
        config.put("MB_DB_TYPE", "postgres");
        config.put("MB_DB_CONNECTION_URI", "postgres://localhost:" + postgres.port() + "/quarry_outage");
        config.put("MB_DB_USER", "postgres");
        config.put("MB_DB_PASS", "postgres");
        config.put("MB_APPLICATION_DB_CONNECT_TIMEOUT_SECONDS", "3");
        config.put("MB_APPLICATION_DB_SOCKET_TIMEOUT_SECONDS", "5");
        server = TestServer.startWith(config);
        Api anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        collection = admin.post(200, "collection", Map.of("name", "Kept")).json().get("id").asLong();
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

    @BeforeEach
    void captureLogs() {
        statusLog.start();
        errorLog.start();
        ((Logger) LoggerFactory.getLogger(AppDatabaseStatus.class)).addAppender(statusLog);
        ((Logger) LoggerFactory.getLogger(UnexpectedExceptionMapper.class)).addAppender(errorLog);
    }

    @Test
    void stoppedDatabaseAnswers503AndRecovers() throws Exception {
        postgres.stop();
        try {
            for (int i = 0; i < 10; i++) {
                Api.Res read = timed(Duration.ofSeconds(10), () -> admin.call("GET", "collection/" + collection, null));
                assertEquals(503, read.status(), read.body());
                assertEquals(UNAVAILABLE, read.body());
                Api.Res write = timed(Duration.ofSeconds(10), () -> admin.call("POST", "collection", Map.of("name", "Lost")));
                assertEquals(503, write.status(), write.body());
            }
            Api.Res health = timed(Duration.ofMillis(2500), () -> admin.call("GET", "health", null));
            assertEquals(503, health.status(), health.body());
        } finally {
            postgres.restart();
        }
        awaitRecovery();
        assertOutageLoggedOnce();
    }

    @Test
    void frozenDatabaseFailsWithinBoundedTimeAndHealthStaysFast() throws Exception {
        postgres.freeze();
        try {
            // Health reuses a probe for up to 1 s: the first one after the freeze may still be the last good one.
            Thread.sleep(1100);
            for (int i = 0; i < 3; i++) {
                Api.Res health = timed(Duration.ofMillis(2500), () -> admin.call("GET", "health", null));
                assertEquals(503, health.status(), health.body());
            }
            // Pool wait (3 s) / validation and socket timeouts (5 s) / login (3 s): bounded, far below the freeze.
            long began = System.nanoTime();
            Api.Res read = timed(Duration.ofSeconds(25), () -> admin.call("GET", "collection/" + collection, null));
            System.out.printf("AppDatabaseOutageIT: a request on the frozen application database answered %d after %d ms%n",
                    read.status(), (System.nanoTime() - began) / 1_000_000);
            assertEquals(503, read.status(), read.body());
            assertEquals(UNAVAILABLE, read.body());
            Api.Res health = timed(Duration.ofMillis(2500), () -> admin.call("GET", "health", null));
            assertEquals(503, health.status(), health.body());
        } finally {
            postgres.thaw();
        }
        awaitRecovery();
        assertOutageLoggedOnce();
    }

    private static void awaitRecovery() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (admin.call("GET", "health", null).status() != 200) {
            assertTrue(System.nanoTime() < deadline, "health recovers within 60 s");
            Thread.sleep(200);
        }
        assertEquals("Kept", admin.get(200, "collection/" + collection).json().get("name").asText());
        admin.post(200, "collection", Map.of("name", "After"));
    }

    private void assertOutageLoggedOnce() {
        List<String> messages = statusLog.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertEquals(1, messages.stream().filter(m -> m.contains("is unavailable")).count(), messages.toString());
        assertEquals(1, messages.stream().filter(m -> m.contains("available again")).count(), messages.toString());
        assertEquals(List.of(), errorLog.list.stream().map(ILoggingEvent::getFormattedMessage).toList(), "no 500s");
        ((Logger) LoggerFactory.getLogger(AppDatabaseStatus.class)).detachAppender(statusLog);
        ((Logger) LoggerFactory.getLogger(UnexpectedExceptionMapper.class)).detachAppender(errorLog);
    }

    private static <T> T timed(Duration limit, Callable<T> call) throws Exception {
        long began = System.nanoTime();
        T result = call.call();
        Duration took = Duration.ofNanos(System.nanoTime() - began);
        assertTrue(took.compareTo(limit) <= 0, "answered in " + took.toMillis() + " ms, limit " + limit.toMillis() + " ms");
        return result;
    }
}
