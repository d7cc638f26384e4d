package io.quarry.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseMapper;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Running dashcards: one dashboard filter mapped onto a native card's template tag and onto an MBQL card's field over
 * the Sample Database, checked against the numbers plain SQL gives.
 */
class DashboardQueryIT {
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static Path sample;
    private static long dashboardId;
    private static long nativeCard;
    private static long mbqlCard;
    private static long nativeDashcard;
    private static long mbqlDashcard;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
        sample = SampleDatabase.ensure(Path.of("target", "mbql-sample").toAbsolutePath());
        long sampleId = admin.post(200, "database", Map.of("engine", "h2", "name", "Sample Database", "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password", SampleDatabase.PASSWORD)))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(sampleId).get();
        List<Table> tables = server.quarry().db.with(WarehouseMapper.class, m -> m.listTables(sampleId, true));
        List<Field> fields = server.quarry().db.with(WarehouseMapper.class, m -> m.listFieldsOfDatabase(sampleId));
        long orders = tables.stream().filter(t -> t.name.equalsIgnoreCase("ORDERS")).findFirst().orElseThrow().id;
        long products = tables.stream().filter(t -> t.name.equalsIgnoreCase("PRODUCTS")).findFirst().orElseThrow().id;
        long category = fields.stream().filter(f -> f.tableId == products && f.name.equalsIgnoreCase("CATEGORY")).findFirst().orElseThrow().id;
        long productId = fields.stream().filter(f -> f.tableId == orders && f.name.equalsIgnoreCase("PRODUCT_ID")).findFirst().orElseThrow().id;

        nativeCard = admin.post(200, "card", Map.of("name", "Orders by category (SQL)", "display", "scalar", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", sampleId, "type", "native", "native", Map.of(
                        "query", "SELECT COUNT(*) FROM ORDERS o JOIN PRODUCTS p ON p.ID = o.PRODUCT_ID [[WHERE p.CATEGORY = {{category}}]]",
                        "template-tags", Map.of("category", Map.of("name", "category", "display-name", "Category", "type", "text"))))))
                .json().get("id").asLong();
        mbqlCard = admin.post(200, "card", Map.of("name", "Orders (MBQL)", "display", "scalar", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", sampleId, "type", "query", "query", Map.of("source-table", orders,
                        "aggregation", List.of(List.of("count"))))))
                .json().get("id").asLong();
        dashboardId = admin.post(200, "dashboard", Map.of("name", "Orders", "parameters",
                List.of(Map.of("id", "cat", "name", "Category", "slug", "category", "type", "category")))).json().get("id").asLong();
        Map<String, Object> onNative = dashcard(-1, nativeCard, 0);
        onNative.put("parameter_mappings", List.of(Map.of("parameter_id", "cat", "card_id", nativeCard,
                "target", List.of("variable", List.of("template-tag", "category")))));
        Map<String, Object> onMbql = dashcard(-2, mbqlCard, 4);
        onMbql.put("parameter_mappings", List.of(Map.of("parameter_id", "cat", "card_id", mbqlCard,
                "target", List.of("dimension", List.of("field", category, Map.of("source-field", productId))))));
        JsonNode dashcards = admin.put(200, "dashboard/" + dashboardId, Map.of("dashcards", List.of(onNative, onMbql))).json().get("dashcards");
        nativeDashcard = dashcards.get(0).get("id").asLong();
        mbqlDashcard = dashcards.get(1).get("id").asLong();
        assertTrue(admin.get(200, "dashboard/" + dashboardId).json().get("param_fields").has(String.valueOf(category)),
                "param_fields names the mapped field");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> dashcard(long id, long cardId, int col) {
        Map<String, Object> dc = new LinkedHashMap<>();
        dc.put("id", id);
        dc.put("card_id", cardId);
        dc.put("row", 0);
        dc.put("col", col);
        dc.put("size_x", 4);
        dc.put("size_y", 4);
        return dc;
    }

    private static long reference(String category) throws Exception {
        try (Connection c = SampleDatabase.connect(sample);
             PreparedStatement s = c.prepareStatement(category == null ? "SELECT COUNT(*) FROM PUBLIC.ORDERS"
                     : "SELECT COUNT(*) FROM PUBLIC.ORDERS o JOIN PUBLIC.PRODUCTS p ON p.ID = o.PRODUCT_ID WHERE p.CATEGORY = ?")) {
            if (category != null) {
                s.setString(1, category);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static String path(long dashcard, long card) {
        return "dashboard/" + dashboardId + "/dashcard/" + dashcard + "/card/" + card + "/query";
    }

    private static long count(JsonNode result) {
        return result.get("data").get("rows").get(0).get(0).asLong();
    }

    @Test
    void oneFilterFiltersBothCardsAsPlainSqlDoes() throws Exception {
        Map<String, Object> gizmo = Map.of("parameters", List.of(Map.of("id", "cat", "type", "category", "value", "Gizmo")));
        JsonNode nativeResult = admin.post(202, path(nativeDashcard, nativeCard), gizmo).json();
        assertEquals("completed", nativeResult.get("status").asText());
        assertEquals("dashboard", nativeResult.get("context").asText());
        assertEquals(reference("Gizmo"), count(nativeResult));
        JsonNode mbqlResult = admin.post(202, path(mbqlDashcard, mbqlCard), gizmo).json();
        assertEquals(reference("Gizmo"), count(mbqlResult));
        Map<String, Object> widget = Map.of("parameters", List.of(Map.of("id", "cat", "value", List.of("Widget"))));
        assertEquals(reference("Widget"), count(admin.post(202, path(mbqlDashcard, mbqlCard), widget).json()));
        // no values: every order
        assertEquals(reference(null), count(admin.post(202, path(nativeDashcard, nativeCard), Map.of()).json()));
        assertEquals(reference(null), count(admin.post(202, path(mbqlDashcard, mbqlCard), Map.of("parameters", List.of())).json()));
        assertTrue(reference("Gizmo") < reference(null), "the filter really filters");
        // an ordinary user may run them too (Root collection is readable by All Users)
        assertEquals(reference("Gizmo"), count(user.post(202, path(mbqlDashcard, mbqlCard), gizmo).json()));
        // as a CSV download, with the parameters as a JSON string
        String csv = admin.post(200, path(mbqlDashcard, mbqlCard) + "/csv", Map.of("parameters",
                "[{\"id\":\"cat\",\"value\":\"Gizmo\"}]")).body();
        assertEquals(String.valueOf(reference("Gizmo")), csv.split("\n")[1].trim());
    }

    @Test
    void wrongDashcardOrCardIsNotFoundAndBadParametersAre400() {
        admin.post(404, path(nativeDashcard, mbqlCard), Map.of());
        admin.post(404, path(mbqlDashcard + 1000, mbqlCard), Map.of());
        admin.post(404, "dashboard/" + (dashboardId + 1000) + "/dashcard/" + mbqlDashcard + "/card/" + mbqlCard + "/query", Map.of());
        admin.post(400, "dashboard/" + dashboardId + "/dashcard/x/card/" + mbqlCard + "/query", Map.of());
        anonymous.post(401, path(mbqlDashcard, mbqlCard), Map.of());
        JsonNode unknown = admin.post(400, path(mbqlDashcard, mbqlCard), Map.of("parameters", List.of(Map.of("id", "nope", "value", 1)))).json();
        assertEquals("Dashboard does not have a parameter with ID \"nope\".", unknown.get("message").asText());
        JsonNode noId = admin.post(400, path(mbqlDashcard, mbqlCard), Map.of("parameters", List.of(Map.of("value", 1)))).json();
        assertEquals("nullable sequence of value must be a parameter map with an 'id' key", noId.get("errors").get("parameters").asText());
    }

    @Test
    void cardsInCollectionsTheCallerCannotReadAreForbidden() {
        long locked = ContentSql.collection(server, "Locked queries");
        long dashboard = admin.post(200, "dashboard", Map.of("name", "Mixed")).json().get("id").asLong();
        long hiddenCard = admin.post(200, "card", Map.of("name", "Hidden", "display", "table", "visualization_settings", Map.of(),
                "collection_id", locked, "dataset_query", Map.of("database", admin.get(200, "card/" + mbqlCard).json().get("database_id").asLong(),
                        "type", "native", "native", Map.of("query", "SELECT 1")))).json().get("id").asLong();
        long dc = admin.put(200, "dashboard/" + dashboard, Map.of("dashcards", List.of(dashcard(-1, hiddenCard, 0)))).json()
                .get("dashcards").get(0).get("id").asLong();
        String path = "dashboard/" + dashboard + "/dashcard/" + dc + "/card/" + hiddenCard + "/query";
        assertEquals("You don't have permissions to do that.", user.post(403, path, Map.of()).body());
        JsonNode seen = user.get(200, "dashboard/" + dashboard).json().get("dashcards").get(0).get("card");
        assertEquals(1, seen.size(), "an unreadable card shows only its id: " + seen);
        assertEquals(hiddenCard, seen.get("id").asLong());
        admin.post(202, path, Map.of());
    }
}
