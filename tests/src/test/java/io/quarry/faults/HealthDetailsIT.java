package io.quarry.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/health/details} says what is wrong: a connected database whose server stopped is down with its
 * error, the last error stays reported (with its time) once it is back, and {@code GET /api/health} stays Metabase's
 * answer about the application database.
 */
class HealthDetailsIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";

    private static FrozenPostgres target;
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api ordinary;
    private static long databaseId;

    @BeforeAll
    static void start() throws Exception {
        target = new FrozenPostgres();
        target.createDatabase("health_target");
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        ordinary = Fixtures.ordinaryCaller(anonymous, admin);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("host", "localhost");
        details.put("port", target.port());
        details.put("dbname", "health_target");
        details.put("user", "postgres");
        details.put("password", "postgres");
        databaseId = admin.post(200, "database", Map.of("engine", "postgres", "name", "Stoppable", "details", details))
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

    private static JsonNode dependency(JsonNode details, String name) {
        for (JsonNode dependency : details.get("dependencies")) {
            if (name.equals(dependency.get("name").asText())) {
                return dependency;
            }
        }
        throw new AssertionError("no dependency " + name + " in " + details);
    }

    @Test
    void onlyAdministratorsSeeTheDetails() {
        assertEquals("Unauthenticated", anonymous.get(401, "health/details").body());
        assertEquals(FORBIDDEN, ordinary.get(403, "health/details").body());
        assertEquals("{\"status\":\"ok\"}", anonymous.get(200, "health").body(), "GET /api/health is still Metabase's");
    }

    @Test
    void aStoppedDatabaseIsDownWithItsErrorAndItsLastErrorStays() throws Exception {
        JsonNode healthy = admin.get(200, "health/details").json();
        assertEquals("ok", healthy.get("status").asText(), healthy.toString());
        JsonNode database = dependency(healthy, "db-" + databaseId);
        assertEquals("ok", database.get("status").asText(), database.toString());
        assertEquals("database", database.get("kind").asText());
        assertEquals("Stoppable", database.get("database_name").asText());
        assertEquals(15, database.get("pool").get("maxPoolSize").asInt(), database.toString());
        assertTrue(database.get("duration_ms").asLong() >= 0);
        assertTrue(database.get("last_error").isNull(), database.toString());
        assertEquals("ok", dependency(healthy, "app-db").get("status").asText());
        assertEquals("not-configured", dependency(healthy, "smtp").get("status").asText());
        JsonNode scheduler = dependency(healthy, "scheduler");
        assertEquals("ok", scheduler.get("status").asText(), scheduler.toString());
        assertTrue(scheduler.hasNonNull("last_poll_at"), scheduler.toString());

        Instant stopped = Instant.now();
        target.stop();
        try {
            JsonNode down = admin.get(200, "health/details").json();
            assertEquals("down", down.get("status").asText(), down.toString());
            JsonNode stoppedDatabase = dependency(down, "db-" + databaseId);
            assertEquals("down", stoppedDatabase.get("status").asText(), stoppedDatabase.toString());
            String error = stoppedDatabase.get("error").asText();
            assertTrue(error.contains("refused") || error.contains("onnection"), error);
            assertEquals(error, stoppedDatabase.get("last_error").asText());
            assertTrue(!Instant.parse(stoppedDatabase.get("last_error_at").asText()).isBefore(stopped.minusSeconds(1)));
            // the rest is unaffected, and a load balancer's health check still passes
            assertEquals("ok", dependency(down, "app-db").get("status").asText());
            assertEquals("{\"status\":\"ok\"}", anonymous.get(200, "health").body());
            // a query that could not reach it answers its failure, as before
            Api.Res query = admin.call("POST", "dataset", Map.of("database", databaseId, "type", "native",
                    "native", Map.of("query", "SELECT 1")));
            assertEquals("failed", query.json().get("status").asText(), query.body());
        } finally {
            target.restart();
        }

        JsonNode back = admin.get(200, "health/details").json();
        JsonNode recovered = dependency(back, "db-" + databaseId);
        assertEquals("ok", recovered.get("status").asText(), recovered.toString());
        assertTrue(recovered.get("error").isNull());
        assertNotNull(recovered.get("last_error").textValue(), "the last error is still reported once it is back");
        assertEquals("ok", back.get("status").asText());
    }
}
