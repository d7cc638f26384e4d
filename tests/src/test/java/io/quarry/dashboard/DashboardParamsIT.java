package io.quarry.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseMapper;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Dashboard filter values (mapped fields over the Sample Database, static lists, card sources, search), their rights
 * (dashboard read, blocked data), the dashcard pivot query against plain SQL, and the result cache / view count of
 * dashcard queries over an H2 shop this test changes.
 */
class DashboardParamsIT {
    private static final List<String> CATEGORIES = List.of("Doohickey", "Gadget", "Gizmo", "Widget");

    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static Path sample;
    private static Path shop;
    private static long dashboardId;
    private static long lockedDashboard;
    private static long pivotCard;
    private static long pivotDashcard;
    private static long shopDashboard;
    private static long cachedCard;
    private static long cachedDashcard;
    private static long cachedPivotCard;
    private static long cachedPivotDashcard;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
        sample = SampleDatabase.ensure(Path.of("target", "mbql-sample").toAbsolutePath());
        long sampleId = addDatabase("Sample Database", "file:" + sample + ";ACCESS_MODE_DATA=r", SampleDatabase.USER, SampleDatabase.PASSWORD);
        shop = TargetDatabases.h2Shop();
        long shopId = addDatabase("Shop", "file:" + shop, TargetDatabases.H2_USER, TargetDatabases.H2_PASSWORD);
        long products = table(sampleId, "PRODUCTS");
        long orders = table(sampleId, "ORDERS");
        long category = field(sampleId, "PRODUCTS", "CATEGORY");
        long productId = field(sampleId, "ORDERS", "PRODUCT_ID");
        long customerName = field(shopId, "CUSTOMERS", "NAME");
        long shopOrders = table(shopId, "ORDERS");
        long shopCategory = field(shopId, "ORDERS", "CATEGORY");

        long mbqlCard = card("Orders (MBQL)", Map.of("database", sampleId, "type", "query", "query", Map.of("source-table", orders,
                "aggregation", List.of(List.of("count")))), null);
        long nativeCard = card("Orders (SQL)", Map.of("database", sampleId, "type", "native", "native", Map.of(
                "query", "SELECT COUNT(*) FROM ORDERS o JOIN PRODUCTS p ON p.ID = o.PRODUCT_ID WHERE {{cat}}",
                "template-tags", Map.of("cat", Map.of("name", "cat", "display-name", "Category", "type", "dimension",
                        "dimension", Arrays.asList("field", category, null), "widget-type", "string/=")))), null);
        long productsCard = card("Products", Map.of("database", sampleId, "type", "query", "query", Map.of("source-table", products)), null);
        long nativeProducts = card("Product categories (SQL)", Map.of("database", sampleId, "type", "native", "native",
                Map.of("query", "SELECT CATEGORY, TITLE FROM PRODUCTS")), null);
        long customersCard = card("Customers", Map.of("database", shopId, "type", "query", "query",
                Map.of("source-table", table(shopId, "CUSTOMERS"))), null);
        pivotCard = card("Products by category", Map.of("database", sampleId, "type", "query", "query", Map.of("source-table", products,
                "aggregation", List.of(List.of("count")), "breakout", List.of(Arrays.asList("field", category, null)))), null);

