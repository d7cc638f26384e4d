package io.quarry.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue #25, item 7: {@code POST /api/setup/validate} tests connections with the setup token only until setup is done
 * (Metabase closed it after CVE-2023-38646). Before: the token holder's test reaches the database. After: 403 whatever
 * the body, and nothing connects (a listener standing in for the database sees no connection).
 */
class SetupValidateIT {
    private static TestServer server;
    private static Api anonymous;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("MB_DB_CONNECTION_TIMEOUT_MS", "2000"));
        anonymous = server.api();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void validateWorksDuringSetupAndIsClosedAfterIt() throws Exception {
        String token = anonymous.get(200, "session/properties").json().get("setup-token").asText();
        // legitimate use, during setup: the connection is really tried
        assertTrue(anonymous.post(200, "setup/validate", Map.of("token", token, "details",
                Map.of("engine", "h2", "details", TargetDatabases.h2Details(TargetDatabases.h2Shop())))).json().get("valid").asBoolean());
        try (CountingListener listener = new CountingListener()) {
            anonymous.post(400, "setup/validate", Map.of("token", token, "engine", "postgres", "details", listener.details()));
            assertTrue(listener.accepted() > 0, "during setup the test connects");
        }

        Fixtures.setUp(anonymous);
        try (CountingListener listener = new CountingListener()) {
            for (Map<String, Object> body : List.<Map<String, Object>>of(
                    Map.of("token", token, "engine", "postgres", "details", listener.details()),
                    Map.of("token", token, "details", Map.of("engine", "postgres", "details", listener.details())),
                    Map.of("token", "wrong", "engine", "postgres", "details", listener.details()),
                    Map.of())) {
                assertEquals("Instance already initialized", anonymous.post(403, "setup/validate", body).body());
            }
            assertEquals("Instance already initialized", anonymous.postForm(403, "setup/validate", Map.of("token", token)).body());
            assertEquals(403, anonymous.call("POST", "setup/validate", null).status(), "no body");
            assertEquals(0, listener.accepted(), "after setup nothing connects");
        }
        // an administrator still tests connections, through the database endpoint
        String admin = Fixtures.login(anonymous, Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
        assertTrue(anonymous.as(admin).post(200, "database/validate", Map.of("engine", "h2",
                "details", TargetDatabases.h2Details(TargetDatabases.h2Shop()))).json().get("valid").asBoolean());
    }
}
