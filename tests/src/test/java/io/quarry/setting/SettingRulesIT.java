package io.quarry.setting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A null value deletes a setting (so its default shows again); Metabase's user-local settings, one value per user. */
class SettingRulesIT {
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> value(Object v) {
        Map<String, Object> body = new HashMap<>();
        body.put("value", v);
        return body;
    }

    private static Object stored(String key) {
        return AppDbSql.value(server, "SELECT setting_value FROM setting WHERE setting_key = ?", key);
    }

    @Test
    void aNullValueDeletesTheSettingAndTheDefaultShowsAgain() {
        admin.put(204, "setting/start-of-week", value("monday"));
        assertEquals("monday", stored("start-of-week"));
        admin.put(204, "setting/start-of-week", value(null));
        assertNull(stored("start-of-week"));
        assertTrue(admin.get(200, "setting/start-of-week").json().isNull());
        assertEquals("sunday", admin.get(200, "session/properties").json().get("start-of-week").asText());
        // the same through the batch endpoint, and with the JSON sent as a form would not matter: null is JSON's
        admin.put(204, "setting", Map.of("start-of-week", "tuesday"));
        Map<String, Object> batch = new HashMap<>();
        batch.put("start-of-week", null);
        admin.put(204, "setting", batch);
        assertNull(stored("start-of-week"));
    }

    @Test
    void userLocalSettingsHaveMetabasesDefaultsAndBelongToEachUser() {
        Map<String, Object> expected = new java.util.LinkedHashMap<>();
        expected.put("expand-browse-in-nav", true);
        expected.put("expand-bookmarks-in-nav", true);
        expected.put("expand-collections-in-nav", true);
        expected.put("browse-filter-only-verified-models", true);
        expected.put("browse-filter-only-verified-metrics", true);
        expected.put("dismissed-custom-dashboard-toast", false);
        expected.put("dismissed-browse-models-banner", false);
        expected.put("dismissed-excel-pivot-exports-banner", false);
        expected.put("notebook-native-preview-shown", false);
        expected.put("color-scheme", "auto");
        JsonNode properties = user.get(200, "session/properties").json();
        expected.forEach((key, v) -> assertEquals(String.valueOf(v), properties.path(key).asText(), key));
        assertTrue(properties.has("last-used-native-database-id"));
        assertTrue(properties.get("last-used-native-database-id").isNull());

        user.put(204, "setting/expand-browse-in-nav", value(false));
        assertFalse(user.get(200, "setting/expand-browse-in-nav").json().asBoolean());
        assertFalse(user.get(200, "session/properties").json().get("expand-browse-in-nav").asBoolean());
        // another user's value is their own
        assertTrue(admin.get(200, "session/properties").json().get("expand-browse-in-nav").asBoolean());
        // a wrong type changes nothing; null goes back to the default
        JsonNode errors = user.put(400, "setting/expand-browse-in-nav", value("FALSE ")).json().get("errors");
        assertTrue(errors.has("expand-browse-in-nav"));
        user.put(204, "setting/expand-browse-in-nav", value(null));
        assertTrue(user.get(200, "session/properties").json().get("expand-browse-in-nav").asBoolean());

        user.put(204, "setting/last-used-native-database-id", value(7));
        assertEquals(7, user.get(200, "session/properties").json().get("last-used-native-database-id").asInt());
        user.put(204, "setting/color-scheme", value("dark"));
        assertEquals("dark", user.get(200, "session/properties").json().get("color-scheme").asText());
        // anonymous callers see none of them
        assertFalse(anonymous.get(200, "session/properties").json().has("expand-browse-in-nav"));
    }
}
