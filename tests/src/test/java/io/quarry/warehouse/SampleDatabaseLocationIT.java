package io.quarry.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Sample Database directory Quarry cannot write: setup still succeeds and says why the sample is missing, and adding
 * it answers 503 with the reason and the fix — never a 500.
 */
class SampleDatabaseLocationIT {
    @Test
    void unwritableSampleDirectoryIsExplained(@TempDir Path temp) throws Exception {
        // a plain file where the directory should be: unwritable for anyone, root included
        Path blocked = Files.writeString(temp.resolve("plugins"), "not a directory");
        Path directory = blocked.resolve("sample");
        try (TestServer server = TestServer.start(Map.of("MB_PLUGINS_DIR", directory.toString(), "MB_LOAD_SAMPLE_CONTENT", "true"))) {
            Api api = server.api();
            String token = api.get(200, "session/properties").json().get("setup-token").asText();
            JsonNode setup = api.post(200, "setup", Map.of("token", token,
                    "user", Map.of("email", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD, "first_name", "C", "last_name", "C"),
                    "prefs", Map.of("site_name", "Quarry Test"))).json();
            String session = setup.get("id").asText();
            String explained = setup.get("sample_database_error").asText();
            assertTrue(explained.contains(directory.toString()) && explained.contains("MB_PLUGINS_DIR"), explained);

            Api.Res sample = api.as(session).call("POST", "database/sample_database", Map.of());
            assertEquals(503, sample.status(), sample.body());
            assertTrue(sample.body().contains(directory.toString()), sample.body());
            assertEquals(0, api.as(session).get(200, "database").json().get("data").size());
        }
    }
}
