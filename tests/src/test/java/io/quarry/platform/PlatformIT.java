package io.quarry.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** Health, error conventions, setup and sign-in, over HTTP against the real webapp. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PlatformIT {
    private static TestServer server;
    private static Api api;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        api = server.api();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    @Order(1)
    void healthAnswersOk() {
        assertEquals("ok", api.get(200, "health").json().get("status").asText());
    }

    @Test
    @Order(1)
    void trailingSlashesAndBodilessRequestsAreAccepted() {
        Api.Res props = api.get(200, "session/properties/");
        assertEquals("application/json;charset=utf-8", props.header("Content-Type").replace(" ", ""));
        JsonNode missing = api.post(400, "session/", null).json();
        assertEquals("value must be a non-blank string.", missing.get("errors").get("password").asText());
        assertEquals("missing required key, received: nil", missing.get("specific-errors").get("password").get(0).asText());
    }

    @Test
    @Order(1)
    void unknownEndpointAnswersMetabasesText() {
        Api.Res res = api.get(404, "no-such-thing");
        assertEquals("API endpoint does not exist.", res.body());
        assertTrue(res.header("Content-Type").startsWith("text/plain"));
    }

    @Test
    @Order(1)
    void propertiesBeforeSetupShowTheSetupToken() {
        JsonNode props = api.get(200, "session/properties").json();
        assertFalse(props.get("has-user-setup").asBoolean());
        assertEquals(36, props.get("setup-token").asText().length());
        assertTrue(props.has("available-locales"));
        assertEquals(1, props.get("password-complexity").get("digit").asInt());
        assertFalse(props.has("site-uuid"), "authenticated-only settings stay hidden from anonymous callers");
        assertFalse(props.has("email-smtp-password"), "sensitive settings never appear");
    }

    @Test
    @Order(1)
    void setupRejectsWrongTokenAndBadFieldsWithoutCreatingAnything() {
        JsonNode err = api.post(400, "setup", Map.of("token", "nope", "user", Map.of("email", "a@b.co", "password", "x-Strong-99"),
                "prefs", Map.of("site_name", "X"))).json();
        assertEquals("Token does not match the setup token.", err.get("errors").get("token").asText());

        String token = api.get(200, "session/properties").json().get("setup-token").asText();
        JsonNode bad = api.post(400, "setup", Map.of("token", token, "user", Map.of("email", "not-an-email", "password", " "),
                "prefs", Map.of("site_name", ""))).json();
        assertEquals("value must be a valid email address.", bad.get("errors").get("email").asText());
        JsonNode weak = api.post(400, "setup", Map.of("token", token, "user", Map.of("email", "a@b.co", "password", "password"),
                "prefs", Map.of("site_name", "X"))).json();
        assertEquals("password is too common.", weak.get("errors").get("password").asText());
        assertFalse(api.get(200, "session/properties").json().get("has-user-setup").asBoolean());
    }

    @Test
    @Order(2)
    void setupCreatesTheAdminAndSignsThemIn() {
        String token = api.get(200, "session/properties").json().get("setup-token").asText();
        String session = Fixtures.setUp(api);
        assertNotNull(session);
        JsonNode props = api.as(session).get(200, "session/properties").json();
        assertTrue(props.get("has-user-setup").asBoolean());
        assertTrue(props.get("setup-token").isNull());
        assertEquals("Quarry Test", props.get("site-name").asText());
        assertTrue(props.has("site-uuid"));
        // a second setup is refused, even with the right token
        api.post(403, "setup", Map.of("token", token, "user", Map.of("email", "b@b.co", "password", "x-Strong-99"),
                "prefs", Map.of("site_name", "X")));
    }

    @Test
    @Order(3)
    void loginLogoutAndCookies() {
        Api.Res bad = api.post(401, "session", Map.of("username", Fixtures.ADMIN_EMAIL, "password", "wrong-1"));
        assertEquals("did not match stored password", bad.json().get("errors").get("password").asText());
        Api.Res unknown = api.post(401, "session", Map.of("username", "nobody@example.com", "password", "wrong-1"));
        assertEquals(bad.body(), unknown.body(), "unknown users and wrong passwords answer alike");
        JsonNode blank = api.post(400, "session", Map.of("username", "", "password", "x")).json();
        assertEquals("value must be a non-blank string.", blank.get("errors").get("username").asText());

        Api.Res ok = api.post(200, "session", Map.of("username", Fixtures.ADMIN_EMAIL.toUpperCase(), "password", Fixtures.ADMIN_PASSWORD,
                "remember", true));
        String session = ok.json().get("id").asText();
        String cookie = ok.header("Set-Cookie");
        assertTrue(cookie.startsWith("metabase.SESSION=" + session), cookie);
        assertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Max-Age=1209600"), cookie);

        // the cookie alone authenticates
        api.withHeader("Cookie", "metabase.SESSION=" + session).get(200, "session/properties");
        api.as(session).delete(204, "session");
        api.as(session).delete(404, "session");
        api.delete(404, "session");
    }

    @Test
    @Order(3)
    void malformedJsonIsA400() {
        // Metabase's ring-json answer, in plain text, before authentication (COMPAT-2 §G)
        Api.Res res = api.call("POST", "session", "{not json");
        assertEquals(400, res.status());
        assertEquals("Malformed JSON in request body.", res.body());
    }
}
