package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.InProcess;
import io.quarry.testing.TestServer;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Password sign-in throttling per username, over HTTP. */
class LoginThrottleIT {
    private static final Pattern THROTTLED = Pattern.compile("Too many attempts! You must wait (\\d+) seconds before trying again.");

    @Test
    void tenFailuresLockTheUsernameEvenForTheRightPasswordButNoOtherUsername() {
        try (TestServer server = TestServer.start(Map.of())) {
            Api api = server.api();
            Fixtures.setUp(api);
            InProcess.createUser(server, "lucky@example.com", "Lucky-pass1", false);

            for (int i = 0; i < 10; i++) {
                JsonNode wrong = api.post(401, "session", Map.of("username", Fixtures.ADMIN_EMAIL, "password", "wrong-" + i)).json();
                assertEquals("did not match stored password", wrong.get("errors").get("password").asText());
            }
            Api.Res locked = api.post(401, "session", Map.of("username", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD));
            Matcher m = THROTTLED.matcher(locked.json().get("errors").get("username").asText());
            assertTrue(m.matches(), locked.body());
            int seconds = Integer.parseInt(m.group(1));
            assertTrue(seconds >= 13 && seconds <= 15, "the first lock is 15 s: " + seconds);
            assertEquals(1, locked.json().get("errors").size(), locked.body());
            // the username is matched case-insensitively
            api.post(401, "session", Map.of("username", Fixtures.ADMIN_EMAIL.toUpperCase(), "password", Fixtures.ADMIN_PASSWORD));

            // another username from the same client is unaffected
            Fixtures.login(api, "lucky@example.com", "Lucky-pass1");
        }
    }

    @Test
    void noThrottleWhenSwitchedOff() {
        try (TestServer server = TestServer.start(Map.of("MB_DISABLE_SESSION_THROTTLE", "true"))) {
            Api api = server.api();
            Fixtures.setUp(api);
            for (int i = 0; i < 12; i++) {
                api.post(401, "session", Map.of("username", Fixtures.ADMIN_EMAIL, "password", "wrong-" + i));
            }
            Fixtures.login(api, Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
        }
    }
}