        List<Map<String, Object>> parameters = List.of(
                Map.of("id", "cat", "name", "Category", "slug", "category", "type", "string/="),
                Map.of("id", "mixed", "name", "Mixed", "slug", "mixed", "type", "string/="),
                Map.of("id", "size", "name", "Size", "slug", "size", "type", "string/=", "values_source_type", "static-list",
                        "values_source_config", Map.of("values", List.of("Small", "Medium", List.of("L", "Large")))),
                Map.of("id", "from-card", "name", "From card", "slug", "from_card", "type", "string/=", "values_source_type", "card",
                        "values_source_config", Map.of("card_id", productsCard, "value_field", Arrays.asList("field", category, null))),
                Map.of("id", "from-sql", "name", "From SQL", "slug", "from_sql", "type", "string/=", "values_source_type", "card",
                        "values_source_config", Map.of("card_id", nativeProducts,
                                "value_field", List.of("field", "CATEGORY", Map.of("base-type", "type/Text")))),
                Map.of("id", "lonely", "name", "Lonely", "slug", "lonely", "type", "string/="));
        dashboardId = admin.post(200, "dashboard", Map.of("name", "Products", "parameters", parameters)).json().get("id").asLong();
        List<Map<String, Object>> dashcards = new ArrayList<>();
        dashcards.add(dashcard(-1, mbqlCard, 0, mapping("cat", mbqlCard, List.of("dimension", List.of("field", category,
                Map.of("source-field", productId))))));
        dashcards.add(dashcard(-2, nativeCard, 4, mapping("cat", nativeCard, List.of("dimension", List.of("template-tag", "cat"))),
                mapping("mixed", nativeCard, List.of("dimension", List.of("template-tag", "cat")))));
        dashcards.add(dashcard(-3, customersCard, 8, mapping("mixed", customersCard, List.of("dimension",
                Arrays.asList("field", customerName, null)))));
        dashcards.add(dashcard(-4, pivotCard, 12, mapping("cat", pivotCard, List.of("dimension", Arrays.asList("field", category, null)))));
        JsonNode saved = admin.put(200, "dashboard/" + dashboardId, Map.of("dashcards", dashcards)).json().get("dashcards");
        pivotDashcard = saved.get(3).get("id").asLong();

        // a dashboard in a collection ordinary users have no rights on
        lockedDashboard = admin.post(200, "dashboard", Map.of("name", "Locked", "collection_id", ContentSql.collection(server, "Locked"),
                "parameters", List.of(Map.of("id", "size", "name", "Size", "slug", "size", "type", "string/=",
                        "values_source_type", "static-list", "values_source_config", Map.of("values", List.of("S")))))).json().get("id").asLong();

        // the shop: cached cards on a dashboard (Root: readable by everyone), and All Users blocked on its data
        cachedCard = card("Shop orders (cached)", Map.of("database", shopId, "type", "query", "query", Map.of("source-table", shopOrders,
                "aggregation", List.of(List.of("count")))), 1);
        cachedPivotCard = card("Shop orders by category (cached)", Map.of("database", shopId, "type", "query", "query", Map.of(
                "source-table", shopOrders, "aggregation", List.of(List.of("count")),
                "breakout", List.of(Arrays.asList("field", shopCategory, null)))), 1);
        shopDashboard = admin.post(200, "dashboard", Map.of("name", "Shop", "parameters",
                List.of(Map.of("id", "shopcat", "name", "Category", "slug", "category", "type", "string/=")))).json().get("id").asLong();
        List<Object> target = List.of("dimension", Arrays.asList("field", shopCategory, null));
        JsonNode shopCards = admin.put(200, "dashboard/" + shopDashboard, Map.of("dashcards", List.of(
                dashcard(-1, cachedCard, 0, mapping("shopcat", cachedCard, target)),
                dashcard(-2, cachedPivotCard, 4, mapping("shopcat", cachedPivotCard, target))))).json().get("dashcards");
        cachedDashcard = shopCards.get(0).get("id").asLong();
        cachedPivotDashcard = shopCards.get(1).get("id").asLong();
        long revision = admin.get(200, "permissions/graph").json().get("revision").asLong();
        admin.put(200, "permissions/graph", Map.of("revision", revision, "groups",
                Map.of("1", Map.of(String.valueOf(shopId), Map.of("view-data", "blocked")))));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long addDatabase(String name, String file, String userName, String password) throws Exception {
        long id = admin.post(200, "database", Map.of("engine", "h2", "name", name, "details",
                Map.of("db", file, "user", userName, "password", password))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(id).get();
        return id;
    }

    private static long table(long dbId, String name) {
        List<Table> tables = server.quarry().db.with(WarehouseMapper.class, m -> m.listTables(dbId, true));
        return tables.stream().filter(t -> t.name.equalsIgnoreCase(name)).findFirst().orElseThrow().id;
    }

    private static long field(long dbId, String table, String name) {
        long tableId = table(dbId, table);
        List<Field> fields = server.quarry().db.with(WarehouseMapper.class, m -> m.listFieldsOfDatabase(dbId));
        return fields.stream().filter(f -> f.tableId == tableId && f.name.equalsIgnoreCase(name)).findFirst().orElseThrow().id;
    }

    private static long card(String name, Map<String, Object> query, Integer cacheTtl) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("display", "table");
        body.put("visualization_settings", Map.of());
        body.put("dataset_query", query);
        if (cacheTtl != null) {
            body.put("cache_ttl", cacheTtl);
        }
        return admin.post(200, "card", body).json().get("id").asLong();
    }

