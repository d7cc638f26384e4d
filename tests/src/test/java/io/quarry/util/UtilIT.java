package io.quarry.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code /api/util} and the v0.63 paths that serve the same things. */
class UtilIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";
    /** Superuser-only GETs, each with its v0.63 alias. */
    private static final List<List<String>> ADMIN_PAIRS = List.of(
            List.of("util/logs", "logger/logs"),
            List.of("util/bug_report_details", "bug-reporting/details"),
            List.of("util/stats", "analytics/anonymous-stats"),
            List.of("util/diagnostic_info/connection_pool_info", "bug-reporting/connection-pool-details"));

    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api ordinary;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        ordinary = Fixtures.ordinaryCaller(anonymous, admin);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void randomTokensAre64HexDigitsFreshEachTime() {
        JsonNode first = anonymous.get(200, "util/random_token").json();
        assertEquals(1, first.size());
        String token = first.get("token").asText();
        assertTrue(token.matches("[0-9a-f]{64}"), token);
        assertNotEquals(token, anonymous.get(200, "util/random_token").json().get("token").asText());
        // usable as the embedding secret key
        admin.put(204, "setting/embedding-secret-key", Map.of("value", token));
    }

    @Test
    void passwordChecksAnswerOnBothPaths() {
        for (String path : List.of("util/password_check", "session/password-check")) {
            assertEquals("{\"valid\":true}", anonymous.post(200, path, Map.of("password", "x7#Kq9!vR2mZ")).body());
            for (Object weak : new Object[]{"password1", "qwerty123", "short1", "nodigitshere"}) {
                JsonNode refused = anonymous.post(400, path, Map.of("password", weak)).json();
                assertEquals("{\"errors\":{\"password\":\"password is too common.\"}}", refused.toString(), path + " " + weak);
            }
            assertEquals("password is too common.", anonymous.post(400, path, Map.of()).json().get("errors").get("password").asText());
            assertEquals("password is too common.",
                    anonymous.post(400, path, Map.of("password", 12345678)).json().get("errors").get("password").asText());
            assertEquals("Value must be a map.", anonymous.post(400, path, "\"password1\"").json().get("errors").get("body").asText());
        }
        // the other session endpoints are untouched by the alias
        anonymous.get(200, "session/properties");
    }

    @Test
    void diagnosticsNeedAnAdministrator() {
        for (List<String> pair : ADMIN_PAIRS) {
            for (String path : pair) {
                assertEquals("Unauthenticated", anonymous.get(401, path).body(), path);
                assertEquals(FORBIDDEN, ordinary.get(403, path).body(), path);
                admin.get(200, path);
            }
        }
    }

    @Test
    void logsShowRecentEventsNewestFirst() {
        String marker = "LogMarker " + UUID.randomUUID();
        admin.post(200, "api-key", Map.of("name", marker, "group_id", 1));
        for (String path : ADMIN_PAIRS.get(0)) {
            JsonNode logs = admin.get(200, path).json();
            assertTrue(logs.isArray() && logs.size() > 0 && logs.size() <= LogBuffer.CAPACITY);
            JsonNode entry = null;
            for (JsonNode e : logs) {
                if (e.get("msg").asText().contains(marker)) {
                    entry = e;
                    break;
                }
            }
            assertTrue(entry != null, "the key creation is logged: " + logs.get(0));
            assertEquals("INFO", entry.get("level").asText());
            assertEquals("io.quarry.auth.ApiKeyService", entry.get("fqns").asText());
            assertTrue(entry.has("exception") && entry.has("process_uuid"));
            OffsetDateTime previous = null;
            for (JsonNode e : logs) {
                OffsetDateTime at = OffsetDateTime.parse(e.get("timestamp").asText());
                assertTrue(previous == null || !at.isAfter(previous), "newest first");
                previous = at;
            }
        }
    }

    @Test
    void bugReportDetailsDescribeTheSystemAndTheInstance() {
        for (String path : ADMIN_PAIRS.get(1)) {
            JsonNode details = admin.get(200, path).json();
            JsonNode system = details.get("system-info");
            assertEquals(System.getProperty("java.version"), system.get("java.version").asText());
            assertTrue(system.has("os.name") && system.has("user.timezone") && system.has("file.encoding"));
            JsonNode info = details.get("metabase-info");
            assertEquals("v0.63.0", info.get("version").get("tag").asText());
            assertEquals(TestAppDb.isPostgres() ? "postgres" : "h2", info.get("application-database").asText());
            assertTrue(info.get("application-database-details").get("database").hasNonNull("version"));
            assertTrue(info.get("application-database-details").get("jdbc-driver").hasNonNull("name"));
            assertTrue(info.get("databases").isArray());
            assertEquals(1, info.get("user-count").asInt(), "one person; API key users are not people");
        }
    }

    @Test
    void anonymousStatsCountWithoutNamingAnyone() {
        for (String path : ADMIN_PAIRS.get(2)) {
            Api.Res res = admin.get(200, path);
            JsonNode stats = res.json();
            JsonNode users = stats.get("stats").get("user").get("users");
            assertEquals(1, users.get("total").asInt());
            assertEquals(1, users.get("active").asInt());
            assertEquals(1, users.get("admin").asInt());
            assertEquals(1, users.get("logged_in").asInt());
            assertEquals(0, users.get("sso").asInt());
            assertEquals(2, stats.get("stats").get("group").get("groups").asInt());
            assertTrue(stats.get("stats").get("api_key").get("api_keys").get("total").asInt() >= 1);
            assertEquals(TestAppDb.isPostgres() ? "postgres" : "h2", stats.get("application_database").asText());
            assertTrue(stats.get("site_name").asBoolean(), "the site was named at setup (the name itself is not sent)");
            assertFalse(res.body().contains(Fixtures.ADMIN_EMAIL) || res.body().contains("Crowberto") || res.body().contains("Quarry Test"),
                    "no personal data: " + res.body());
        }
    }

    @Test
    void connectionPoolsIncludeTheApplicationDatabase() {
        for (String path : ADMIN_PAIRS.get(3)) {
            Api.Res res = admin.get(200, path);
            JsonNode appDb = res.json().get("connection-pools").get("app-db");
            assertTrue(appDb.get("numConnections").asInt() >= 1, appDb.toString());
            assertEquals(appDb.get("numConnections").asInt(),
                    appDb.get("numIdleConnections").asInt() + appDb.get("numBusyConnections").asInt());
            assertEquals(15, appDb.get("maxPoolSize").asInt());
            assertEquals("attachment; filename=\"connection_pool_info.json\"", res.header("Content-Disposition"));
        }
    }
}
