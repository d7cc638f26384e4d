package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.InProcess;
import io.quarry.testing.Mailbox;
import io.quarry.testing.TestServer;
import io.quarry.user.User;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Password reset end to end: the email through a real SMTP server, the link's token, the reset, the throttles. */
class PasswordResetIT {
    private static final String SITE = "http://quarry.example:8080";
    private static final String THROTTLE_TEXT = "Too many attempts! You must wait \\d+ seconds before trying again.";

    private static Mailbox mail;
    private static TestServer server;
    private static Api api;

    @BeforeAll
    static void start() {
        mail = new Mailbox();
        Map<String, String> config = new HashMap<>(mail.config());
        config.put("MB_SITE_URL", SITE);
        server = TestServer.start(config);
        api = server.api();
        Fixtures.setUp(api);
    }

    @AfterAll
    static void stop() {
        server.close();
        mail.close();
    }

    private static boolean signedIn(String session) {
        return api.as(session).get(200, "session/properties").json().has("site-uuid");
    }

    private static MimeMessage nextEmail() {
        int before = mail.count();
        return mail.await(before + 1)[before];
    }

    /** Asks for a reset and returns the email that answers it. */
    private static MimeMessage requestReset(String email) {
        int before = mail.count();
        api.post(204, "session/forgot_password", Map.of("email", email));
        return mail.await(before + 1)[before];
    }

    @Test
    void theWholeResetFlow() {
        User rasta = InProcess.createUser(server, "rasta@example.com", "Old-passw0rd", false);
        String oldSession = Fixtures.login(api, "rasta@example.com", "Old-passw0rd");

        // any case of the address works; the link is built on site-url
        MimeMessage email = requestReset("RASTA@example.com");
        assertEquals("rasta@example.com", Mailbox.to(email));
        String token = Mailbox.resetToken(email);
        assertNotNull(token, Mailbox.html(email));
        assertTrue(token.startsWith(rasta.id + "_"), token);
        assertTrue(Mailbox.html(email).contains(SITE + "/auth/reset_password/" + token), Mailbox.html(email));
        User stored = InProcess.findUser(server, "rasta@example.com");
        assertTrue(stored.resetToken.startsWith("$2a$"), "only a bcrypt hash of the token is stored");
        assertFalse(stored.resetToken.contains(token));

        assertTrue(api.get(200, "session/password_reset_token_valid", "token", token).json().get("valid").asBoolean());

        // a weak password is refused and the token survives
        JsonNode weak = api.post(400, "session/reset_password", Map.of("token", token, "password", "password")).json();
        assertEquals("password is too common.", weak.get("errors").get("password").asText());
        assertTrue(api.get(200, "session/password_reset_token_valid", "token", token).json().get("valid").asBoolean());
        Fixtures.login(api, "rasta@example.com", "Old-passw0rd");

        Api.Res ok = api.post(200, "session/reset_password", Map.of("token", token, "password", "N3w-passw0rd"));
        assertTrue(ok.json().get("success").asBoolean());
        String session = ok.json().get("session_id").asText();
        assertTrue(ok.header("Set-Cookie").startsWith("metabase.SESSION=" + session + ";"), ok.header("Set-Cookie"));
        assertTrue(signedIn(session));
        assertFalse(signedIn(oldSession), "the reset ends every other session");

        Fixtures.login(api, "rasta@example.com", "N3w-passw0rd");
        assertEquals("did not match stored password", api.post(401, "session",
                Map.of("username", "rasta@example.com", "password", "Old-passw0rd")).json().get("errors").get("password").asText());

        // the token is spent
        assertFalse(api.get(200, "session/password_reset_token_valid", "token", token).json().get("valid").asBoolean());
        JsonNode reused = api.post(400, "session/reset_password", Map.of("token", token, "password", "An0ther-passw0rd")).json();
        assertEquals("Invalid reset token", reused.get("errors").get("password").asText());
        Fixtures.login(api, "rasta@example.com", "N3w-passw0rd");
        assertNull(InProcess.findUser(server, "rasta@example.com").resetToken);
    }

