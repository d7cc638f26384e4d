package io.quarry.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A connected PostgreSQL that stops answering (SIGSTOP): a query fails within the query timeout plus the read-timeout
 * margin instead of hanging on keep-alive newlines, and works again once the database is back. Also: a failed query
 * names the driver's exception class to administrators only.
 */
class FrozenTargetIT {
    private static FrozenPostgres target;
    private static TestServer server;
    private static Api admin;
    private static Api anonymous;
    private static long databaseId;

    @BeforeAll
    static void start() throws Exception {
        // The application database plays no part: once, with the H2 pass.
        Assumptions.assumeFalse(TestAppDb.isPostgres(), "the H2 application database pass");
        target = new FrozenPostgres();
        target.createDatabase("frozen_target");
        server = TestServer.start(Map.of("MB_DB_QUERY_TIMEOUT_SECONDS", "5"));
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("host", "localhost");
        details.put("port", target.port());
        details.put("dbname", "frozen_target");
        details.put("user", "postgres");
        details.put("password", "postgres");
        databaseId = admin.post(200, "database", Map.of("engine", "postgres", "name", "Frozen", "details", details))
                .json().get("id").asLong();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (target != null) {
            target.close();
        }
    }

    private static Map<String, Object> nativeQuery(String sql) {
        return Map.of("database", databaseId, "type", "native", "native", Map.of("query", sql));
    }

    @Test
    void frozenTargetFailsWithinBoundedTime() throws Exception {
        assertEquals(1, admin.post(202, "dataset", nativeQuery("SELECT 1")).json().get("data").get("rows").get(0).get(0).asInt());
        target.freeze();
        long began = System.nanoTime();
        Api.Res frozen;
        try {
            frozen = admin.call("POST", "dataset", nativeQuery("SELECT 2"));
        } finally {
            target.thaw();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - began);
        System.out.printf("FrozenTargetIT: a query on the frozen target failed after %d ms: %s%n", took.toMillis(),
                frozen.json().path("error").asText());
        // query timeout 5 s + read-timeout margin 15 s (+ validation and reconnect): far below the 60 s client timeout
        assertTrue(took.compareTo(Duration.ofSeconds(45)) < 0, "failed after " + took.toMillis() + " ms");
        assertEquals("failed", frozen.json().get("status").asText(), frozen.body());
        assertEquals(2, admin.post(202, "dataset", nativeQuery("SELECT 2")).json().get("data").get("rows").get(0).get(0).asInt());
    }

    @Test
    void driverExceptionClassOnlyForAdministrators() {
        JsonNode asAdmin = admin.call("POST", "dataset", nativeQuery("SELECT * FROM no_such_table")).json();
        assertEquals("failed", asAdmin.get("status").asText());
        assertEquals("class org.postgresql.util.PSQLException", asAdmin.get("class").asText());
        Api ordinary = Fixtures.ordinaryCaller(anonymous, admin);
        Api.Res res = ordinary.call("POST", "dataset", nativeQuery("SELECT * FROM no_such_table"));
        JsonNode asUser = res.json();
        assertEquals("failed", asUser.get("status").asText(), res.body());
        assertFalse(asUser.has("class"), res.body());
        assertEquals(asAdmin.get("error").asText(), asUser.get("error").asText());
    }
}
