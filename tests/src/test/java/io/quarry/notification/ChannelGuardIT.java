package io.quarry.notification;

import static io.quarry.notification.NotificationIT.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Webhook channels under the default host strategy ({@code external-only}) and with {@code MB_ENCRYPTION_SECRET_KEY}:
 * URLs aimed at this machine, a private network or cloud metadata are refused with Metabase's message and nothing is
 * stored; the details of a stored channel are encrypted at rest and read back in clear by administrators.
 */
class ChannelGuardIT {
    @Test
    void internalHostsAreRefusedAndSecretsAreEncryptedAtRest() throws Exception {
        try (TestServer server = TestServer.start(Map.of("MB_ENCRYPTION_SECRET_KEY", "a-long-enough-secret-key-for-tests"));
             WebhookReceiver local = new WebhookReceiver()) {
            Api anonymous = server.api();
            Api admin = anonymous.as(Fixtures.setUp(anonymous));
            for (String url : List.of("http://127.0.0.1:8080/hook", "http://[::1]/hook", "http://169.254.169.254/latest/meta-data",
                    "http://10.0.0.1/hook", "http://localhost/hook", "http://metadata.google.internal/x", local.url("/x"))) {
                JsonNode refused = admin.post(400, "channel", map("name", "Internal", "type", "channel/http", "details",
                        map("url", url, "auth-method", "none"))).json();
                assertEquals("URLs referring to hosts that supply internal hosting metadata are prohibited.",
                        refused.get("errors").get("details").asText(), url);
                JsonNode test = admin.post(400, "channel/test", map("type", "channel/http", "details",
                        map("url", url, "auth-method", "none"))).json();
                assertTrue(test.toString().contains("prohibited"), test.toString());
            }
            assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM channel"));
            assertEquals(0, local.received.size(), "nothing reached the refused host");

            long id = admin.post(200, "channel", map("name", "External", "type", "channel/http", "details",
                    map("url", "https://hooks.example.com/x", "auth-method", "header", "auth-info", map("Authorization", "Bearer tok-123"))))
                    .json().get("id").asLong();
            String stored = (String) AppDbSql.value(server, "SELECT details FROM channel WHERE id = ?", id);
            assertTrue(stored.startsWith("qenc1:"), stored);
            assertFalse(stored.contains("tok-123"));
            assertEquals("Bearer tok-123", admin.get(200, "channel/" + id).json().get("details").get("auth-info").get("Authorization")
                    .asText());
            // moving the URL to an internal host later is refused too, and leaves the channel as it was
            admin.put(400, "channel/" + id, map("details", map("url", "http://127.0.0.1/x", "auth-method", "none")));
            assertEquals("https://hooks.example.com/x", admin.get(200, "channel/" + id).json().get("details").get("url").asText());
        }
    }
}