    private static Map<String, Object> mapping(String parameterId, long cardId, List<Object> target) {
        return Map.of("parameter_id", parameterId, "card_id", cardId, "target", target);
    }

    @SafeVarargs
    private static Map<String, Object> dashcard(long id, long cardId, int col, Map<String, Object>... mappings) {
        Map<String, Object> dc = new LinkedHashMap<>();
        dc.put("id", id);
        dc.put("card_id", cardId);
        dc.put("row", 0);
        dc.put("col", col);
        dc.put("size_x", 4);
        dc.put("size_y", 4);
        dc.put("parameter_mappings", List.of(mappings));
        return dc;
    }

    private static List<String> firsts(JsonNode result) {
        List<String> out = new ArrayList<>();
        for (JsonNode pair : result.get("values")) {
            out.add(pair.get(0).asText());
        }
        return out;
    }

    private static String values(long dashboard, String key) {
        return "dashboard/" + dashboard + "/params/" + key + "/values";
    }

    private static String search(long dashboard, String key, String query) {
        return "dashboard/" + dashboard + "/params/" + key + "/search/" + query;
    }

    // --- values ----------------------------------------------------------------------------------------------------

    @Test
    void aFilterMappedToAFieldAndAFieldFilterListsTheFieldsValues() {
        JsonNode result = admin.get(200, values(dashboardId, "cat")).json();
        assertEquals(CATEGORIES, firsts(result));
        assertFalse(result.get("has_more_values").asBoolean());
        for (JsonNode pair : result.get("values")) {
            assertEquals(1, pair.size(), "[value] pairs");
        }
        // an ordinary user reading the dashboard gets the same (Sample data is not blocked for them)
        assertEquals(CATEGORIES, firsts(user.get(200, values(dashboardId, "cat")).json()));
        // linked-filter constraints are accepted and ignored
        assertEquals(CATEGORIES, firsts(admin.get(200, values(dashboardId, "cat"), "mixed", "Ada").json()));
    }

    @Test
    void searchKeepsValuesContainingTheTextCaseInsensitively() {
        assertEquals(List.of("Gizmo"), firsts(admin.get(200, search(dashboardId, "cat", "gi")).json()));
        assertEquals(List.of("Gadget", "Widget"), firsts(admin.get(200, search(dashboardId, "cat", "GET")).json()));
        assertEquals(List.of(), firsts(admin.get(200, search(dashboardId, "cat", "zzz")).json()));
    }

    @Test
    void aFilterOnFieldsOfTwoDatabasesAnswersTheUnion() {
        JsonNode result = admin.get(200, values(dashboardId, "mixed")).json();
        assertEquals(List.of("Ada", "Doohickey", "Gadget", "Gizmo", "Grace", "Widget"), firsts(result));
        assertEquals(List.of("Ada", "Gadget"), firsts(admin.get(200, search(dashboardId, "mixed", "ad")).json()));
    }

    @Test
    void staticListsAnswerTheirList() {
        JsonNode result = admin.get(200, values(dashboardId, "size")).json();
        assertEquals("[[\"Small\"],[\"Medium\"],[\"L\",\"Large\"]]", result.get("values").toString());
        assertFalse(result.get("has_more_values").asBoolean());
        assertEquals("[[\"L\",\"Large\"]]", admin.get(200, search(dashboardId, "size", "larg")).json().get("values").toString());
        assertEquals("[[\"Medium\"]]", user.get(200, search(dashboardId, "size", "med")).json().get("values").toString());
    }

    @Test
    void cardSourcesAnswerTheDistinctValuesOfTheCardsColumn() {
        assertEquals(CATEGORIES, firsts(admin.get(200, values(dashboardId, "from-card")).json()));
        assertEquals(List.of("Gizmo"), firsts(admin.get(200, search(dashboardId, "from-card", "gi")).json()));
        JsonNode fromSql = admin.get(200, values(dashboardId, "from-sql")).json();
        assertEquals(CATEGORIES, firsts(fromSql));
        assertFalse(fromSql.get("has_more_values").asBoolean());
        assertEquals(List.of("Widget"), firsts(user.get(200, search(dashboardId, "from-sql", "wid")).json()));
    }

