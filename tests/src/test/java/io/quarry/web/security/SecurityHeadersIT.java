package io.quarry.web.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.Sources;
import io.quarry.testing.TestServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Metabase's security headers, on the real web.xml: every answer, framing except embeds and the interactive-embedding
 * origins, HSTS only over HTTPS; and the SDK's fonts, to any origin.
 */
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

    private static HttpResponse<byte[]> raw(String path, String origin) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.base.resolve(path));
        if (origin != null) {
            request.header("Origin", origin);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** The frame rules are read at most once a second: waits (up to 5 s) until {@code check} holds. */
    private static void eventually(Supplier<Boolean> check, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!check.get()) {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.sleep(100);
        }
    }

    @Test
    void interactiveEmbeddingOriginsMayFrameEverythingElseNobody() throws Exception {
        Api admin = server.api().as(session);
        Api ordinary = Fixtures.ordinaryCaller(server.api(), admin);
        String origins = "https://app.example.com  https://*.example.org:8443";
        // only an administrator sets who may frame Quarry
        ordinary.put(403, "setting/embedding-app-origins-interactive", Map.of("value", origins));
        server.api().put(401, "setting/embedding-app-origins-interactive", Map.of("value", origins));
        admin.put(204, "setting/embedding-app-origins-interactive", Map.of("value", origins));
        Thread.sleep(1_100);
        assertEquals("DENY", server.api().get(200, "health").header("X-Frame-Options"), "origins alone do nothing while interactive embedding is off");
        admin.put(204, "setting/enable-embedding-interactive", Map.of("value", true));
        try {
            String expected = "frame-ancestors https://app.example.com https://*.example.org:8443";
            eventually(() -> expected.equals(server.api().get(200, "health").header("Content-Security-Policy")), "the origins may frame");
            for (Api.Res res : new Api.Res[]{server.api().get(200, "health"), admin.get(200, "user/current"),
                    ordinary.get(200, "user/current"), server.api().call("GET", "user/current", null)}) {
                assertEquals(expected, res.header("Content-Security-Policy"));
                assertEquals("ALLOW-FROM https://app.example.com", res.header("X-Frame-Options"));
            }
            HttpResponse<byte[]> page = raw("question/1", null);
            assertEquals(200, page.statusCode());
            String pageCsp = page.headers().firstValue("Content-Security-Policy").orElseThrow();
            assertTrue(pageCsp.endsWith("; " + expected) && pageCsp.startsWith("default-src 'self'"), pageCsp);
            assertEquals("ALLOW-FROM https://app.example.com", page.headers().firstValue("X-Frame-Options").orElseThrow());
            Api.Res embed = server.api().call("GET", "embed/card/x", null);
            assertNull(embed.header("X-Frame-Options"), "anyone may still frame embeds");
            assertNull(embed.header("Content-Security-Policy"));

            // a value that tries to end the directive or smuggle a keyword is left out, the rest stays
            admin.put(204, "setting/embedding-app-origins-interactive", Map.of("value", "https://ok.example.com;script-src 'self'"));
            eventually(() -> "frame-ancestors 'none'".equals(server.api().get(200, "health").header("Content-Security-Policy")),
                    "nothing usable: nobody may frame");
            assertEquals("DENY", server.api().get(200, "health").header("X-Frame-Options"));
        } finally {
            admin.put(204, "setting/enable-embedding-interactive", Map.of("value", false));
            admin.put(204, "setting/embedding-app-origins-interactive", Map.of("value", origins));
        }
        eventually(() -> "DENY".equals(server.api().get(200, "health").header("X-Frame-Options")), "off again: nobody may frame");
        assertEquals("frame-ancestors 'none'", server.api().get(200, "health").header("Content-Security-Policy"));
        HttpResponse<byte[]> page = raw("question/1", null);
        assertTrue(page.headers().firstValue("Content-Security-Policy").orElseThrow().endsWith("; frame-ancestors 'none'"));
    }

    @Test
    void theEmbeddingSdkFontsAreServedToAnyOrigin() throws Exception {
        for (String name : new String[]{"lato-v16-latin-regular", "lato-v16-latin-700", "lato-v16-latin-900"}) {
            for (String ext : new String[]{"woff2", "woff"}) {
                HttpResponse<byte[]> font = raw("app/fonts/Lato/" + name + "." + ext, "https://shop.example.com");
                assertEquals(200, font.statusCode(), name + "." + ext);
                assertEquals("font/" + ext, font.headers().firstValue("Content-Type").orElseThrow());
                assertEquals("*", font.headers().firstValue("Access-Control-Allow-Origin").orElseThrow());
                assertArrayEquals(Files.readAllBytes(Sources.server("src/main/webapp/app/fonts/Lato/" + name + "." + ext)), font.body());
            }
        }
        assertEquals(404, raw("app/fonts/Lato/OFL.txt", null).statusCode(), "only fonts are served from there");
        assertEquals(404, raw("app/fonts/Lato/lato-v16-latin-100.woff2", null).statusCode());
        assertEquals(404, raw("app/fonts/", null).statusCode());
        assertEquals(404, raw("app/fonts/Lato/../../../WEB-INF/web.xml", null).statusCode());
    }
}
