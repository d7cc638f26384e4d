package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code GET /api/login-history/current}: the caller's own sign-ins, newest first, without session secrets. */
class LoginHistoryIT {
    private static final String FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
    private static final String CHROME =
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

    private static TestServer server;
    private static Api anonymous;
    private static String setupSession;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        anonymous = server.api();
        setupSession = Fixtures.setUp(anonymous);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String login(String userAgent) {
        return anonymous.withHeader("User-Agent", userAgent)
                .post(200, "session", Map.of("username", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD))
                .json().get("id").asText();
    }

    @Test
    void anonymousCallersAreUnauthenticated() {
        assertEquals("Unauthenticated", anonymous.get(401, "login-history/current").body());
    }

    @Test
    void signInsAreListedNewestFirstWithWhetherTheirSessionIsStillOpen() {
        String firefox = login(FIREFOX);
        String chrome = login(CHROME);
        anonymous.as(firefox).delete(204, "session");

        Api.Res res = anonymous.as(chrome).get(200, "login-history/current");
        JsonNode history = res.json();
        assertTrue(history.size() >= 3, history.toString());
        for (JsonNode entry : history) {
            List<String> fields = new ArrayList<>();
            entry.fieldNames().forEachRemaining(fields::add);
            assertEquals(List.of("timestamp", "device_description", "ip_address", "active", "location", "timezone"), fields);
            assertEquals("127.0.0.1", entry.get("ip_address").asText());
        }
        JsonNode newest = history.get(0);
        JsonNode previous = history.get(1);
        assertEquals("Browser (Chrome/Windows)", newest.get("device_description").asText());
        assertTrue(newest.get("active").asBoolean());
        assertEquals("Browser (Firefox/Linux)", previous.get("device_description").asText());
        assertFalse(previous.get("active").asBoolean(), "that session was logged out");
        assertTrue(history.get(history.size() - 1).get("active").asBoolean(), "the setup session is still open");
        OffsetDateTime last = null;
        for (JsonNode entry : history) {
            OffsetDateTime at = OffsetDateTime.parse(entry.get("timestamp").asText());
            assertTrue(last == null || !at.isAfter(last), "newest first");
            last = at;
        }
        for (String session : List.of(firefox, chrome, setupSession)) {
            assertFalse(res.body().contains(session), "no session id in the body");
        }
        assertFalse(res.body().contains("hash") || res.body().contains("device_id"), res.body());
    }

    @Test
    void anApiKeyHasNoSignIns() {
        String key = anonymous.as(setupSession).post(200, "api-key", Map.of("name", "History", "group_id", 2))
                .json().get("unmasked_key").asText();
        assertEquals("[]", anonymous.withApiKey(key).get(200, "login-history/current").body());
    }
}
