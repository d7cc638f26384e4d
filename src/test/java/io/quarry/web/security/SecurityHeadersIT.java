package io.quarry.web.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Metabase's security headers, on the real web.xml: every answer, framing except embeds, HSTS only over HTTPS. */
class SecurityHeadersIT {
    private static TestServer server;
    private static String session;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        Fixtures.setUp(server.api());
        session = Fixtures.login(server.api(), Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void everyAnswerCarriesTheHeaders() {
        for (Api.Res res : new Api.Res[]{server.api().get(200, "health"), server.api().call("GET", "user/current", null),
                server.api().call("GET", "no-such-endpoint", null)}) {
            assertEquals("nosniff", res.header("X-Content-Type-Options"));
            assertEquals("DENY", res.header("X-Frame-Options"));
            assertEquals("frame-ancestors 'none'", res.header("Content-Security-Policy"));
            assertEquals("strict-origin-when-cross-origin", res.header("Referrer-Policy"));
            assertNull(res.header("Strict-Transport-Security"), "plain HTTP gets no HSTS");
        }
    }

    @Test
    void authenticatedAnswersAreNotStored() {
        Api.Res mine = server.api().as(session).get(200, "user/current");
        assertEquals("no-store", mine.header("Cache-Control"));
        assertEquals(1, mine.headerValues("Cache-Control").size());
        assertNull(server.api().get(200, "session/properties").header("Cache-Control"), "anonymous answers are not per-person");
    }

    @Test
    void embedAndPublicPathsMayBeFramed() {
        for (String path : new String[]{"embed/card/x", "public/card/x"}) {
            Api.Res res = server.api().call("GET", path, null);
            assertNull(res.header("X-Frame-Options"), path);
            assertNull(res.header("Content-Security-Policy"), path);
            assertEquals("nosniff", res.header("X-Content-Type-Options"));
        }
    }

    @Test
    void httpsBehindAProxyGetsHsts() {
        Api.Res res = server.api().withHeader("X-Forwarded-Proto", "https").get(200, "health");
        assertEquals("max-age=31536000", res.header("Strict-Transport-Security"));
    }
}
