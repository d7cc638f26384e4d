package io.quarry.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.TestServer;
import io.quarry.testing.TestAppDb;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.Statement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Until start-up succeeds the API answers 503, with Metabase's health status plus what is wrong (where, why, the fix);
 * an application database that comes up later is used without a restart.
 */
class StartupIT {
    @Test
    void unreachableApplicationDatabaseKeepsTheApiUnavailableAndSaysWhy() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Map<String, String> config = Map.of("MB_DB_TYPE", "postgres", "MB_DB_HOST", "127.0.0.1",
                "MB_DB_PORT", String.valueOf(closedPort), "MB_DB_DBNAME", "nothing", "MB_DB_USER", "nobody");
        try (TestServer server = TestServer.startUnchecked(config)) {
            Api api = server.api();
            JsonNode health = awaitProblem(api);
            assertEquals("Unable to get app-db connection", health.get("status").asText());
            String message = health.get("message").asText();
            assertTrue(message.contains("127.0.0.1:" + closedPort), message);
            assertTrue(message.contains("createdb"), message);
            assertTrue(health.get("retrying").asBoolean());
            Api.Res other = api.call("GET", "session/properties", null);
            assertEquals(503, other.status());
            assertTrue(other.body().startsWith("Quarry cannot start: ") && other.body().contains("127.0.0.1:" + closedPort), other.body());
        }
    }

    @Test
    void applicationDatabaseThatBecomesUsableIsUsedWithoutRestart(@org.junit.jupiter.api.io.TempDir Path temp) throws Exception {
        // a plain file where the H2 file's directory should be: H2 cannot create its database until it is gone
        Path blocked = temp.resolve("data");
        Files.writeString(blocked, "not a directory");
        Map<String, String> config = Map.of("MB_DB_TYPE", "h2", "MB_DB_FILE", blocked.resolve("quarry.db").toString());
        try (TestServer server = TestServer.startUnchecked(config)) {
            Api api = server.api();
            JsonNode health = awaitProblem(api);
            String message = health.get("message").asText();
            assertTrue(message.contains(blocked.resolve("quarry.db") + ".mv.db"), message);
            assertTrue(message.contains("MB_DATA_DIR"), message);
            Files.delete(blocked);
            server.awaitHealthy(Duration.ofSeconds(60));
            assertEquals("ok", api.get(200, "health").json().get("status").asText());
            assertTrue(Files.isRegularFile(blocked.resolve("quarry.db.mv.db")));
        }
    }

    @Test
    void postgresDatabaseCreatedAfterStartIsUsedWithoutRestart() throws Exception {
        String name = "quarry_late_" + System.nanoTime();
        Map<String, String> config = new java.util.HashMap<>(TestAppDb.sharedPostgres(name));
        config.put("MB_DB_TYPE", "postgres");
        try (TestServer server = TestServer.startUnchecked(config)) {
            Api api = server.api();
            String message = awaitProblem(api).get("message").asText();
            assertTrue(message.contains("/" + name) && message.contains("createdb"), message);
            try (Connection admin = TestAppDb.postgres().getPostgresDatabase().getConnection();
                 Statement statement = admin.createStatement()) {
                statement.execute("CREATE DATABASE " + name);
            }
            server.awaitHealthy(Duration.ofSeconds(90));
            assertEquals("ok", api.get(200, "health").json().get("status").asText());
        }
    }

    private static JsonNode awaitProblem(Api api) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            Api.Res res = api.call("GET", "health", null);
            assertEquals(503, res.status());
            if (res.body().contains("Unable")) {
                return res.json();
            }
            assertEquals("initializing", res.json().get("status").asText());
            Thread.sleep(100);
        }
        throw new AssertionError("health never reported the problem");
    }
}