    @Test
    void unknownAddressesAnswerTheSameAndGetNoEmail() {
        InProcess.createUser(server, "known@example.com", "Kn0wn-pass", false);
        int before = mail.count();
        Api.Res unknown = api.post(204, "session/forgot_password", Map.of("email", "nobody-" + UUID.randomUUID() + "@example.com"));
        Api.Res known = api.post(204, "session/forgot_password", Map.of("email", "known@example.com"));
        assertEquals(unknown.body(), known.body());
        MimeMessage[] all = mail.await(before + 1);
        // the known address's email arrives; give the unknown one's (which must not exist) time to show up too
        sleep(Duration.ofMillis(500));
        assertEquals(before + 1, mail.count());
        assertEquals("known@example.com", Mailbox.to(all[before]));
    }

    @Test
    void forgotPasswordRejectsBadAddressesAndSendsNothing() {
        int before = mail.count();
        for (Object bad : new Object[]{"not-an-email", "", 42}) {
            JsonNode err = api.post(400, "session/forgot_password", Map.of("email", bad)).json();
            assertEquals("value must be a valid email address.", err.get("errors").get("email").asText());
        }
        JsonNode missing = api.post(400, "session/forgot_password", Map.of()).json();
        assertEquals("value must be a valid email address.", missing.get("errors").get("email").asText());
        sleep(Duration.ofMillis(300));
        assertEquals(before, mail.count());
    }

    @Test
    void tokenValidityChecks() {
        User user = InProcess.createUser(server, "checks@example.com", "Ch3cks-pass", false);
        String token = Mailbox.resetToken(requestReset("checks@example.com"));

        assertFalse(valid(user.id + "_" + UUID.randomUUID()), "right user, wrong secret");
        assertFalse(valid("1_" + token.substring(token.indexOf('_') + 1)), "someone else's id");
        assertFalse(valid("not-a-token"));
        assertFalse(valid("99999999999999999999_x"), "an id past long range is just invalid");
        JsonNode blank = api.get(400, "session/password_reset_token_valid", "token", " ").json();
        assertTrue(blank.get("errors").has("token"));
        JsonNode missing = api.get(400, "session/password_reset_token_valid").json();
        assertEquals("value must be a non-blank string.", missing.get("errors").get("token").asText());
        assertTrue(valid(token));

        // older than reset-token-ttl-hours (48) → expired
        InProcess.update(server, "UPDATE core_user SET reset_triggered = reset_triggered - ? WHERE id = ?",
                Duration.ofHours(48).toMillis(), user.id);
        assertFalse(valid(token));
        JsonNode expired = api.post(400, "session/reset_password", Map.of("token", token, "password", "N3w-passw0rd")).json();
        assertEquals("Invalid reset token", expired.get("errors").get("password").asText());
        Fixtures.login(api, "checks@example.com", "Ch3cks-pass");
    }

    @Test
    void resetPasswordValidatesEachParameterBeforeAnythingElse() {
        InProcess.createUser(server, "params@example.com", "Par4ms-pass", false);
        String token = Mailbox.resetToken(requestReset("params@example.com"));

        JsonNode noToken = api.post(400, "session/reset_password", Map.of("password", "N3w-passw0rd")).json();
        assertEquals("value must be a non-blank string.", noToken.get("errors").get("token").asText());
        assertFalse(noToken.get("errors").has("password"));
        JsonNode blankToken = api.post(400, "session/reset_password", Map.of("token", "  ", "password", "N3w-passw0rd")).json();
        assertEquals("value must be a non-blank string.", blankToken.get("errors").get("token").asText());
        for (Object bad : new Object[]{"abc1", "abcdefgh", "password", 12345678}) {
            JsonNode err = api.post(400, "session/reset_password", Map.of("token", token, "password", bad)).json();
            assertEquals("password is too common.", err.get("errors").get("password").asText());
        }
        JsonNode noPassword = api.post(400, "session/reset_password", Map.of("token", token)).json();
        assertEquals("password is too common.", noPassword.get("errors").get("password").asText());
        JsonNode wrong = api.post(400, "session/reset_password", Map.of("token", "1_nope", "password", "N3w-passw0rd")).json();
        assertEquals("Invalid reset token", wrong.get("errors").get("password").asText());

        // nothing above touched the account
        assertTrue(valid(token));
        Fixtures.login(api, "params@example.com", "Par4ms-pass");
    }

