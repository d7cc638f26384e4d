package io.quarry.mail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code PUT/DELETE /api/email} against a real SMTP server (GreenMail) and a port where nothing listens. */
class EmailIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";
    private static final String SMTP_LOGIN = "quarry";
    private static final String SMTP_PASSWORD = "s3cret-pw";
    private static final List<String> KEYS = List.of("email-smtp-host", "email-smtp-port", "email-smtp-security",
            "email-smtp-username", "email-smtp-password", "email-from-address", "email-from-name", "email-reply-to");

    private static GreenMail smtp;
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api ordinary;

    @BeforeAll
    static void start() {
        smtp = new GreenMail(ServerSetupTest.SMTP.dynamicPort())
                .withConfiguration(GreenMailConfiguration.aConfig().withUser("quarry@example.com", SMTP_LOGIN, SMTP_PASSWORD));
        smtp.start();
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        ordinary = Fixtures.ordinaryCaller(anonymous, admin);
    }

    @AfterAll
    static void stop() {
        server.close();
        smtp.stop();
    }

    @BeforeEach
    void forgetEmail() {
        admin.delete(204, "email");
    }

    private static Map<String, Object> working() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("email-smtp-host", "127.0.0.1");
        body.put("email-smtp-port", smtp.getSmtp().getPort());
        body.put("email-smtp-security", "none");
        body.put("email-smtp-username", SMTP_LOGIN);
        body.put("email-smtp-password", SMTP_PASSWORD);
        body.put("email-from-address", "reports@example.com");
        body.put("email-from-name", "Quarry Reports");
        body.put("email-reply-to", List.of("help@example.com"));
        return body;
    }

    private static Map<String, Object> with(String key, Object value) {
        Map<String, Object> body = working();
        body.put(key, value);
        return body;
    }

    /** The stored text of every email setting (null when unset). */
    private static Map<String, Object> stored() {
        Map<String, Object> values = new LinkedHashMap<>();
        for (String key : KEYS) {
            values.put(key, AppDbSql.value(server, "SELECT setting_value FROM setting WHERE setting_key = ?", key));
        }
        return values;
    }

    private static Map<String, Object> nothingStored() {
        Map<String, Object> none = new LinkedHashMap<>();
        KEYS.forEach(key -> none.put(key, null));
        return none;
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void onlyAdministratorsSetUpEmail() {
        assertEquals("Unauthenticated", anonymous.put(401, "email", working()).body());
        assertEquals("Unauthenticated", anonymous.delete(401, "email").body());
        assertEquals(FORBIDDEN, ordinary.put(403, "email", working()).body());
        assertEquals(FORBIDDEN, ordinary.delete(403, "email").body());
        assertEquals(nothingStored(), stored());
    }

    @Test
    void aTestEmailGoesToTheAdministratorWhoAsksAndSaysWhyWhenItCannot() throws Exception {
        assertEquals("Unauthenticated", anonymous.post(401, "email/test", Map.of()).body());
        assertEquals(FORBIDDEN, ordinary.post(403, "email/test", Map.of()).body());
        // not set up: a 400 that says so, and nothing is sent
        int before = smtp.getReceivedMessages().length;
        assertTrue(admin.post(400, "email/test", Map.of()).body().contains("Email is not configured"));
        assertEquals(before, smtp.getReceivedMessages().length);

        admin.put(200, "email", working());
        assertTrue(admin.post(200, "email/test", Map.of()).json().get("ok").asBoolean());
        assertTrue(smtp.waitForIncomingEmail(15_000, before + 1));
        jakarta.mail.internet.MimeMessage sent = smtp.getReceivedMessages()[before];
        assertEquals(Fixtures.ADMIN_EMAIL, sent.getAllRecipients()[0].toString());
        assertEquals("Quarry test email", sent.getSubject());
        assertEquals(FORBIDDEN, ordinary.post(403, "email/test", Map.of()).body());

        // as plain clients send it: a malformed body is refused before anything is sent; curl -X POST (no body, no
        // content type) and curl -d '' (an empty form) each send one
        Api.Res malformed = admin.call("POST", "email/test", "{\"a\":");
        assertEquals(400, malformed.status(), malformed.body());
        assertEquals("Malformed JSON in request body.", malformed.body());
        Api.Res noBody = admin.call("POST", "email/test", null);
        assertEquals(200, noBody.status(), noBody.body());
        admin.postForm(200, "email/test", Map.of());
        assertTrue(smtp.waitForIncomingEmail(15_000, before + 3));
        assertEquals(before + 3, smtp.getReceivedMessages().length, "the malformed request sent nothing");
    }

    @Test
    void workingSettingsAreTestedStoredAndAnsweredWithThePasswordHidden() {
        JsonNode saved = admin.put(200, "email", working()).json();
        assertEquals("127.0.0.1", saved.get("email-smtp-host").asText());
        assertEquals(smtp.getSmtp().getPort(), saved.get("email-smtp-port").asInt());
        assertEquals("none", saved.get("email-smtp-security").asText());
        assertEquals(SMTP_LOGIN, saved.get("email-smtp-username").asText());
        assertEquals("**********pw", saved.get("email-smtp-password").asText());
        assertEquals("reports@example.com", saved.get("email-from-address").asText());
        assertEquals("Quarry Reports", saved.get("email-from-name").asText());
        assertEquals("help@example.com", saved.get("email-reply-to").get(0).asText());
        assertEquals(0, saved.get("with-corrections").size());
        assertFalse(admin.put(200, "email", working()).body().contains(SMTP_PASSWORD));

        Map<String, Object> stored = stored();
        assertEquals("127.0.0.1", stored.get("email-smtp-host"));
        assertEquals(String.valueOf(smtp.getSmtp().getPort()), stored.get("email-smtp-port"));
        assertEquals(SMTP_PASSWORD, stored.get("email-smtp-password"));
        assertEquals("help@example.com", stored.get("email-reply-to"));
        assertEquals("**********pw", admin.get(200, "setting/email-smtp-password").json().asText());
        assertTrue(anonymous.get(200, "session/properties").json().get("email-configured?").asBoolean());

        // the admin form sends back the obfuscated password: the stored one is used for the test and kept
        JsonNode again = admin.put(200, "email", with("email-smtp-password", "**********pw")).json();
        assertEquals("**********pw", again.get("email-smtp-password").asText());
        assertEquals(SMTP_PASSWORD, stored().get("email-smtp-password"));

        // the port may come as a string, as Metabase accepts
        admin.put(200, "email", with("email-smtp-port", String.valueOf(smtp.getSmtp().getPort())));
    }

    @Test
    void aServerThatCannotBeReachedIsRefusedAndNothingIsStored() {
        long began = System.nanoTime();
        JsonNode refused = admin.put(400, "email", with("email-smtp-port", closedPort())).json();
        assertEquals(Map.of("email-smtp-host", "Wrong host or port", "email-smtp-port", "Wrong host or port"),
                Map.of("email-smtp-host", refused.get("errors").get("email-smtp-host").asText(),
                        "email-smtp-port", refused.get("errors").get("email-smtp-port").asText()));
        assertTrue(System.nanoTime() - began < 30_000_000_000L, "bounded");
        assertEquals(nothingStored(), stored());
        assertFalse(anonymous.get(200, "session/properties").json().get("email-configured?").asBoolean());

        // implicit TLS against a plain SMTP server fails, and no other security mode rescues it
        JsonNode ssl = admin.put(400, "email", with("email-smtp-security", "ssl")).json();
        assertEquals("Wrong host or port", ssl.get("errors").get("email-smtp-host").asText());
        assertEquals(nothingStored(), stored());
    }

    @Test
    void wrongCredentialsAreNamed() {
        JsonNode refused = admin.put(400, "email", with("email-smtp-password", "wrong-password")).json();
        assertEquals("Wrong username or password", refused.get("errors").get("email-smtp-username").asText());
        assertEquals("Wrong username or password", refused.get("errors").get("email-smtp-password").asText());
        assertEquals(nothingStored(), stored());
    }

    @Test
    void badInputIsRejectedPerFieldWithoutTryingTheServer() {
        Map<String, Object> missing = working();
        missing.remove("email-smtp-host");
        missing.remove("email-smtp-port");
        JsonNode errors = admin.put(400, "email", missing).json().get("errors");
        assertEquals("value must be a non-blank string.", errors.get("email-smtp-host").asText());
        assertEquals("value must be an integer greater than zero.", errors.get("email-smtp-port").asText());

        assertEquals("value must be a non-blank string.",
                admin.put(400, "email", with("email-smtp-host", "  ")).json().get("errors").get("email-smtp-host").asText());
        assertEquals("value must be an integer greater than zero.",
                admin.put(400, "email", with("email-smtp-port", "twenty-five")).json().get("errors").get("email-smtp-port").asText());
        assertEquals("value must be an integer greater than zero.",
                admin.put(400, "email", with("email-smtp-port", 70000)).json().get("errors").get("email-smtp-port").asText());
        assertEquals("nullable enum of none, ssl, tls, starttls",
                admin.put(400, "email", with("email-smtp-security", "quantum")).json().get("errors").get("email-smtp-security").asText());
        assertEquals("nullable value must be a valid email address.",
                admin.put(400, "email", with("email-from-address", "not-an-address")).json().get("errors").get("email-from-address").asText());
        assertEquals("nullable sequence of value must be a valid email address.",
                admin.put(400, "email", with("email-reply-to", List.of("ok@example.com", "nope"))).json().get("errors").get("email-reply-to").asText());
        assertEquals("nullable value must be a string.",
                admin.put(400, "email", with("email-from-name", 42)).json().get("errors").get("email-from-name").asText());
        assertEquals("Value must be a map.", admin.put(400, "email", "[]").json().get("errors").get("body").asText());
        assertEquals(nothingStored(), stored());
    }

    @Test
    void deleteForgetsEveryEmailSetting() {
        admin.put(200, "email", working());
        admin.delete(204, "email");
        assertEquals(nothingStored(), stored());
        assertTrue(admin.get(200, "setting/email-smtp-host").json().isNull());
        assertEquals("notifications@quarry.invalid", findRow("email-from-address").get("default").asText());
        assertFalse(anonymous.get(200, "session/properties").json().get("email-configured?").asBoolean());
    }

    private static JsonNode findRow(String key) {
        for (JsonNode row : admin.get(200, "setting").json()) {
            if (row.get("key").asText().equals(key)) {
                return row;
            }
        }
        throw new AssertionError(key);
    }
}