    @Test
    void unknownKeysAndUnmappedFiltersAre400() {
        assertEquals("Dashboard does not have a parameter with the ID \"nope\"", admin.get(400, values(dashboardId, "nope")).body());
        assertEquals("Dashboard does not have a parameter with the ID \"nope\"", admin.get(400, search(dashboardId, "nope", "x")).body());
        assertEquals("Parameter \"lonely\" does not have any Fields associated with it", admin.get(400, values(dashboardId, "lonely")).body());
        admin.get(404, values(99999999, "cat"));
        assertTrue(admin.get(400, "dashboard/0/params/cat/values").body().contains("id"));
    }

    @Test
    void rights() {
        assertEquals("Unauthenticated", anonymous.get(401, values(dashboardId, "cat")).body());
        anonymous.get(401, search(dashboardId, "cat", "gi"));
        // no read on the dashboard's collection
        assertEquals("You don't have permissions to do that.", user.get(403, values(lockedDashboard, "size")).body());
        user.get(403, search(lockedDashboard, "size", "s"));
        assertEquals(List.of("S"), firsts(admin.get(200, values(lockedDashboard, "size")).json()));
        // data blocked on the shop: no values of its fields leak (cached ones included), searches neither
        assertEquals("You don't have permissions to do that.", user.get(403, values(dashboardId, "mixed")).body());
        user.get(403, search(dashboardId, "mixed", "ada"));
        user.get(403, values(shopDashboard, "shopcat"));
        assertEquals(List.of("Gizmo", "Widget"), firsts(admin.get(200, values(shopDashboard, "shopcat")).json()));
    }

    // --- pivot --------------------------------------------------------------------------------------------------------

