package io.quarry.setting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code /api/setting} over HTTP: who may read and write what, validation, all-or-nothing batches. */
class SettingIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";
    private static final String HEX_KEY = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    /** A caller without admin rights: an API key in All Users. */
    private static Api ordinary;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("MB_APPLICATION_NAME", "From The Environment"));
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        ordinary = anonymous.withApiKey(admin.post(200, "api-key", Map.of("name", "Ordinary", "group_id", 1))
                .json().get("unmasked_key").asText());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static JsonNode read(String key) {
        return admin.get(200, "setting/" + key).json();
    }

    private static Map<String, Object> body(Object v) {
        Map<String, Object> body = new HashMap<>();
        body.put("value", v);
        return body;
    }

    private static JsonNode row(String key) {
        for (JsonNode row : admin.get(200, "setting").json()) {
            if (row.get("key").asText().equals(key)) {
                return row;
            }
        }
        return null;
    }

    private static String stored(String key) {
        return (String) AppDbSql.value(server, "SELECT setting_value FROM setting WHERE setting_key = ?", key);
    }

    @Test
    void anonymousCallersAreUnauthenticated() {
        for (Api.Res res : List.of(anonymous.call("GET", "setting", null), anonymous.call("GET", "setting/site-name", null),
                anonymous.call("PUT", "setting", Map.of("site-name", "x")),
                anonymous.call("PUT", "setting/site-name", body("x")))) {
            assertEquals(401, res.status());
            assertEquals("Unauthenticated", res.body());
        }
        assertEquals("Quarry Test", admin.get(200, "session/properties").json().get("site-name").asText());
    }

    @Test
    void ordinaryUsersReachOnlyTheirOwnUserLocalSettings() {
        assertEquals(FORBIDDEN, ordinary.get(403, "setting").body());
        assertEquals(FORBIDDEN, ordinary.get(403, "setting/site-name").body());
        assertEquals(FORBIDDEN, ordinary.get(403, "setting/no-such-setting").body(), "no hint which settings exist");
        assertEquals(FORBIDDEN, ordinary.put(403, "setting/site-name", body("Hijacked")).body());
        assertEquals(FORBIDDEN, ordinary.put(403, "setting/no-such-setting", body("x")).body());
        // a batch with one forbidden key writes nothing, not even the allowed one
        assertEquals(FORBIDDEN, ordinary.put(403, "setting", Map.of("notebook-native-preview-shown", true, "site-name", "Hijacked")).body());
        assertTrue(ordinary.get(200, "setting/notebook-native-preview-shown").json().isNull());
        assertEquals("Quarry Test", admin.get(200, "session/properties").json().get("site-name").asText());

        ordinary.put(204, "setting/notebook-native-preview-shown", body(true));
        assertTrue(ordinary.get(200, "setting/notebook-native-preview-shown").json().asBoolean());
        ordinary.put(204, "setting", Map.of("notebook_native_preview_sidebar_width", 480, "expand-bookmarks-in-nav", "false"));
        assertEquals(480, ordinary.get(200, "setting/notebook-native-preview-sidebar-width").json().asInt());
        assertFalse(ordinary.get(200, "setting/expand-bookmarks-in-nav").json().asBoolean());
        // another user's values are their own
        assertTrue(read("notebook-native-preview-shown").isNull());
        // validation names the setting
        JsonNode bad = ordinary.put(400, "setting/notebook-native-preview-sidebar-width", body("wide")).json();
        assertEquals("value must be an integer.", bad.get("errors").get("notebook-native-preview-sidebar-width").asText());
        assertEquals(480, ordinary.get(200, "setting/notebook-native-preview-sidebar-width").json().asInt());
        // null deletes
        ordinary.put(204, "setting/notebook-native-preview-shown", body(null));
        assertTrue(ordinary.get(200, "setting/notebook-native-preview-shown").json().isNull());
        ordinary.put(204, "setting/expand-bookmarks-in-nav", Map.of());
        assertTrue(ordinary.get(200, "setting/expand-bookmarks-in-nav").json().isNull(), "a missing value deletes too");
    }

    @Test
    void administratorsListEverySettingButInternalOnes() {
        JsonNode list = admin.get(200, "setting").json();
        List<String> keys = new ArrayList<>();
        list.forEach(row -> keys.add(row.get("key").asText()));
        List<String> sorted = new ArrayList<>(keys);
        sorted.sort(null);
        assertEquals(sorted, keys, "sorted by key");
        assertTrue(keys.contains("site-name") && keys.contains("email-smtp-password") && keys.contains("expand-browse-in-nav"));
        assertFalse(keys.contains("setup-token-value") || keys.contains("site-uuid-value") || keys.contains("reset-token-ttl-hours"),
                "internal settings never appear");

        JsonNode siteName = row("site-name");
        assertEquals(List.of("key", "value", "is_env_setting", "env_name", "description", "default"), fieldNames(siteName));
        assertEquals("Quarry Test", siteName.get("value").asText());
        assertFalse(siteName.get("is_env_setting").asBoolean());
        assertEquals("MB_SITE_NAME", siteName.get("env_name").asText());
        assertEquals("Quarry", siteName.get("default").asText());

        JsonNode limit = row("aggregated-query-row-limit");
        assertTrue(limit.get("value").isNull(), "a value at its default shows as null");
        assertEquals(10000, limit.get("default").asInt());

        JsonNode fromEnv = row("application-name");
        assertTrue(fromEnv.get("is_env_setting").asBoolean());
        assertTrue(fromEnv.get("value").isNull(), "environment values are not shown");
        assertEquals("Using value of env var $MB_APPLICATION_NAME", fromEnv.get("default").asText());
        assertTrue(read("application-name").isNull());
        assertEquals("From The Environment", anonymous.get(200, "session/properties").json().get("application-name").asText());
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void administratorsWriteOneSetting() {
        admin.put(204, "setting/admin-email", body("help@example.com"));
        assertEquals("help@example.com", read("admin-email").asText());
        assertEquals("help@example.com", stored("admin-email"));
        // snake_case keys are accepted
        admin.put(204, "setting/start_of_week", body("monday"));
        assertEquals("monday", read("start-of-week").asText());
        assertEquals("monday", admin.get(200, "session/properties").json().get("start-of-week").asText());
        // the default reads back as null, as in Metabase
        admin.put(204, "setting/start-of-week", body("sunday"));
        assertTrue(read("start-of-week").isNull());
        // null deletes
        admin.put(204, "setting/admin-email", body(null));
        assertTrue(read("admin-email").isNull());
        assertEquals(null, stored("admin-email"));
    }

    @Test
    void badValuesAreRefusedNamingTheSettingAndStoreNothing() {
        Map<String, String> storedBefore = new HashMap<>();
        for (String key : List.of("start-of-week", "enable-public-sharing", "report-timezone", "site-locale", "embedding-secret-key")) {
            storedBefore.put(key, stored(key));
        }
        admin.put(204, "setting/unaggregated-query-row-limit", body(500));
        assertEquals(Map.of("unaggregated-query-row-limit", "value must be an integer greater than zero."),
                errors(admin.put(400, "setting/unaggregated-query-row-limit", body(0))));
        assertEquals(Map.of("unaggregated-query-row-limit", "value must be an integer greater than zero."),
                errors(admin.put(400, "setting/unaggregated-query-row-limit", body("lots"))));
        assertEquals(500, read("unaggregated-query-row-limit").asInt());

        assertEquals(Map.of("start-of-week", "enum of sunday, monday, tuesday, wednesday, thursday, friday, saturday"),
                errors(admin.put(400, "setting/start-of-week", body("someday"))));
        assertEquals(Map.of("enable-public-sharing", "value must be a boolean."),
                errors(admin.put(400, "setting/enable-public-sharing", body("sometimes"))));
        assertEquals(Map.of("report-timezone", "Invalid timezone."),
                errors(admin.put(400, "setting/report-timezone", body("Mars/Olympus_Mons"))));
        assertEquals(Map.of("site-locale", "Invalid locale \"xx\""), errors(admin.put(400, "setting/site-locale", body("xx"))));
        assertEquals(Map.of("embedding-secret-key",
                        "Secret key must be a hexadecimal-encoded 256-bit key (i.e., a 64-character string)."),
                errors(admin.put(400, "setting/embedding-secret-key", body("not-hex"))));
        assertEquals(Map.of("site-name", "value must be a string."), errors(admin.put(400, "setting/site-name", body(List.of("a")))));
        // json settings take any JSON
        admin.put(204, "setting/custom-formatting", body(Map.of("type/Temporal", Map.of("date_style", "D/M/YYYY"))));
        assertEquals("D/M/YYYY", read("custom-formatting").get("type/Temporal").get("date_style").asText());

        assertEquals("Quarry Test", read("site-name").asText());
        for (Map.Entry<String, String> before : storedBefore.entrySet()) {
            assertEquals(before.getValue(), stored(before.getKey()), before.getKey() + " was not written");
        }
        assertEquals("Value must be a map.", admin.put(400, "setting", "[1, 2]").json().get("errors").get("body").asText());
        assertEquals("Value must be a map.", admin.put(400, "setting/site-name", "\"bare\"").json().get("errors").get("body").asText());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> errors(Api.Res res) {
        return (Map<String, Object>) io.quarry.core.Json.MAPPER.convertValue(res.json().get("errors"), Map.class);
    }

    @Test
    void unknownReadOnlyInternalAndEnvironmentSettingsCannotBeWritten() {
        assertEquals("Unknown setting: :no-such-setting", admin.get(404, "setting/no-such-setting").body());
        assertEquals("Unknown setting: :no-such-setting", admin.put(404, "setting/no-such-setting", body("x")).body());
        assertEquals("You cannot update `version`: it is read-only.", admin.put(400, "setting/version", body("v9")).body());
        assertEquals("You cannot update `application-name`: its value is set via the environment variable MB_APPLICATION_NAME.",
                admin.put(400, "setting/application-name", body("Mine")).body());
        assertEquals(FORBIDDEN, admin.put(403, "setting/setup-token-value", body("x")).body());
        assertEquals(FORBIDDEN, admin.get(403, "setting/site-uuid-value").body());
        assertEquals(null, stored("application-name"));
        assertEquals("From The Environment", anonymous.get(200, "session/properties").json().get("application-name").asText());
        // computed settings read fine
        assertEquals("v0.63.0", read("version").get("tag").asText());
    }

    @Test
    void batchesAreAllOrNothing() {
        Map<String, Object> mixed = new LinkedHashMap<>();
        mixed.put("site-name", "Batch");
        mixed.put("aggregated-query-row-limit", -1);
        mixed.put("start_of_week", "noday");
        JsonNode errors = admin.put(400, "setting", mixed).json().get("errors");
        assertEquals("value must be an integer greater than zero.", errors.get("aggregated-query-row-limit").asText());
        assertEquals("enum of sunday, monday, tuesday, wednesday, thursday, friday, saturday", errors.get("start-of-week").asText());
        assertEquals(2, errors.size());
        assertEquals("Quarry Test", read("site-name").asText(), "the valid value in the refused batch was not stored");

        Map<String, Object> withUnknown = new LinkedHashMap<>();
        withUnknown.put("site-name", "Batch");
        withUnknown.put("no-such-setting", 1);
        admin.put(404, "setting", withUnknown);
        Map<String, Object> withEnv = new LinkedHashMap<>();
        withEnv.put("site-name", "Batch");
        withEnv.put("application-name", "Mine");
        admin.put(400, "setting", withEnv);
        assertEquals("Quarry Test", read("site-name").asText());

        Map<String, Object> good = new LinkedHashMap<>();
        good.put("site_name", "Batched");
        good.put("report-timezone", "Europe/Paris");
        good.put("expand-browse-in-nav", false);
        admin.put(204, "setting", good);
        assertEquals("Batched", read("site-name").asText());
        assertEquals("Europe/Paris", read("report-timezone").asText());
        assertFalse(read("expand-browse-in-nav").asBoolean(), "user-local settings go to the caller in the same batch");
        admin.put(204, "setting", Map.of());

        Map<String, Object> reset = new HashMap<>();
        reset.put("site-name", "Quarry Test");
        reset.put("report-timezone", null);
        admin.put(204, "setting", reset);
        assertTrue(read("report-timezone").isNull());
    }

    @Test
    void sensitiveValuesAreObfuscatedAndTheirObfuscationIsNotWrittenBack() {
        admin.put(204, "setting/embedding-secret-key", body(HEX_KEY));
        assertEquals("**********ef", read("embedding-secret-key").asText());
        assertEquals("**********ef", row("embedding-secret-key").get("value").asText());
        assertFalse(admin.get(200, "setting").body().contains(HEX_KEY));
        assertFalse(admin.get(200, "session/properties").body().contains(HEX_KEY));
        // sending the obfuscated form back keeps the secret (it would fail validation if it were stored)
        admin.put(204, "setting/embedding-secret-key", body("**********ef"));
        admin.put(204, "setting", Map.of("embedding-secret-key", "**********ef", "site-name", "Quarry Test"));
        assertEquals(HEX_KEY, stored("embedding-secret-key"));
    }
}
