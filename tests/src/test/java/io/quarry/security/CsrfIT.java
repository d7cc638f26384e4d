package io.quarry.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.core.Json;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.InProcess;
import io.quarry.testing.RawHttp;
import io.quarry.testing.TestServer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue #25, item 4 and the cookie part of item 8, over HTTP: what another site's page can make a signed-in browser
 * send (a form post or a simple {@code fetch} with the session cookie, a foreign {@code Origin}, {@code Sec-Fetch-Site})
 * changes nothing, checked by its effect (no user, no collection, no session); the same requests from Quarry's own
 * pages, from scripts with the session header and from API keys still work; {@code SameSite=None} sessions need the
 * anti-CSRF token; the cookie is {@code Secure} behind a TLS-terminating proxy.
 */
class CsrfIT {
    private static final String FOREIGN = "http://evil.example";

    private static TestServer server;
    private static Api anonymous;
    /** The administrator's session id, sent as the header (a script) or as the cookie (a browser). */
    private static String adminSession;
    private static Api adminByHeader;
    private static Api adminByCookie;
    /** Another port of the same host: same site, another origin (what the attack page was). */
    private static String otherPort;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        anonymous = server.api();
        adminSession = Fixtures.setUp(anonymous);
        adminByHeader = anonymous.as(adminSession);
        adminByCookie = anonymous.withSessionCookie(adminSession);
        otherPort = "http://" + server.base.getHost() + ":" + (server.base.getPort() == 65535 ? 1 : server.base.getPort() + 1);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aFormFromAnotherOriginDoesNotCreateAUserWithTheAdminsCookie() {
        for (String origin : List.of(otherPort, FOREIGN, "null", "https://" + server.base.getHost() + ":" + server.base.getPort())) {
            String email = "forged-" + UUID.randomUUID() + "@example.com";
            Api.Res refused = adminByCookie.withHeader("Origin", origin)
                    .postForm(403, "user", Map.of("first_name", "Mal", "last_name", "Lory", "email", email));
            assertTrue(refused.header("Content-Type").startsWith("application/json"), refused.header("Content-Type"));
            assertTrue(refused.json().get("message").asText().contains("Origin " + origin), refused.body());
            assertNull(InProcess.findUser(server, email), origin);
        }
    }

    @Test
    void secFetchSiteCrossSiteOrSameSiteIsRefusedWhateverTheOrigin() throws Exception {
        for (String site : List.of("cross-site", "same-site", "Cross-Site")) {
            String name = "Forged " + UUID.randomUUID();
            Api.Res refused = adminByCookie.withHeader("Sec-Fetch-Site", site).post(403, "collection", Map.of("name", name));
            assertTrue(refused.json().get("message").asText().contains("Sec-Fetch-Site"), refused.body());
            assertEquals(0, collections(name));
        }
        // without any Origin (a browser's no-cors request says only where it comes from)
        String name = "Forged " + UUID.randomUUID();
        byte[] form = ("name=" + name.replace(' ', '+')).getBytes(StandardCharsets.UTF_8);
        try (RawHttp raw = new RawHttp(server.base)) {
            RawHttp.Answer answer = raw.send("POST", "/api/collection", "Cookie: metabase.SESSION=" + adminSession + "\r\n"
                    + "Sec-Fetch-Site: cross-site\r\nContent-Type: application/x-www-form-urlencoded\r\n", form);
            assertEquals(403, answer.status(), new String(answer.body(), StandardCharsets.UTF_8));
        }
        assertEquals(0, collections(name));
    }

    @Test
    void theSameOriginsCookieWritesWork() throws Exception {
        String name = "Ours " + UUID.randomUUID();
        long id = adminByCookie.withHeader("Sec-Fetch-Site", "same-origin").post(200, "collection", Map.of("name", name)).json()
                .get("id").asLong();
        assertEquals(1, collections(name));
        adminByCookie.put(200, "collection/" + id, Map.of("name", name + " renamed"));
        assertEquals(1, collections(name + " renamed"));
        // a form, as the UI's export buttons post, and a user created by form
        String email = "invited-" + UUID.randomUUID() + "@example.com";
        adminByCookie.withHeader("Sec-Fetch-Site", "same-origin")
                .postForm(200, "user", Map.of("first_name", "Ann", "last_name", "Other", "email", email));
        assertNotNull(InProcess.findUser(server, email));
        // a navigation the person typed (Sec-Fetch-Site: none), and a script sending the cookie with no Origin at all
        adminByCookie.withHeader("Sec-Fetch-Site", "none").post(200, "collection", Map.of("name", name + " typed"));
        try (RawHttp raw = new RawHttp(server.base)) {
            byte[] body = Json.write(Map.of("name", name + " scripted")).getBytes(StandardCharsets.UTF_8);
            RawHttp.Answer answer = raw.send("POST", "/api/collection", "Cookie: metabase.SESSION=" + adminSession + "\r\n"
                    + "Content-Type: application/json\r\n", body);
            assertEquals(200, answer.status(), new String(answer.body(), StandardCharsets.UTF_8));
        }
        assertEquals(1, collections(name + " typed"));
        assertEquals(1, collections(name + " scripted"));
        // reads are not checked: another site's page may not read the answer anyway (CORS)
        adminByCookie.withHeader("Origin", FOREIGN).withHeader("Sec-Fetch-Site", "cross-site").get(200, "user/current");
    }

