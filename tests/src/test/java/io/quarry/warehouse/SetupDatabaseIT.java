package io.quarry.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.InProcess;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Databases during setup: {@code POST /api/setup/validate} connects for real, and {@code POST /api/setup} with a
 * database (nested or flat) tries it before writing anything, then adds it with the first administrator as creator.
 * These servers start without sample content, so the only database is the one setup was given.
 */
class SetupDatabaseIT {
    private static String token(Api api) {
        return api.get(200, "session/properties").json().get("setup-token").asText();
    }

    private static Map<String, Object> setupBody(String token) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("token", token);
        body.put("user", Map.of("email", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD, "first_name", "Crowberto"));
        body.put("prefs", Map.of("site_name", "Quarry Test"));
        return body;
    }

    private static Map<String, Object> h2(Path file, String password) {
        return Map.of("db", "file:" + file, "user", "sa", "password", password);
    }

    @Test
    void setupValidatesAndAddsANestedDatabase() throws Exception {
        try (TestServer server = TestServer.start(Map.of())) {
            Api api = server.api();
            String token = token(api);
            Path shop = TargetDatabases.h2Shop();

            // validate: the token first, then a real connection
            assertEquals("Token does not match the setup token.", api.post(400, "setup/validate",
                    Map.of("token", "nope", "details", Map.of("engine", "h2", "details", h2(shop, "secret-pw")))).json().get("errors").get("token").asText());
            assertTrue(api.post(200, "setup/validate", Map.of("token", token, "details", Map.of("engine", "h2", "details", h2(shop, "secret-pw"))))
                    .json().get("valid").asBoolean());
            assertTrue(api.post(200, "setup/validate", Map.of("token", token, "engine", "h2", "details", h2(shop, "secret-pw")))
                    .json().get("valid").asBoolean(), "flat body");
            JsonNode wrong = api.post(400, "setup/validate", Map.of("token", token, "details",
                    Map.of("engine", "h2", "details", h2(shop, "wrong")))).json();
            assertEquals("check your password", wrong.get("errors").get("password").asText());
            assertEquals("Looks like the Username or Password is incorrect.", wrong.get("message").asText());
            JsonNode closed = api.post(400, "setup/validate", Map.of("token", token, "details", Map.of("engine", "postgres", "details",
                    Map.of("host", "127.0.0.1", "port", Targets.closedPort(), "dbname", "x", "user", "u")))).json();
            assertEquals("check your port settings", closed.get("errors").get("port").asText());

            // a database that does not connect fails setup before anything is written
            Map<String, Object> bad = setupBody(token);
            bad.put("database", Map.of("engine", "h2", "name", "Shop", "details", h2(shop, "wrong")));
            JsonNode refused = api.post(400, "setup", bad).json();
            assertEquals("check your password", refused.get("errors").get("password").asText());
            assertFalse(api.get(200, "session/properties").json().get("has-user-setup").asBoolean());
            assertEquals(0, InProcess.number(server, "SELECT COUNT(*) FROM core_user"));
            assertEquals(0, Targets.countDatabases(server));
            Map<String, Object> invalid = setupBody(token);
            invalid.put("database", Map.of("engine", "oracle", "details", Map.of()));
            invalid.put("schedules", Map.of("metadata_sync", Map.of("schedule_type", "sometimes")));
            JsonNode invalidBody = api.post(400, "setup", invalid).json();
            JsonNode errors = invalidBody.get("errors");
            assertEquals("nullable value must be a valid map of schedule maps for a DB.", errors.get("schedules").asText());
            invalid.remove("schedules");
            errors = api.post(400, "setup", invalid).json().get("errors");
            assertEquals("value must be a valid database engine.", errors.get("engine").asText());
            assertEquals("value must be a non-blank string.", errors.get("name").asText());
            assertEquals(0, InProcess.number(server, "SELECT COUNT(*) FROM core_user"));

            Map<String, Object> good = setupBody(token);
            good.put("database", Map.of("engine", "h2", "name", "Shop", "details", h2(shop, "secret-pw")));
            good.put("auto_run_queries", false); // the spec has it beside the database
            String session = api.post(200, "setup", good).json().get("id").asText();
            JsonNode databases = api.as(session).get(200, "database").json();
            assertEquals(1, databases.get("total").asInt());
            JsonNode shopDb = databases.get("data").get(0);
            assertEquals("Shop", shopDb.get("name").asText());
            assertFalse(shopDb.get("auto_run_queries").asBoolean());
            assertEquals(InProcess.findUser(server, Fixtures.ADMIN_EMAIL).id.longValue(), shopDb.get("creator_id").asLong());
            assertEquals(DatabaseViews.REDACTED, shopDb.get("details").get("password").asText());
            Targets.sync(server, shopDb.get("id").asLong());
            assertEquals(2, Targets.tables(server, shopDb.get("id").asLong()).size());
            // MB_LOAD_SAMPLE_CONTENT is off for test servers: no sample database came with setup
            Thread.sleep(300);
            assertEquals(1, Targets.countDatabases(server));
        }
    }

    @Test
    void setupAcceptsTheFlatDatabaseFields() throws Exception {
        try (TestServer server = TestServer.start(Map.of())) {
            Api api = server.api();
            Map<String, Object> body = setupBody(token(api));
            body.put("engine", "h2");
            body.put("name", "Flat shop");
            body.put("details", h2(TargetDatabases.h2Shop(), "secret-pw"));
            String session = api.post(200, "setup", body).json().get("id").asText();
            assertEquals("Flat shop", api.as(session).get(200, "database").json().get("data").get(0).get("name").asText());
        }
    }
}
