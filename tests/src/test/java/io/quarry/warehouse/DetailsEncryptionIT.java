package io.quarry.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Details at rest with {@code MB_ENCRYPTION_SECRET_KEY}: the stored column holds neither the password nor the JSON,
 * rows stored before the key was set still work (and are encrypted on their next write), and the wrong key — or no
 * key — fails loudly when details are read instead of passing for empty details.
 */
class DetailsEncryptionIT {
    private static final String KEY = "an encryption key of some length";

    private static Map<String, Object> shop(Path file) {
        return Map.of("engine", "h2", "name", "Shop", "details", Map.of("db", "file:" + file, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD));
    }

    private static TestServer restart(TestServer server, String key) {
        Map<String, String> config = new HashMap<>(server.config);
        server.close();
        if (key == null) {
            config.remove("MB_ENCRYPTION_SECRET_KEY");
        } else {
            config.put("MB_ENCRYPTION_SECRET_KEY", key);
        }
        return TestServer.startWith(config);
    }

    @Test
    void detailsAreStoredEncryptedAndAWrongKeyFailsLoudly() throws Exception {
        TestServer server = TestServer.start(Map.of("MB_ENCRYPTION_SECRET_KEY", KEY));
        try {
            Api api = server.api();
            String admin = Fixtures.setUp(api);
            long id = api.as(admin).post(200, "database", shop(TargetDatabases.h2Shop())).json().get("id").asLong();
            String stored = Targets.storedDetails(server, id);
            assertTrue(stored.startsWith("qenc1:"), stored);
            assertFalse(stored.contains(TargetDatabases.H2_PASSWORD));
            assertFalse(stored.contains("{"), "no JSON in the clear");
            assertFalse(stored.contains("file:"));
            assertEquals(TargetDatabases.H2_PASSWORD, server.quarry().databases.require(id).details.get("password"));
            assertEquals(DatabaseViews.REDACTED, api.as(admin).get(200, "database/" + id).json().get("details").get("password").asText());
            Targets.sync(server, id); // the decrypted details really connect
            assertEquals(2, Targets.tables(server, id).size());

            server = restart(server, "a different key, also long enough");
            Api other = server.api();
            long dbId = id;
            TestServer wrongKey = server;
            IllegalStateException wrong = assertThrows(IllegalStateException.class, () -> wrongKey.quarry().databases.find(dbId));
            assertTrue(wrong.getMessage().contains("MB_ENCRYPTION_SECRET_KEY"), wrong.getMessage());
            assertEquals(500, other.as(admin).call("GET", "database/" + id, null).status(), "never served as a database without details");
            assertEquals(500, other.as(admin).call("GET", "database", null).status());

            server = restart(server, null);
            TestServer noKey = server;
            IllegalStateException missing = assertThrows(IllegalStateException.class, () -> noKey.quarry().databases.find(dbId));
            assertTrue(missing.getMessage().contains("MB_ENCRYPTION_SECRET_KEY is not set"), missing.getMessage());

            server = restart(server, KEY);
            assertEquals(TargetDatabases.H2_PASSWORD, server.quarry().databases.require(id).details.get("password"), "the right key reads them again");
        } finally {
            server.close();
        }
    }

    @Test
    void rowsStoredBeforeTheKeyWasSetStillReadAndGetEncryptedOnTheirNextWrite() throws Exception {
        TestServer server = TestServer.start(Map.of());
        try {
            Api api = server.api();
            String admin = Fixtures.setUp(api);
            long id = api.as(admin).post(200, "database", shop(TargetDatabases.h2Shop())).json().get("id").asLong();
            assertTrue(Targets.storedDetails(server, id).startsWith("{"), "plain JSON without a key");

            server = restart(server, KEY);
            api = server.api();
            assertEquals(TargetDatabases.H2_PASSWORD, server.quarry().databases.require(id).details.get("password"));
            assertEquals("Shop", api.as(admin).get(200, "database/" + id).json().get("name").asText());
            api.as(admin).put(200, "database/" + id, Map.of("name", "Shop again"));
            String stored = Targets.storedDetails(server, id);
            assertTrue(stored.startsWith("qenc1:"), stored);
            assertFalse(stored.contains(TargetDatabases.H2_PASSWORD));
            assertEquals(TargetDatabases.H2_PASSWORD, server.quarry().databases.require(id).details.get("password"));
        } finally {
            server.close();
        }
    }
}
