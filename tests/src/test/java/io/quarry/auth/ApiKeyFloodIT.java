package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue #25 item 5 over HTTP: bogus {@code X-Api-Key}s cost no bcrypt when malformed, and at most
 * {@link ApiKeyService#FAILURE_THRESHOLD} bcrypts per client address within the hour when well-formed; keys already in
 * use and the session header keep working from that address. Each step checked by the server's count of hash checks.
 */
class ApiKeyFloodIT {
    private static final long ADMINISTRATORS = 2;

    @Test
    void bogusKeysAreRefusedCheaplyAndThrottledWhileRealCallersGoOn() {
        try (TestServer server = TestServer.start(Map.of())) {
            Api anonymous = server.api();
            String session = Fixtures.setUp(anonymous);
            Api admin = anonymous.as(session);
            ApiKeyService keys = server.quarry().apiKeys;
            String used = admin.post(200, "api-key", Map.of("name", "In use", "group_id", ADMINISTRATORS)).json().get("unmasked_key").asText();
            String unused = admin.post(200, "api-key", Map.of("name", "Not yet used", "group_id", ADMINISTRATORS)).json().get("unmasked_key").asText();
            anonymous.withApiKey(used).get(200, "api-key/count");

            long hashes = keys.hashChecks();
            for (String malformed : new String[]{"mb_notAKeyAtAllButLongEnough000000000000000000", "mb_" + "x".repeat(250),
                    used.substring(0, 46), used + "="}) {
                assertEquals("Unauthenticated", anonymous.withApiKey(malformed).get(401, "setting/site-name").body());
            }
            assertEquals(hashes, keys.hashChecks(), "malformed keys are refused before any bcrypt");

            for (int i = 0; i < ApiKeyService.FAILURE_THRESHOLD; i++) {
                anonymous.withApiKey(ApiKeyService.newKey()).get(401, "setting/site-name");
            }
            assertEquals(hashes + ApiKeyService.FAILURE_THRESHOLD, keys.hashChecks(), "one bcrypt per well-formed guess, up to the threshold");
            for (int i = 0; i < 10; i++) {
                assertEquals("Unauthenticated", anonymous.withApiKey(ApiKeyService.newKey()).get(401, "setting/site-name").body());
            }
            // a key never checked yet waits out the throttle with the guesses: it is not hashed either
            anonymous.withApiKey(unused).get(401, "api-key/count");
            assertEquals(hashes + ApiKeyService.FAILURE_THRESHOLD, keys.hashChecks(), "a throttled address gets no bcrypt");

            // what real callers from that address send still works
            assertEquals(2, anonymous.withApiKey(used).get(200, "api-key/count").json().asInt(), "a key in use");
            admin.get(200, "api-key/count");
            anonymous.get(200, "health");
            assertEquals(hashes + ApiKeyService.FAILURE_THRESHOLD, keys.hashChecks());
        }
    }
}
