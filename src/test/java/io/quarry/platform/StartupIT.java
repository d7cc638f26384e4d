package io.quarry.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarry.testing.Api;
import io.quarry.testing.TestServer;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Until start-up succeeds the API answers 503, with Metabase's health body. */
class StartupIT {
    @Test
    void unreachableApplicationDatabaseKeepsTheApiUnavailable() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Map<String, String> config = Map.of("MB_DB_TYPE", "postgres", "MB_DB_HOST", "127.0.0.1",
                "MB_DB_PORT", String.valueOf(closedPort), "MB_DB_DBNAME", "nothing", "MB_DB_USER", "nobody");
        try (TestServer server = TestServer.startUnchecked(config)) {
            Api api = server.api();
            String body = null;
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (System.nanoTime() < deadline) {
                Api.Res res = api.call("GET", "health", null);
                assertEquals(503, res.status());
                body = res.body();
                if (body.contains("Unable")) {
                    break;
                }
                assertEquals("initializing", res.json().get("status").asText());
                Thread.sleep(100);
            }
            assertEquals("{\"status\":\"Unable to get app-db connection\"}", body);
            Api.Res other = api.call("GET", "session/properties", null);
            assertEquals(503, other.status());
            assertEquals("Quarry is still initializing. Please sit tight...", other.body());
        }
    }
}
