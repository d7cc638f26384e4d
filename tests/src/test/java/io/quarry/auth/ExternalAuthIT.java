package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.auth0.jwt.JWT;
import com.auth0.jwt.JWTCreator;
import com.auth0.jwt.algorithms.Algorithm;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.setting.Settings;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.InProcess;
import io.quarry.testing.TestServer;
import io.quarry.user.Membership;
import io.quarry.user.User;
import io.quarry.user.UserMapper;
import io.quarry.web.error.ApiException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Sign-in with an identity provider's JWT over HTTP: tokens minted here with java-jwt, with a shared secret and with
 * an RSA key pair generated for the test. The JWT settings are changed in-process, as an administrator would through
 * the settings API.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExternalAuthIT {
    private static final String SECRET = "5f2b8e0c9d7a4b6e1f3c8a2d0e9b7c5a4f6e8d1c3b5a7e9f0d2c4b6a8e1f3d5c";
    private static final String THROTTLE_TEXT = "Too many attempts! You must wait \\d+ seconds before trying again.";

    private static TestServer server;
    private static Api api;
    private static String adminSession;
    private static KeyPair rsa;
    private static KeyPair otherRsa;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(Map.of());
        api = server.api();
        adminSession = Fixtures.setUp(api);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        rsa = generator.generateKeyPair();
        otherRsa = generator.generateKeyPair();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Settings settings() {
        return server.quarry().settings;
    }

    @AfterEach
    void resetSettings() {
        for (String key : new String[]{"jwt-enabled", "jwt-shared-secret", "jwt-public-key", "jwt-issuer", "jwt-audience",
                "jwt-attribute-email", "jwt-user-provisioning-enabled?"}) {
            settings().set(key, (Object) null);
        }
    }

    private static void enableHmac() {
        settings().set("jwt-shared-secret", SECRET);
        settings().set("jwt-enabled", true);
    }

    private static JWTCreator.Builder token(String email) {
        return JWT.create().withClaim("email", email).withExpiresAt(Instant.now().plusSeconds(120));
    }

    private static Api.Res signIn(int status, String jwt) {
        return api.post(status, "session/external_auth", Map.of("token", jwt));
    }

    private static String tokenError(String jwt) {
        return signIn(401, jwt).json().get("errors").get("token").asText();
    }

    @Test
    @Order(1)
    void offUntilEnabledAndGivenAKey() {
        String jwt = token(Fixtures.ADMIN_EMAIL).sign(Algorithm.HMAC256(SECRET));
        assertEquals("JWT authentication is disabled.", signIn(400, jwt).body());
        settings().set("jwt-enabled", true);
        assertEquals("JWT authentication is not configured: set jwt-shared-secret or jwt-public-key.", signIn(400, jwt).body());
        settings().set("jwt-shared-secret", SECRET);
        settings().set("jwt-enabled", false);
        assertEquals("JWT authentication is disabled.", signIn(400, jwt).body());
    }

    @Test
    @Order(1)
    void aKnownUserSignsIn() {
        enableHmac();
        long people = InProcess.number(server, "SELECT COUNT(*) FROM core_user");
        Api.Res ok = signIn(200, token(Fixtures.ADMIN_EMAIL.toUpperCase()).sign(Algorithm.HMAC256(SECRET)));
        String session = ok.json().get("id").asText();
        assertTrue(ok.header("Set-Cookie").startsWith("metabase.SESSION=" + session + ";"), ok.header("Set-Cookie"));
        api.as(session).get(200, "setup/admin_checklist");
        assertEquals(people, InProcess.number(server, "SELECT COUNT(*) FROM core_user"), "no account is created for a known user");
    }

    @Test
    @Order(1)
    void badTokensAreRefusedWithTheReason() {
        enableHmac();
        assertEquals("Token signature is invalid.", tokenError(token(Fixtures.ADMIN_EMAIL).sign(Algorithm.HMAC256("not-the-secret"))));
        assertEquals("Token has expired.",
                tokenError(token(Fixtures.ADMIN_EMAIL).withExpiresAt(Instant.now().minusSeconds(600)).sign(Algorithm.HMAC256(SECRET))));
        assertEquals("Token is not valid yet.",
                tokenError(token(Fixtures.ADMIN_EMAIL).withNotBefore(Instant.now().plusSeconds(600)).sign(Algorithm.HMAC256(SECRET))));
        assertEquals("Token has neither an expiry (\"exp\") nor an issue time (\"iat\").",
                tokenError(JWT.create().withClaim("email", Fixtures.ADMIN_EMAIL).sign(Algorithm.HMAC256(SECRET))));
        String unsigned = token(Fixtures.ADMIN_EMAIL).sign(Algorithm.none());
        assertEquals("Token algorithm \"none\" is not accepted.", tokenError(unsigned));
        assertEquals("Token is not a valid JWT.", tokenError("garbage"));
        assertEquals("Token has no valid email address in its \"email\" claim.",
                tokenError(token("not-an-email").sign(Algorithm.HMAC256(SECRET))));
        assertEquals("Token has no valid email address in its \"email\" claim.",
                tokenError(JWT.create().withExpiresAt(Instant.now().plusSeconds(60)).sign(Algorithm.HMAC256(SECRET))));
        // slightly expired, within the leeway for clock skew
        signIn(200, token(Fixtures.ADMIN_EMAIL).withExpiresAt(Instant.now().minusSeconds(5)).sign(Algorithm.HMAC256(SECRET)));
        // no exp, but issued just now
        signIn(200, JWT.create().withClaim("email", Fixtures.ADMIN_EMAIL).withIssuedAt(Instant.now()).sign(Algorithm.HMAC256(SECRET)));
    }

    @Test
    @Order(1)
    void theTokenParameterIsRequired() {
        enableHmac();
        for (Map<String, Object> body : List.<Map<String, Object>>of(Map.of(), Map.of("token", ""), Map.of("token", "  "), Map.of("token", 7))) {
            JsonNode err = api.post(400, "session/external_auth", body).json();
            assertEquals("value must be a non-blank string.", err.get("errors").get("token").asText(), body.toString());
        }
    }

    @Test
    @Order(1)
    void anUnknownUserIsCreatedAsAPlainMemberWhenProvisioningIsOn() {
        enableHmac();
        String jwt = token("New.Person@Example.com").withClaim("first_name", "New").withClaim("last_name", "Person")
                .sign(Algorithm.HMAC256(SECRET));
        String session = signIn(200, jwt).json().get("id").asText();

        User created = InProcess.findUser(server, "new.person@example.com");
        assertEquals("New", created.firstName);
        assertEquals("Person", created.lastName);
        assertEquals("jwt", created.ssoSource);
        assertFalse(created.isSuperuser);
        List<Membership> groups = server.quarry().db.with(UserMapper.class, m -> m.listMembershipsOfUsers(List.of(created.id)));
        assertEquals(List.of(1L), groups.stream().map(m -> m.groupId).toList(), "All Users only");
        assertEquals("You don't have permissions to do that.", api.as(session).get(403, "setup/admin_checklist").body());

        // the next sign-in finds the same account and takes new names from the provider
        signIn(200, token("new.person@example.com").withClaim("first_name", "Renamed").sign(Algorithm.HMAC256(SECRET)));
        assertEquals("Renamed", InProcess.findUser(server, "new.person@example.com").firstName);
        assertEquals("Person", InProcess.findUser(server, "new.person@example.com").lastName);
        assertEquals(1, InProcess.number(server, "SELECT COUNT(*) FROM core_user WHERE email = 'new.person@example.com'"));
    }

    @Test
    @Order(1)
    void claimNamesAreConfigurable() {
        enableHmac();
        settings().set("jwt-attribute-email", "mail");
        signIn(200, JWT.create().withClaim("mail", "mail-claim@example.com").withExpiresAt(Instant.now().plusSeconds(60))
                .sign(Algorithm.HMAC256(SECRET)));
        assertEquals("mail-claim@example.com", InProcess.findUser(server, "mail-claim@example.com").email);
        assertEquals("Token has no valid email address in its \"mail\" claim.", tokenError(token("x@example.com").sign(Algorithm.HMAC256(SECRET))));
    }

    @Test
    @Order(1)
    void withoutProvisioningAnUnknownUserIsRefusedAndNotCreated() {
        enableHmac();
        settings().set("jwt-user-provisioning-enabled?", false);
        Api.Res refused = signIn(401, token("stranger@example.com").sign(Algorithm.HMAC256(SECRET)));
        assertEquals("Sorry, but you'll need a quarry_test account to view this page. Please contact your administrator.", refused.body());
        assertNull(InProcess.findUser(server, "stranger@example.com"));
        signIn(200, token(Fixtures.ADMIN_EMAIL).sign(Algorithm.HMAC256(SECRET)));
    }

    @Test
    @Order(1)
    void aDeactivatedUserIsRefused() {
        enableHmac();
        User user = InProcess.createUser(server, "deactivated@example.com", "Passw0rd-x", false);
        InProcess.update(server, "UPDATE core_user SET is_active = FALSE WHERE id = ?", user.id);
        JsonNode refused = signIn(401, token("deactivated@example.com").sign(Algorithm.HMAC256(SECRET))).json();
        assertEquals("Your account is disabled.", refused.get("errors").get("account").asText());
        assertEquals(0, InProcess.number(server, "SELECT COUNT(*) FROM core_session WHERE user_id = ?", user.id));
    }

    @Test
    @Order(1)
    void anRsaPublicKeyAdmitsOnlyTokensSignedWithItsPrivateKey() {
        String pem = JwtsTest.pem((java.security.interfaces.RSAPublicKey) rsa.getPublic());
        settings().set("jwt-public-key", pem);
        settings().set("jwt-shared-secret", SECRET);
        settings().set("jwt-enabled", true);
        signIn(200, token(Fixtures.ADMIN_EMAIL).sign(Algorithm.RSA256(null, (RSAPrivateKey) rsa.getPrivate())));
        assertEquals("Token signature is invalid.",
                tokenError(token(Fixtures.ADMIN_EMAIL).sign(Algorithm.RSA256(null, (RSAPrivateKey) otherRsa.getPrivate()))));
        assertEquals("Token algorithm \"HS256\" is not accepted.", tokenError(token(Fixtures.ADMIN_EMAIL).sign(Algorithm.HMAC256(pem))));
        assertEquals("Token algorithm \"HS256\" is not accepted.", tokenError(token(Fixtures.ADMIN_EMAIL).sign(Algorithm.HMAC256(SECRET))));
    }

    @Test
    @Order(1)
    void issuerAndAudienceWhenConfigured() {
        enableHmac();
        settings().set("jwt-issuer", "https://idp.example");
        settings().set("jwt-audience", "quarry");
        signIn(200, token(Fixtures.ADMIN_EMAIL).withIssuer("https://idp.example").withAudience("quarry").sign(Algorithm.HMAC256(SECRET)));
        assertEquals("Token issuer is not accepted.", tokenError(token(Fixtures.ADMIN_EMAIL).withIssuer("https://other.example")
                .withAudience("quarry").sign(Algorithm.HMAC256(SECRET))));
        assertEquals("Token audience is not accepted.", tokenError(token(Fixtures.ADMIN_EMAIL).withIssuer("https://idp.example")
                .withAudience("someone-else").sign(Algorithm.HMAC256(SECRET))));
    }

    @Test
    @Order(1)
    void theSettingsAreAdminOnlyAndTheSecretNeverShows() {
        enableHmac();
        JsonNode anonymous = api.get(200, "session/properties").json();
        assertFalse(anonymous.has("jwt-enabled"));
        JsonNode admin = api.as(adminSession).get(200, "session/properties").json();
        assertTrue(admin.get("jwt-enabled").asBoolean());
        assertTrue(admin.get("jwt-configured").asBoolean());
        assertEquals("email", admin.get("jwt-attribute-email").asText());
        assertTrue(admin.get("jwt-user-provisioning-enabled?").asBoolean());
        assertFalse(admin.has("jwt-shared-secret"));
        assertFalse(admin.toString().contains(SECRET));

        ApiException badKey = assertThrows(ApiException.class, () -> settings().set("jwt-public-key", "not a key"));
        assertEquals(Map.of("jwt-public-key", "value must be a PEM-encoded RSA public key (-----BEGIN PUBLIC KEY-----)."),
                badKey.body().get("errors"));
        assertNull(settings().string("jwt-public-key"));
    }

    @Test
    @Order(2)
    void failedSignInsAreThrottledPerClient() {
        enableHmac();
        String bad = token(Fixtures.ADMIN_EMAIL).sign(Algorithm.HMAC256("wrong"));
        // the earlier tests of this class already spent some of the 50 failures this client may have in an hour
        Api.Res res;
        int attempts = 0;
        do {
            res = api.call("POST", "session/external_auth", Map.of("token", bad));
            attempts++;
        } while (res.status() == 401 && res.json().get("errors").has("token") && attempts <= 60);
        assertEquals(401, res.status());
        assertTrue(res.json().get("errors").get("username").asText().matches(THROTTLE_TEXT), res.body());
        // even a good token waits now
        JsonNode throttled = signIn(401, token(Fixtures.ADMIN_EMAIL).sign(Algorithm.HMAC256(SECRET))).json();
        assertTrue(throttled.get("errors").get("username").asText().matches(THROTTLE_TEXT), throttled.toString());
        // password sign-in has a throttle of its own
        Fixtures.login(api, Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
    }
}