    private static long productCount(String category) throws Exception {
        try (Connection c = SampleDatabase.connect(sample);
             PreparedStatement s = c.prepareStatement(category == null ? "SELECT COUNT(*) FROM PUBLIC.PRODUCTS"
                     : "SELECT COUNT(*) FROM PUBLIC.PRODUCTS WHERE CATEGORY = ?")) {
            if (category != null) {
                s.setString(1, category);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Test
    void pivotDashcardQueryAddsTheGrandTotalOfTheFilteredRows() throws Exception {
        String path = "dashboard/pivot/" + dashboardId + "/dashcard/" + pivotDashcard + "/card/" + pivotCard + "/query";
        JsonNode result = admin.post(202, path, Map.of("parameters",
                List.of(Map.of("id", "cat", "type", "string/=", "value", List.of("Gizmo", "Widget"))))).json();
        assertEquals("completed", result.get("status").asText());
        assertEquals("dashboard", result.get("context").asText());
        List<String> cols = new ArrayList<>();
        result.get("data").get("cols").forEach(c -> cols.add(c.get("name").asText()));
        assertEquals(List.of("CATEGORY", "pivot-grouping", "count"), cols);
        JsonNode rows = result.get("data").get("rows");
        assertEquals(3, rows.size(), rows.toString());
        Map<String, Long> byCategory = new LinkedHashMap<>();
        long total = -1;
        for (JsonNode row : rows) {
            if (row.get(1).asInt() == 0) {
                byCategory.put(row.get(0).asText(), row.get(2).asLong());
            } else {
                assertEquals(1, row.get(1).asInt());
                assertTrue(row.get(0).isNull());
                total = row.get(2).asLong();
            }
        }
        assertEquals(Map.of("Gizmo", productCount("Gizmo"), "Widget", productCount("Widget")), byCategory);
        assertEquals(productCount("Gizmo") + productCount("Widget"), total);
        // no filter value: every category, grand total = all products
        JsonNode all = admin.post(202, path, Map.of()).json().get("data").get("rows");
        assertEquals(5, all.size());
        assertEquals(productCount(null), all.get(4).get(2).asLong());
        assertEquals(productCount(null), user.post(202, path, Map.of()).json().get("data").get("rows").get(4).get(2).asLong());
        // bad input, rights, unknown ids
        JsonNode bad = admin.post(400, path, Map.of("parameters", List.of(Map.of("value", 1)))).json();
        assertEquals("nullable sequence of value must be a parameter map with an 'id' key", bad.get("errors").get("parameters").asText());
        anonymous.post(401, path, Map.of());
        admin.post(404, "dashboard/pivot/" + dashboardId + "/dashcard/" + pivotDashcard + "/card/" + cachedCard + "/query", Map.of());
        admin.post(404, "dashboard/pivot/99999999/dashcard/" + pivotDashcard + "/card/" + pivotCard + "/query", Map.of());
        // the plain dashcard query of the same card
        JsonNode shop = admin.post(202, "dashboard/" + dashboardId + "/dashcard/" + pivotDashcard + "/card/" + pivotCard + "/query",
                Map.of()).json();
        assertEquals(4, shop.get("data").get("rows").size(), "the plain dashcard query has no subtotals");
    }

    // --- cache and view count ------------------------------------------------------------------------------------------

    private static long count(JsonNode result) {
        return result.get("data").get("rows").get(0).get(0).asLong();
    }

    @Test
    void cachedCardsDashcardQueriesAnswerFromTheCacheAndCountViews() throws Exception {
        String path = "dashboard/" + shopDashboard + "/dashcard/" + cachedDashcard + "/card/" + cachedCard + "/query";
        String pivot = "dashboard/pivot/" + shopDashboard + "/dashcard/" + cachedPivotDashcard + "/card/" + cachedPivotCard + "/query";
        Map<String, Object> gizmo = Map.of("parameters", List.of(Map.of("id", "shopcat", "type", "string/=", "value", "Gizmo")));
        long views = views(cachedCard);
        JsonNode first = admin.post(202, path, gizmo).json();
        assertEquals(2, count(first));
        assertFalse(first.has("cached"));
        JsonNode firstPivot = admin.post(202, pivot, gizmo).json();
        assertEquals("[[\"Gizmo\",0,2],[null,1,2]]", firstPivot.get("data").get("rows").toString());
        assertEquals(views + 1, views(cachedCard));
        assertTrue(AppDbSql.value(server, "SELECT last_used_at FROM report_card WHERE id = ?", cachedPivotCard) != null);
        TargetDatabases.h2Execute(shop, "INSERT INTO ORDERS VALUES (4, 2, 3.0, 'Gizmo')");
        try {
            JsonNode second = admin.post(202, path, gizmo).json();
            assertEquals(2, count(second), "answered from the cache");
            assertTrue(second.has("cached"));
            assertEquals(first.get("data").get("cols"), second.get("data").get("cols"));
            JsonNode secondPivot = admin.post(202, pivot, gizmo).json();
            assertTrue(secondPivot.has("cached"));
            assertEquals(firstPivot.get("data").get("rows"), secondPivot.get("data").get("rows"));
            assertEquals(views + 2, views(cachedCard),
                    "a cached answer is a view too");
            // another filter value is another query: fresh
            JsonNode widget = admin.post(202, path, Map.of("parameters",
                    List.of(Map.of("id", "shopcat", "type", "string/=", "value", "Widget")))).json();
            assertFalse(widget.has("cached"));
            assertEquals(1, count(widget));
            // ignore_cache runs it again, and stores the fresh result for the next caller
            assertEquals(3, count(admin.post(202, path, Map.of("parameters", gizmo.get("parameters"), "ignore_cache", true)).json()));
            assertEquals(3, count(admin.post(202, path, gizmo).json()));
            assertEquals("[[\"Gizmo\",0,3],[null,1,3]]", admin.post(202, pivot, Map.of("parameters", gizmo.get("parameters"),
                    "ignore_cache", true)).json().get("data").get("rows").toString());
            // the CSV export counts a view too
            long before = views(cachedCard);
            admin.post(200, path + "/csv", gizmo);
            assertEquals(before + 1, views(cachedCard));
        } finally {
            TargetDatabases.h2Execute(shop, "DELETE FROM ORDERS WHERE ID = 4");
        }
    }

    /** The card's stored view count, once the views counted so far are written (they are written in batches). */
    private long views(long card) {
        server.quarry().cards.flushUsage();
        return AppDbSql.count(server, "SELECT view_count FROM report_card WHERE id = ?", card);
    }
}