    @Test
    void sessionHeaderAndApiKeyClientsFromAnyOriginStillWork() {
        String key = adminByHeader.post(200, "api-key", Map.of("name", "CSRF key " + UUID.randomUUID(), "group_id", 2)).json()
                .get("unmasked_key").asText();
        Map<String, Api> clients = Map.of(
                "session header", adminByHeader,
                "api key", anonymous.withApiKey(key),
                // the SDK in a page that also holds an old cookie: the header says a script, not a form, sent it
                "session header beside the cookie", adminByCookie.as(adminSession));
        clients.forEach((what, client) -> {
            String name = "Scripted " + what + " " + UUID.randomUUID();
            client.withHeader("Origin", FOREIGN).withHeader("Sec-Fetch-Site", "cross-site").post(200, "collection", Map.of("name", name));
            assertEquals(1, collections(name), what);
        });
        // anonymous writes are not the guard's business: the endpoint answers as it would
        anonymous.withHeader("Origin", FOREIGN).post(401, "collection", Map.of("name", "Anonymous"));
    }

    @Test
    void signingInFromAnotherOriginsFormIsRefusedAndSetsNoCookie() {
        long sessionsBefore = sessions();
        Map<String, String> login = Map.of("username", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD);
        for (Api attacker : List.of(anonymous.withHeader("Origin", otherPort), anonymous.withHeader("Origin", FOREIGN),
                anonymous.withHeader("Sec-Fetch-Site", "cross-site"))) {
            Api.Res refused = attacker.postForm(403, "session", login);
            assertTrue(refused.json().get("message").asText().startsWith("Cross-site request refused"), refused.body());
            assertFalse(refused.headerValues("Set-Cookie").stream().anyMatch(c -> c.startsWith("metabase.SESSION=")),
                    refused.headerValues("Set-Cookie").toString());
        }
        assertEquals(sessionsBefore, sessions());
        // the other endpoints that open a session refuse it before looking at the token
        anonymous.withHeader("Origin", FOREIGN).post(403, "session/reset_password", Map.of("token", "1_abc", "password", "Pass-word-123"));
        anonymous.withHeader("Origin", FOREIGN).post(403, "session/external_auth", Map.of("token", "x.y.z"));
        assertEquals(sessionsBefore, sessions());

        // Quarry's own login page posts with its own Origin; a script posts with none
        Api.Res ours = anonymous.withHeader("Origin", anonymous.origin()).withHeader("Sec-Fetch-Site", "same-origin")
                .postForm(200, "session", login);
        assertTrue(ours.header("Set-Cookie").startsWith("metabase.SESSION=" + ours.json().get("id").asText()), ours.header("Set-Cookie"));
        Fixtures.login(anonymous, Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
        assertEquals(sessionsBefore + 2, sessions());
    }

    @Test
    void setupFromAnotherOriginIsRefusedAndLeavesTheInstanceUnclaimed() {
        try (TestServer fresh = TestServer.start()) {
            Api api = fresh.api();
            String token = api.get(200, "session/properties").json().get("setup-token").asText();
            Map<String, Object> setup = Map.of("token", token,
                    "user", Map.of("email", "mallory@example.com", "password", "Mallory-pw-2026", "first_name", "Mal", "last_name", "Lory"),
                    "prefs", Map.of("site_name", "Claimed"));
            Api.Res refused = api.withHeader("Origin", FOREIGN).post(403, "setup", setup);
            assertTrue(refused.headerValues("Set-Cookie").isEmpty(), refused.headerValues("Set-Cookie").toString());
            assertFalse(api.get(200, "session/properties").json().get("has-user-setup").asBoolean());
            assertNull(InProcess.findUser(fresh, "mallory@example.com"));
            // the setup page on Quarry's own origin
            api.withHeader("Origin", api.origin()).withHeader("Sec-Fetch-Site", "same-origin").post(200, "setup", setup);
            assertNotNull(InProcess.findUser(fresh, "mallory@example.com"));
        }
    }

    @Test
    void behindATlsProxyTheCookieIsSecureAndTheProxysOriginIsOurs() {
        Map<String, String> login = Map.of("username", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD);
        String plain = anonymous.post(200, "session", login).header("Set-Cookie");
        assertFalse(plain.contains("Secure"), plain);
        Api proxied = anonymous.withHeader("X-Forwarded-Proto", "https").withHeader("X-Forwarded-Host", "bi.example.com");
        Api.Res secure = proxied.withHeader("Origin", "https://bi.example.com").post(200, "session", login);
        assertTrue(secure.header("Set-Cookie").contains("; Secure"), secure.header("Set-Cookie"));
        assertEquals("max-age=31536000", secure.header("Strict-Transport-Security"));
        // the cookie written through the proxy, from the page the proxy serves
        String session = secure.json().get("id").asText();
        String name = "Proxied " + UUID.randomUUID();
        proxied.withSessionCookie(session).withHeader("Origin", "https://bi.example.com").post(200, "collection", Map.of("name", name));
        assertEquals(1, collections(name));
        // the same host over plain http is another origin
        proxied.withSessionCookie(session).withHeader("Origin", "http://bi.example.com").post(403, "collection", Map.of("name", name + " 2"));
        assertEquals(0, collections(name + " 2"));
    }

    @Test
    void withSameSiteNoneCookieWritesNeedTheAntiCsrfToken() {
        adminByHeader.put(204, "setting/session-cookie-samesite", Map.of("value", "none"));
        try {
            Api.Res login = anonymous.post(200, "session", Map.of("username", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD));
            String session = login.json().get("id").asText();
            String token = login.header("X-Metabase-Anti-CSRF-Token");
            assertNotNull(token, login.headers().toString());
            assertTrue(token.matches("[0-9a-f]{32}"), token);
            assertTrue(login.header("Set-Cookie").contains("SameSite=None") && login.header("Set-Cookie").contains("; Secure"),
                    login.header("Set-Cookie"));
            Api browser = anonymous.withSessionCookie(session);

            String name = "Embedded " + UUID.randomUUID();
            Api.Res refused = browser.post(403, "collection", Map.of("name", name));
            assertTrue(refused.json().get("message").asText().contains("X-Metabase-Anti-CSRF-Token"), refused.body());
            // the refusal of our own page's write hands the token out (for a page opened before the setting changed)
            assertEquals(token, refused.header("X-Metabase-Anti-CSRF-Token"));
            browser.withHeader("X-Metabase-Anti-CSRF-Token", "0".repeat(32)).post(403, "collection", Map.of("name", name));
            // another session's token is not this one's
            browser.withHeader("X-Metabase-Anti-CSRF-Token", otherSessionsToken()).post(403, "collection", Map.of("name", name));
            assertEquals(0, collections(name));

            browser.withHeader("X-Metabase-Anti-CSRF-Token", token).post(200, "collection", Map.of("name", name));
            assertEquals(1, collections(name));
            // every answer to the cookie repeats the token (a page opened before the setting changed learns it)
            assertEquals(token, browser.get(200, "user/current").header("X-Metabase-Anti-CSRF-Token"));
            // the token does not make another origin's request acceptable
            Api.Res foreign = browser.withHeader("X-Metabase-Anti-CSRF-Token", token).withHeader("Origin", FOREIGN)
                    .post(403, "collection", Map.of("name", name + " foreign"));
            assertNull(foreign.header("X-Metabase-Anti-CSRF-Token"), "no token for another origin's request");
            assertEquals(0, collections(name + " foreign"));
            // scripts with the session header need no token
            adminByHeader.post(200, "collection", Map.of("name", name + " scripted"));
            assertNull(adminByHeader.get(200, "user/current").header("X-Metabase-Anti-CSRF-Token"));
        } finally {
            adminByHeader.put(204, "setting/session-cookie-samesite", Map.of("value", "lax"));
        }
    }

    @Test
    void anInteractiveEmbeddingOriginMayWriteWithTheCookieAndItsToken() {
        String app = "https://app.example.com";
        adminByHeader.put(204, "setting", Map.of("enable-embedding-interactive", true, "embedding-app-origins-interactive", app,
                "session-cookie-samesite", "none"));
        try {
            Api.Res login = anonymous.withHeader("Origin", app).withHeader("Sec-Fetch-Site", "cross-site")
                    .post(200, "session", Map.of("username", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD));
            String token = login.header("X-Metabase-Anti-CSRF-Token");
            Api embedded = anonymous.withSessionCookie(login.json().get("id").asText()).withHeader("Origin", app)
                    .withHeader("Sec-Fetch-Site", "cross-site");
            String name = "From the app " + UUID.randomUUID();
            embedded.post(403, "collection", Map.of("name", name));
            embedded.withHeader("X-Metabase-Anti-CSRF-Token", token).post(200, "collection", Map.of("name", name));
            assertEquals(1, collections(name));
            // a sibling of the embedding app is not it
            embedded.withHeader("Origin", "https://other.example.com").withHeader("X-Metabase-Anti-CSRF-Token", token)
                    .post(403, "collection", Map.of("name", name + " sibling"));
            assertEquals(0, collections(name + " sibling"));
        } finally {
            adminByHeader.put(204, "setting", Map.of("enable-embedding-interactive", false, "embedding-app-origins-interactive", "",
                    "session-cookie-samesite", "lax"));
        }
    }

    private static String otherSessionsToken() {
        return anonymous.post(200, "session", Map.of("username", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD))
                .header("X-Metabase-Anti-CSRF-Token");
    }

    private static long collections(String name) {
        return InProcess.number(server, "SELECT COUNT(*) FROM collection WHERE name = ?", name);
    }

    private static long sessions() {
        return InProcess.number(server, "SELECT COUNT(*) FROM core_session");
    }
}
