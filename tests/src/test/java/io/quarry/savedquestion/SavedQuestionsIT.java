package io.quarry.savedquestion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.dashboard.ContentSql;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseMapper;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The "Saved Questions" virtual database (-1337) built from real cards over the Sample Database, filtered per caller by
 * collection rights and data permissions, queried through {@code card__N}, and card autocomplete for {@code {{#...}}}.
 */
class SavedQuestionsIT {
    private static final String ROOT = "Everything else";
    private static final String ROOT_PATH = "Everything%20else";
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static Path sample;
    private static long sampleId;
    private static long shopId;
    private static long ordersTable;
    private static long finance;
    private static long byCategory;
    private static long secret;
    private static long model;
    private static long shopCard;
    private static long archived;
    private static long noMetadata;
    private static long cumulative;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
        sample = SampleDatabase.ensure(Path.of("target", "saved-sample").toAbsolutePath());
        sampleId = admin.post(200, "database", Map.of("engine", "h2", "name", "Sample Database", "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password", SampleDatabase.PASSWORD)))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(sampleId).get();
        shopId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(shopId).get();
        List<Table> tables = server.quarry().db.with(WarehouseMapper.class, m -> m.listTables(sampleId, true));
        ordersTable = tables.stream().filter(t -> t.name.equalsIgnoreCase("ORDERS")).findFirst().orElseThrow().id;

        // before any card exists nobody sees the virtual database
        JsonNode none = user.get(200, "database", "saved", "true").json();
        assertEquals(2, none.get("total").asInt());
        assertFalse(none.get("data").toString().contains("-1337"));
        assertFalse(admin.get(200, "database", "saved", "true").json().get("data").toString().contains("-1337"));

        finance = ContentSql.collection(server, "Finance"); // no grant: ordinary users cannot read it
        byCategory = card("Products per category", null, "question", nativeQuery(sampleId,
                        "SELECT CATEGORY, COUNT(*) AS N FROM PRODUCTS GROUP BY CATEGORY"),
                List.of(column("CATEGORY", "Category", "type/Text"), column("N", "N", "type/BigInteger")));
        secret = card("Secret revenue", finance, "question", Map.of("database", sampleId, "type", "query", "query",
                        Map.of("source-table", ordersTable, "aggregation", List.of(List.of("count")))),
                List.of(column("count", "Count", "type/BigInteger")));
        model = card("Order model", null, "model", Map.of("database", sampleId, "type", "query", "query",
                Map.of("source-table", ordersTable)), List.of(column("ID", "ID", "type/BigInteger")));
        shopCard = card("Shop orders", null, "question", nativeQuery(shopId, "SELECT 1 AS ONE"),
                List.of(column("ONE", "One", "type/Integer")));
        archived = card("Archived revenue", null, "question", nativeQuery(sampleId, "SELECT 1 AS ONE"),
                List.of(column("ONE", "One", "type/Integer")));
        ContentSql.execute(server, "UPDATE report_card SET archived = TRUE, archived_directly = TRUE WHERE id = " + archived);
        noMetadata = card("Unsaved metadata", null, "question", nativeQuery(sampleId, "SELECT 1 AS ONE"), null);
        ContentSql.execute(server, "UPDATE report_card SET result_metadata = NULL WHERE id = " + noMetadata);
        cumulative = card("Cumulative orders", null, "question", Map.of("database", sampleId, "type", "query", "query",
                        Map.of("source-table", ordersTable, "aggregation", List.of(List.of("cum-count")))),
                List.of(column("count", "Count", "type/BigInteger")));
        // the ordinary user may not build queries on the shop
        ContentSql.execute(server, "UPDATE data_permission SET perm_value = 'no' WHERE group_id = 1 AND db_id = " + shopId
                + " AND perm_type = 'perms/create-queries'");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> nativeQuery(long db, String sql) {
        return Map.of("database", db, "type", "native", "native", Map.of("query", sql));
    }

    private static Map<String, Object> column(String name, String displayName, String baseType) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("name", name);
        c.put("display_name", displayName);
        c.put("base_type", baseType);
        return c;
    }

    private static long card(String name, Long collectionId, String type, Map<String, Object> query, List<Map<String, Object>> metadata) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("display", "table");
        body.put("type", type);
        body.put("dataset_query", query);
        body.put("visualization_settings", Map.of());
        body.put("collection_id", collectionId);
        if (metadata != null) {
            body.put("result_metadata", metadata);
        }
        return admin.post(200, "card", body).json().get("id").asLong();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<String> ids(JsonNode tables) {
        List<String> out = new ArrayList<>();
        tables.forEach(t -> out.add(t.get("id").asText()));
        return out;
    }

    private static String table(long cardId) {
        return "card__" + cardId;
    }

    @Test
    void databaseListAddsTheVirtualDatabaseWhenTheCallerHasSourceCards() {
        JsonNode list = user.get(200, "database", "saved", "true", "include", "tables").json();
        List<Long> listed = idsOf(list.get("data"));
        assertEquals(List.of(sampleId, -1337L), listed, "the shop is not queryable for the user; the virtual database comes last");
        assertEquals(2, list.get("total").asInt());
        JsonNode virtual = list.get("data").get(1);
        assertEquals(-1337, virtual.get("id").asInt());
        assertEquals("Saved Questions", virtual.get("name").asText());
        assertTrue(virtual.get("is_saved_questions").asBoolean());
        assertEquals(List.of(table(byCategory)), ids(virtual.get("tables")), "only readable questions of queryable databases");

        JsonNode plain = admin.get(200, "database", "saved", "true").json();
        JsonNode adminVirtual = plain.get("data").get(plain.get("data").size() - 1);
        assertEquals(-1337, adminVirtual.get("id").asInt());
        assertFalse(adminVirtual.has("tables"));
        assertFalse(user.get(200, "database").json().get("data").toString().contains("-1337"), "only with saved=true");
    }

    @Test
    void schemasAndTheirTablesPerCaller() {
        assertEquals(List.of(ROOT, "Finance"), strings(admin.get(200, "database/-1337/schemas").json()));
        assertEquals(List.of(ROOT), strings(user.get(200, "database/-1337/schemas").json()));

        JsonNode adminRoot = admin.get(200, "database/-1337/schema/" + ROOT_PATH).json();
        assertEquals(List.of(table(byCategory), table(shopCard)), ids(adminRoot),
                "questions by name; archived, metadata-less, cumulative cards and models are left out");
        JsonNode first = adminRoot.get(0);
        assertEquals(sampleId, first.get("db_id").asLong());
        assertEquals("Products per category", first.get("display_name").asText());
        assertEquals(ROOT, first.get("schema").asText());
        assertEquals("question", first.get("type").asText());
        assertEquals(List.of(table(byCategory)), ids(user.get(200, "database/-1337/schema/" + ROOT_PATH).json()),
                "the shop card needs query rights on the shop");

        JsonNode financeTables = admin.get(200, "database/-1337/schema/Finance").json();
        assertEquals(List.of(table(secret)), ids(financeTables));
        assertEquals("Finance", financeTables.get(0).get("schema").asText());
        assertEquals(0, user.get(200, "database/-1337/schema/Finance").json().size(), "Finance is not readable");
        assertEquals("Not found.", user.get(404, "database/-1337/schema/Nowhere").body());

        assertEquals(List.of(ROOT), strings(admin.get(200, "database/-1337/datasets").json()));
        assertEquals(List.of(table(model)), ids(admin.get(200, "database/-1337/datasets/" + ROOT_PATH).json()));
        assertEquals(List.of(table(model)), ids(user.get(200, "database/-1337/datasets/" + ROOT_PATH).json()));
        assertEquals(0, admin.get(200, "database/-1337/datasets/Finance").json().size());
    }

    @Test
    void metadataCarriesFieldsFromResultMetadata() {
        JsonNode adminTables = admin.get(200, "database/-1337/metadata").json().get("tables");
        assertEquals(List.of(table(byCategory), table(secret), table(shopCard)), ids(adminTables));
        JsonNode userMeta = user.get(200, "database/-1337/metadata").json();
        assertEquals(-1337, userMeta.get("id").asInt());
        JsonNode fields = userMeta.get("tables").get(0).get("fields");
        assertEquals(1, userMeta.get("tables").size());
        assertEquals(2, fields.size());
        assertEquals("CATEGORY", fields.get(0).get("name").asText());
        assertEquals("type/Text", fields.get(0).get("base_type").asText());
        assertEquals(table(byCategory), fields.get(0).get("table_id").asText());
        assertEquals("field", fields.get(1).get("id").get(0).asText());
        assertEquals("N", fields.get(1).get("id").get(1).asText());
        assertEquals("type/BigInteger", fields.get(1).get("id").get(2).get("base-type").asText());
    }

    @Test
    void aQueryOverASavedQuestionGivesRealNumbers() throws Exception {
        long categories;
        long products;
        try (Connection c = SampleDatabase.connect(sample); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(DISTINCT CATEGORY), COUNT(*) FROM PRODUCTS")) {
            rs.next();
            categories = rs.getLong(1);
            products = rs.getLong(2);
        }
        Map<String, Object> query = Map.of("database", sampleId, "type", "query", "query", Map.of(
                "source-table", table(byCategory),
                "aggregation", List.of(List.of("count"), List.of("sum", List.of("field", "N", Map.of("base-type", "type/BigInteger"))))));
        Map<String, Object> onVirtual = new LinkedHashMap<>(query);
        onVirtual.put("database", -1337);
        for (Api caller : List.of(admin, user)) {
            for (Map<String, Object> q : List.of(query, onVirtual)) {
                JsonNode row = caller.post(202, "dataset", q).json().get("data").get("rows").get(0);
                assertEquals(categories, row.get(0).asLong());
                assertEquals(products, row.get(1).asLong());
            }
        }
        // the virtual database resolves through the card: the shop card is the shop's, which the user may not query
        Map<String, Object> onShop = Map.of("database", -1337, "type", "query", "query", Map.of("source-table", table(shopCard)));
        assertEquals(1, admin.post(202, "dataset", onShop).json().get("data").get("rows").get(0).get(0).asInt());
        JsonNode denied = user.post(403, "dataset", onShop).json();
        assertEquals("You do not have permissions to run this query.", denied.get("error").asText());
    }

    @Test
    void cardAutocompleteFindsByNameAndIdAndHidesUnreadableCards() {
        String path = "database/" + sampleId + "/card_autocomplete_suggestions";
        JsonNode adminHits = admin.get(200, path, "query", "revenue").json();
        assertEquals(List.of(secret), idsOf(adminHits), "archived cards are not suggested");
        JsonNode hit = adminHits.get(0);
        assertEquals("Secret revenue", hit.get("name").asText());
        assertEquals("question", hit.get("type").asText());
        assertEquals("Finance", hit.get("collection_name").asText());
        assertEquals(4, hit.size(), "id, name, type, collection_name");
        assertEquals(0, user.get(200, path, "query", "revenue").json().size(), "Finance is not readable");

        // models first, then newest first; a slug's hyphens stand for spaces
        assertEquals(List.of(model, cumulative, byCategory), idsOf(user.get(200, path, "query", "or").json()));
        JsonNode bySlug = user.get(200, path, "query", "per-category").json();
        assertEquals(List.of(byCategory), idsOf(bySlug));
        assertTrue(bySlug.get(0).get("collection_name").isNull());
        assertEquals(List.of(byCategory), idsOf(user.get(200, path, "query", byCategory + "-products-per").json()));
        assertEquals(0, user.get(200, path, "query", byCategory + "-per").json().size(), "name after an id matches as a prefix");
        assertTrue(idsOf(user.get(200, path, "query", String.valueOf(byCategory)).json()).contains(byCategory), "id prefix");
        assertEquals(0, user.get(200, path, "query", "%").json().size(), "LIKE wildcards are literal");
        assertEquals(List.of(shopCard), idsOf(admin.get(200, "database/" + shopId + "/card_autocomplete_suggestions",
                "query", "shop").json()), "cards of that database only");
    }

    private static List<Long> idsOf(JsonNode array) {
        List<Long> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get("id").asLong()));
        return out;
    }

    @Test
    void anonymousCallersAreTurnedAway() {
        for (String path : List.of("database/-1337/metadata", "database/-1337/schemas", "database/-1337/datasets",
                "database/-1337/schema/" + ROOT_PATH, "database/-1337/datasets/" + ROOT_PATH)) {
            assertEquals("Unauthenticated", anonymous.get(401, path).body(), path);
        }
        assertEquals("Unauthenticated", anonymous.get(401, "database", "saved", "true").body());
        assertEquals("Unauthenticated", anonymous.get(401, "database/" + sampleId + "/card_autocomplete_suggestions", "query", "x").body());
    }
}
