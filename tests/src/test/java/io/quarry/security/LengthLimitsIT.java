package io.quarry.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue #25, item 8: a text longer than its column (the changelog's {@code VARCHAR(n)}) answers 400 naming the field,
 * not a 500, and stores nothing (no row created, the row edited unchanged); a text of exactly n characters is stored
 * whole.
 */
class LengthLimitsIT {
    private static final String TOO_LONG = "value must be a string of at most 254 characters.";
    private static TestServer server;
    private static Api admin;
    private static long db;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        Api anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        db = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", TargetDatabases.h2Details(TargetDatabases.h2Shop()))).json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String text(int characters) {
        return "n".repeat(characters);
    }

    private static long count(String table) {
        return AppDbSql.count(server, "SELECT COUNT(*) FROM " + table);
    }

    private static Object stored(String table, String column, long id) {
        return AppDbSql.value(server, "SELECT " + column + " FROM " + table + " WHERE id = ?", id);
    }

    /** POST with a too-long field: 400 naming it, no row; then with exactly the limit: stored whole. Returns its id. */
    private static long refusedThenStored(String path, String table, String field, int limit, Map<String, Object> body) {
        long before = count(table);
        Map<String, Object> tooLong = new LinkedHashMap<>(body);
        tooLong.put(field, text(limit + 1));
        JsonNode errors = admin.post(400, path, tooLong).json().get("errors");
        assertEquals("value must be a string of at most " + limit + " characters.", errors.get(field).asText(), path);
        assertEquals(before, count(table), path + ": nothing stored");
        Map<String, Object> fits = new LinkedHashMap<>(body);
        fits.put(field, text(limit));
        long id = admin.post(200, path, fits).json().get("id").asLong();
        assertEquals(text(limit), stored(table, field, id));
        return id;
    }

    /** PUT with a too-long field: 400 naming it, the row unchanged. */
    private static void editRefused(String path, String table, String field, int limit, long id) {
        Object before = stored(table, field, id);
        JsonNode errors = admin.put(400, path + "/" + id, Map.of(field, text(limit + 1))).json().get("errors");
        assertEquals("value must be a string of at most " + limit + " characters.", errors.get(field).asText(), path);
        assertEquals(before, stored(table, field, id), path + ": unchanged");
    }

    @Test
    void collections() {
        long id = refusedThenStored("collection", "collection", "name", 254, Map.of());
        editRefused("collection", "collection", "name", 254, id);
    }

    @Test
    void cardNamesAndDisplays() {
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", "Count");
        card.put("display", "table");
        card.put("visualization_settings", Map.of());
        card.put("dataset_query", Map.of("database", db, "type", "native", "native", Map.of("query", "SELECT 1")));
        long id = refusedThenStored("card", "report_card", "name", 254, card);
        editRefused("card", "report_card", "name", 254, id);
        long before = count("report_card");
        Map<String, Object> display = new LinkedHashMap<>(card);
        display.put("display", text(255));
        assertEquals(TOO_LONG, admin.post(400, "card", display).json().get("errors").get("display").asText());
        assertEquals(before, count("report_card"));
        editRefused("card", "report_card", "display", 254, id);
        // a name Quarry derives from a valid one is cut to fit, not a 500
        long copy = admin.post(200, "card/" + id + "/copy", null).json().get("id").asLong();
        assertEquals(("Copy of " + text(254)).substring(0, 254), stored("report_card", "name", copy));
    }

    @Test
    void dashboardsAndTheirTabs() {
        long id = refusedThenStored("dashboard", "report_dashboard", "name", 254, Map.of());
        editRefused("dashboard", "report_dashboard", "name", 254, id);
        long tabsBefore = count("dashboard_tab");
        JsonNode errors = admin.put(400, "dashboard/" + id, Map.of("dashcards", List.of(), "tabs",
                List.of(Map.of("id", -1, "name", text(255))))).json().get("errors");
        assertEquals(List.of("tabs"), iterate(errors));
        assertEquals(tabsBefore, count("dashboard_tab"));
        admin.put(200, "dashboard/" + id, Map.of("dashcards", List.of(), "tabs", List.of(Map.of("id", -1, "name", text(254)))));
        assertEquals(text(254), AppDbSql.value(server, "SELECT name FROM dashboard_tab WHERE dashboard_id = ?", id));
        // a copy's name too
        long dashboards = count("report_dashboard");
        assertEquals(TOO_LONG, admin.post(400, "dashboard/" + id + "/copy", Map.of("name", text(255))).json().get("errors").get("name").asText());
        assertEquals(dashboards, count("report_dashboard"));
    }

    @Test
    void timelinesAndTheirEvents() {
        long timeline = refusedThenStored("timeline", "timeline", "name", 255, Map.of());
        editRefused("timeline", "timeline", "name", 255, timeline);
        long event = refusedThenStored("timeline-event", "timeline_event", "name", 255, Map.of("timeline_id", timeline,
                "timestamp", "2024-01-01T00:00:00Z", "timezone", "UTC"));
        editRefused("timeline-event", "timeline_event", "name", 255, event);
    }

    @Test
    void snippets() {
        long id = refusedThenStored("native-query-snippet", "native_query_snippet", "name", 254, Map.of("content", "1 = 1"));
        editRefused("native-query-snippet", "native_query_snippet", "name", 254, id);
    }

    @Test
    void usersAndDatabases() {
        long id = refusedThenStored("user", "core_user", "first_name", 254, Map.of("email", "long.names@example.com", "last_name", "L"));
        editRefused("user", "core_user", "last_name", 254, id);
        long databases = count("metabase_database");
        assertEquals(TOO_LONG, admin.post(400, "database", Map.of("engine", "h2", "name", text(255),
                "details", TargetDatabases.h2Details(TargetDatabases.h2Shop()))).json().get("errors").get("name").asText());
        assertEquals(databases, count("metabase_database"));
        editRefused("database", "metabase_database", "name", 254, db);
    }

    @Test
    void lengthsCountUtf16UnitsAsTheStricterApplicationDatabaseDoes() {
        // H2 counts a VARCHAR's length in UTF-16 units (an emoji is two), PostgreSQL in characters: the edge checks
        // the stricter count, so what it lets through fits either application database
        String fits = "\uD83D\uDE00".repeat(127);
        long id = admin.post(200, "collection", Map.of("name", fits)).json().get("id").asLong();
        assertEquals(fits, stored("collection", "name", id));
        long before = count("collection");
        assertEquals(TOO_LONG, admin.post(400, "collection", Map.of("name", fits + "\uD83D\uDE00")).json().get("errors").get("name").asText());
        assertEquals(before, count("collection"));
    }

    private static List<String> iterate(JsonNode errors) {
        List<String> keys = new java.util.ArrayList<>();
        errors.fieldNames().forEachRemaining(keys::add);
        return keys;
    }
}
