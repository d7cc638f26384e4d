package io.quarry.notification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The unsubscribe endpoints for non-users, under the spec's path and Metabase v0.63's. */
class UnsubscribeIT {
    private static final List<String> PATHS = List.of("session/pulse/unsubscribe", "session/pulse/unsubscribe/undo",
            "pulse/unsubscribe", "pulse/unsubscribe/undo");

    private static TestServer server;
    private static Api api;
    private static String admin;
    private static String salt;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of());
        api = server.api();
        admin = Fixtures.setUp(api);
        salt = server.quarry().settings.string("site-uuid-for-unsubscribing-url");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> body(String email, String hash, Object pulseId) {
        Map<String, Object> body = new HashMap<>();
        body.put("email", email);
        body.put("hash", hash);
        body.put("pulse-id", pulseId);
        return body;
    }

    @Test
    void theSaltIsAnInstanceSecretThatIsNeverShown() {
        assertEquals(36, salt.length());
        String everything = api.as(admin).get(200, "session/properties").body();
        assertTrue(!everything.contains(salt) && !everything.contains("site-uuid-for-unsubscribing-url"));
    }

    @Test
    void aGenuineHashForAPulseThatDoesNotExistIsNotFound() {
        String hash = UnsubscribeHash.of(salt, "outsider@example.com", 42);
        for (String path : PATHS) {
            assertEquals("Not found.", api.post(404, path, body("outsider@example.com", hash, 42)).body(), path);
            // signed in or not makes no difference
            assertEquals("Not found.", api.as(admin).post(404, path, body("outsider@example.com", hash, 42)).body(), path);
        }
    }

    @Test
    void aWrongHashIsRefused() {
        String hash = UnsubscribeHash.of(salt, "outsider@example.com", 42);
        for (String path : PATHS) {
            assertEquals("Invalid hash.", api.post(400, path, body("outsider@example.com", hash, 43)).body(), path);
            assertEquals("Invalid hash.", api.post(400, path, body("someone@example.com", hash, 42)).body(), path);
            assertEquals("Invalid hash.", api.post(400, path, body("outsider@example.com", (hash.charAt(0) == '0' ? "1" : "0") + hash.substring(1), 42)).body(), path);
            assertEquals("Invalid hash.", api.post(400, path, body("outsider@example.com", "", 42)).body(), path);
            // a hash made with another instance's salt
            String foreign = UnsubscribeHash.of("08534993-94c6-4bac-a1ad-86c9668ee8f5", "outsider@example.com", 42);
            assertEquals("Invalid hash.", api.post(400, path, body("outsider@example.com", foreign, 42)).body(), path);
        }
    }

    @Test
    void eachParameterIsValidated() {
        String hash = UnsubscribeHash.of(salt, "outsider@example.com", 42);
        for (String path : PATHS) {
            for (Object bad : new Object[]{0, -1, "42", "abc", 1.5}) {
                JsonNode err = api.post(400, path, body("outsider@example.com", hash, bad)).json();
                assertEquals("value must be an integer greater than zero.", err.get("errors").get("pulse-id").asText(), path + " " + bad);
            }
            JsonNode missing = api.post(400, path, Map.of("email", "outsider@example.com", "hash", hash)).json();
            assertEquals("value must be an integer greater than zero.", missing.get("errors").get("pulse-id").asText());
            JsonNode noEmail = api.post(400, path, Map.of("hash", hash, "pulse-id", 42)).json();
            assertEquals("value must be a string.", noEmail.get("errors").get("email").asText());
            JsonNode numericEmail = api.post(400, path, Map.of("email", 12, "hash", hash, "pulse-id", 42)).json();
            assertEquals("value must be a string.", numericEmail.get("errors").get("email").asText());
            JsonNode noHash = api.post(400, path, Map.of("email", "outsider@example.com", "pulse-id", 42)).json();
            assertEquals("value must be a string.", noHash.get("errors").get("hash").asText());
            JsonNode everything = api.post(400, path, Map.of()).json().get("errors");
            assertEquals(3, everything.size(), everything.toString());
        }
    }

    @Test
    void fiftyChecksAnHourPerClient() {
        try (TestServer own = TestServer.start(Map.of())) {
            Api client = own.api();
            String ownSalt = own.quarry().settings.string("site-uuid-for-unsubscribing-url");
            String hash = UnsubscribeHash.of(ownSalt, "outsider@example.com", 7);
            // every check counts, whichever path and whatever its outcome
            for (int i = 0; i < 50; i++) {
                String path = PATHS.get(i % PATHS.size());
                if (i % 2 == 0) {
                    client.post(404, path, body("outsider@example.com", hash, 7));
                } else {
                    client.post(400, path, body("outsider@example.com", "bad", 7));
                }
            }
            JsonNode throttled = client.post(400, "pulse/unsubscribe", body("outsider@example.com", hash, 7)).json();
            assertTrue(throttled.get("errors").get("unsubscribe").asText()
                    .matches("Too many attempts! You must wait \\d+ seconds before trying again."), throttled.toString());
        }
    }
}
