package io.quarry.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Saved questions: creating them, running them with parameters, and the shared result cache. */
class CardQueryIT {
    private static TestServer server;
    private static Api api;
    private static Api admin;
    private static long dbId;
    private static Path shop;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        api = server.api();
        admin = api.as(Fixtures.setUp(api));
        shop = TargetDatabases.h2Shop();
        dbId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + shop, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(dbId).get();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> card(String name, String sql, Integer cacheTtl) {
        Map<String, Object> card = new java.util.LinkedHashMap<>();
        card.put("name", name);
        card.put("display", "table");
        card.put("visualization_settings", Map.of());
        card.put("dataset_query", Map.of("database", dbId, "type", "native", "native", Map.of("query", sql,
                "template-tags", Map.of("cat", Map.of("name", "cat", "type", "text")))));
        if (cacheTtl != null) {
            card.put("cache_ttl", cacheTtl);
        }
        return card;
    }

    private static long total(JsonNode result) {
        return result.get("data").get("rows").get(0).get(0).asLong();
    }

    @Test
    void createValidatesEveryFieldAndWritesNothingOnError() {
        JsonNode bad = admin.post(400, "card", Map.of("name", " ", "display", "", "dataset_query", "x", "cache_ttl", 0,
                "parameters", List.of(Map.of("id", "a")))).json().get("errors");
        assertEquals("value must be a non-blank string.", bad.get("name").asText());
        assertEquals("value must be a non-blank string.", bad.get("display").asText());
        assertEquals("Value must be a map.", bad.get("dataset_query").asText());
        assertEquals("Value must be a map.", bad.get("visualization_settings").asText());
        assertEquals("nullable value must be an integer greater than zero.", bad.get("cache_ttl").asText());
        assertTrue(bad.get("parameters").asText().contains("parameter must be a map with :id and :type keys"));
        JsonNode noDb = admin.post(400, "card", Map.of("name", "X", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", 424242, "type", "native", "native", Map.of("query", "SELECT 1")))).json();
        assertTrue(noDb.get("errors").has("dataset_query"));
        api.post(401, "card", card("Anon", "SELECT 1", null));
        long id = admin.post(200, "card", card("Counts", "SELECT COUNT(*) FROM ORDERS", null)).json().get("id").asLong();
        JsonNode fetched = admin.get(200, "card/" + id).json();
        assertEquals("Counts", fetched.get("name").asText());
        assertEquals("question", fetched.get("type").asText());
        assertFalse(fetched.get("dataset").asBoolean());
        assertEquals(21, fetched.get("entity_id").asText().length());
        admin.get(404, "card/" + (id + 1000));
        assertTrue(admin.get(200, "database/" + dbId + "/usage_info").json().get("question").asInt() >= 1,
                "cards count towards their database's usage");
    }

    @Test
    void runsWithParameters() {
        long id = admin.post(200, "card", card("By category", "SELECT COUNT(*) FROM ORDERS [[WHERE CATEGORY = {{cat}}]]", null))
                .json().get("id").asLong();
        JsonNode all = admin.post(202, "card/" + id + "/query", Map.of()).json();
        assertEquals("question", all.get("context").asText());
        assertEquals(3, total(all));
        JsonNode gizmos = admin.post(202, "card/" + id + "/query", Map.of("parameters", List.of(Map.of("type", "category",
                "target", List.of("variable", List.of("template-tag", "cat")), "value", "Gizmo")))).json();
        assertEquals(2, total(gizmos));
        assertTrue(admin.get(200, "card/" + id).json().get("view_count").asInt() >= 2, "running a card counts as a view");
    }

    @Test
    void queriesReferToSavedQuestions() {
        long orders = admin.post(200, "card", Map.of("name", "Order lines", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", dbId, "type", "native", "native", Map.of("query", "SELECT CATEGORY, TOTAL FROM ORDERS"))))
                .json().get("id").asLong();
        JsonNode nested = admin.post(202, "dataset", Map.of("database", dbId, "type", "native", "native", Map.of(
                "query", "SELECT COUNT(*) FROM {{#" + orders + "-order-lines}} AS x WHERE x.CATEGORY = 'Gizmo'"))).json();
        assertEquals(2, total(nested));
        JsonNode mbql = admin.post(202, "dataset", Map.of("database", dbId, "type", "query",
                "query", Map.of("source-table", "card__" + orders, "aggregation", List.of(List.of("count"))))).json();
        assertEquals(3, total(mbql));
        JsonNode missing = admin.post(400, "dataset", Map.of("database", dbId, "type", "native", "native", Map.of(
                "query", "SELECT * FROM {{#999999}}"))).json();
        assertEquals("invalid-query", missing.get("error_type").asText());
        assertTrue(missing.get("error").asText().contains("999999"), missing.toString());
    }

    @Test
    void downloadsACardWithItsParameters() {
        long id = admin.post(200, "card", card("Orders by category", "SELECT ID, CATEGORY FROM ORDERS [[WHERE CATEGORY = {{cat}}]] ORDER BY ID",
                null)).json().get("id").asLong();
        String gizmo = "[{\"type\":\"category\",\"target\":[\"variable\",[\"template-tag\",\"cat\"]],\"value\":\"Gizmo\"}]";
        Api.Res form = admin.postForm(200, "card/" + id + "/query/csv", Map.of("parameters", gizmo, "format_rows", "false"));
        assertEquals("ID,CATEGORY\n1,Gizmo\n3,Gizmo\n", form.body());
        assertTrue(form.header("Content-Disposition").contains("orders_by_category"), form.header("Content-Disposition"));
        Api.Res query = admin.postForm(200, "card/" + id + "/query/csv?parameters="
                + java.net.URLEncoder.encode(gizmo, java.nio.charset.StandardCharsets.UTF_8), Map.of());
        assertEquals(form.body(), query.body());
        JsonNode json = admin.post(200, "card/" + id + "/query/json", Map.of()).json();
        assertEquals(3, json.size(), "no parameters: every row");
        assertEquals("Widget", json.get(1).get("CATEGORY").asText());
        JsonNode bad = admin.postForm(400, "card/" + id + "/query/csv", Map.of("parameters", "{nope")).json();
        assertEquals("nullable value must be a valid JSON string.", bad.get("errors").get("parameters").asText());
        api.postForm(401, "card/" + id + "/query/csv", Map.of());
        admin.postForm(404, "card/" + (id + 999) + "/query/csv", Map.of());
    }

    @Test
    void cachedCardsAnswerFromTheSharedCacheUntilAskedNotTo() throws Exception {
        long cachedId = admin.post(200, "card", card("Cached", "SELECT COUNT(*) FROM CUSTOMERS", 1)).json().get("id").asLong();
        long liveId = admin.post(200, "card", card("Live", "SELECT COUNT(*) + 0 FROM CUSTOMERS", null)).json().get("id").asLong();
        JsonNode first = admin.post(202, "card/" + cachedId + "/query", Map.of()).json();
        assertEquals(2, total(first));
        assertFalse(first.has("cached"));
        TargetDatabases.h2Execute(shop, "INSERT INTO CUSTOMERS VALUES (3, 'Hedy', 'hedy@example.com', TIMESTAMP '2024-03-04 12:00:00')");
        JsonNode second = admin.post(202, "card/" + cachedId + "/query", Map.of()).json();
        assertEquals(2, total(second), "answered from the cache");
        assertTrue(second.has("cached"));
        assertEquals(first.get("data").get("cols"), second.get("data").get("cols"));
        assertEquals(3, total(admin.post(202, "card/" + cachedId + "/query", Map.of("ignore_cache", true)).json()));
        assertEquals(3, total(admin.post(202, "card/" + liveId + "/query", Map.of()).json()), "no cache_ttl: always fresh");
        if (TestAppDb.isPostgres()) {
            // a second instance on the same application database uses the same cache
            try (TestServer other = TestServer.startWith(server.config)) {
                Api otherAdmin = other.api().as(Fixtures.login(other.api(), Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD));
                JsonNode there = otherAdmin.post(202, "card/" + cachedId + "/query", Map.of()).json();
                assertTrue(there.has("cached"));
                assertEquals(3, total(there), "the refreshed result, stored by the first instance");
            }
        }
        TargetDatabases.h2Execute(shop, "DELETE FROM CUSTOMERS WHERE ID = 3");
    }
}
