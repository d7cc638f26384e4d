package io.quarry.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * CORS for the embedding SDK: loopback origins in development, the configured origins once the SDK is on; preflights.
 * Turning an embedding kind on creates the signing key (no test here sets it).
 */
class EmbedSdkCorsIT {
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void loopbackOriginsAreAllowedAndOthersOnlyWhenConfigured() {
        Api local = admin.withHeader("Origin", "http://localhost:3000");
        Api.Res res = local.get(200, "user/current");
        assertEquals("http://localhost:3000", res.header("Access-Control-Allow-Origin"));
        assertEquals("*", res.header("Access-Control-Allow-Headers"));
        assertEquals("60", res.header("Access-Control-Max-Age"));
        assertNull(res.header("Access-Control-Allow-Credentials"));

        Api stranger = admin.withHeader("Origin", "https://app.example.com");
        assertNull(stranger.get(200, "user/current").header("Access-Control-Allow-Origin"), "SDK off, not loopback");
        admin.put(204, "setting/enable-embedding-sdk", Map.of("value", true));
        admin.put(204, "setting/embedding-app-origins-sdk", Map.of("value", "*.example.com other.org:*"));
        try {
            assertEquals("https://app.example.com", stranger.get(200, "user/current").header("Access-Control-Allow-Origin"));
            Api.Res other = admin.withHeader("Origin", "https://evil.net").get(200, "user/current");
            assertNull(other.header("Access-Control-Allow-Origin"));
            assertEquals("*", other.header("Access-Control-Allow-Methods"), "the other headers go out with the SDK on");
            Api.Res preflight = anonymous.withHeader("Origin", "https://app.example.com")
                    .withHeader("Access-Control-Request-Method", "GET").call("OPTIONS", "card/1/query", null);
            assertEquals(200, preflight.status(), preflight.body());
            assertEquals("https://app.example.com", preflight.header("Access-Control-Allow-Origin"));
        } finally {
            admin.put(204, "setting/enable-embedding-sdk", Map.of("value", false));
        }
        admin.put(204, "setting/disable-cors-on-localhost", Map.of("value", true));
        try {
            assertNull(local.get(200, "user/current").header("Access-Control-Allow-Origin"));
        } finally {
            admin.put(204, "setting/disable-cors-on-localhost", Map.of("value", false));
        }
    }

    @Test
    void turningEmbeddingOnCreatesTheSecretKeyOnce() {
        admin.put(204, "setting/enable-embedding-static", Map.of("value", true));
        try {
            String key = server.quarry().settings.string("embedding-secret-key");
            org.junit.jupiter.api.Assertions.assertTrue(key.matches("[0-9a-f]{64}"), key);
            admin.put(204, "setting/enable-embedding-sdk", Map.of("value", true));
            admin.put(204, "setting/enable-embedding-sdk", Map.of("value", false));
            assertEquals(key, server.quarry().settings.string("embedding-secret-key"), "kept once made");
        } finally {
            admin.put(204, "setting/enable-embedding-static", Map.of("value", false));
        }
    }
}