    @Test
    void deactivatedAndSsoAccountsGetAnEmailWithoutAResetLink() {
        User gone = InProcess.createUser(server, "gone@example.com", "G0ne-pass", false);
        InProcess.update(server, "UPDATE core_user SET is_active = FALSE WHERE id = ?", gone.id);
        MimeMessage deactivated = requestReset("gone@example.com");
        assertNull(Mailbox.resetToken(deactivated));
        assertTrue(Mailbox.html(deactivated).contains("deactivated"), Mailbox.html(deactivated));
        assertNull(InProcess.findUser(server, "gone@example.com").resetToken);

        User sso = InProcess.createUser(server, "sso@example.com", "Ss0-pass", false);
        InProcess.update(server, "UPDATE core_user SET sso_source = 'jwt' WHERE id = ?", sso.id);
        MimeMessage external = requestReset("sso@example.com");
        assertNull(Mailbox.resetToken(external));
        assertTrue(Mailbox.html(external).contains("identity provider"), Mailbox.html(external));
        assertNull(InProcess.findUser(server, "sso@example.com").resetToken);
    }

    @Test
    void forgotPasswordAllowsThreeRequestsASecondPerAddress() {
        String email = "burst-" + UUID.randomUUID() + "@example.com";
        for (int i = 0; i < 3; i++) {
            api.post(204, "session/forgot_password", Map.of("email", email));
        }
        JsonNode throttled = api.post(400, "session/forgot_password", Map.of("email", email)).json();
        assertTrue(throttled.get("errors").get("email").asText().matches(THROTTLE_TEXT), throttled.toString());
        api.post(204, "session/forgot_password", Map.of("email", "other-" + email));
        sleep(Duration.ofMillis(1100));
        api.post(204, "session/forgot_password", Map.of("email", email));
    }

    @Test
    void perClientThrottlesOnAFreshServer() {
        // Throttles are per instance and would spill into the other tests here, hence a server of their own, which
        // also shows that without email configured a reset request still answers 204.
        try (TestServer own = TestServer.start(Map.of())) {
            Api client = own.api();
            for (int i = 0; i < 50; i++) {
                client.post(204, "session/forgot_password", Map.of("email", "ip-" + i + "@example.com"));
            }
            JsonNode forgot = client.post(400, "session/forgot_password", Map.of("email", "ip-x@example.com")).json();
            assertTrue(forgot.get("errors").get("email").asText().matches(THROTTLE_TEXT), forgot.toString());

            for (int i = 0; i < 10; i++) {
                JsonNode invalid = client.post(400, "session/reset_password", Map.of("token", "1_x" + i, "password", "N3w-passw0rd")).json();
                assertEquals("Invalid reset token", invalid.get("errors").get("password").asText());
            }
            JsonNode reset = client.post(400, "session/reset_password", Map.of("token", "1_y", "password", "N3w-passw0rd")).json();
            assertTrue(reset.get("errors").get("password").asText().matches(THROTTLE_TEXT), reset.toString());
        }
    }

    @Test
    void throttlesCanBeSwitchedOff() {
        try (TestServer own = TestServer.start(Map.of("MB_DISABLE_SESSION_THROTTLE", "true"))) {
            Api client = own.api();
            for (int i = 0; i < 6; i++) {
                client.post(204, "session/forgot_password", Map.of("email", "same@example.com"));
            }
            for (int i = 0; i < 12; i++) {
                JsonNode invalid = client.post(400, "session/reset_password", Map.of("token", "1_x", "password", "N3w-passw0rd")).json();
                assertEquals("Invalid reset token", invalid.get("errors").get("password").asText());
            }
        }
    }

    private static boolean valid(String token) {
        return api.get(200, "session/password_reset_token_valid", "token", token).json().get("valid").asBoolean();
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
