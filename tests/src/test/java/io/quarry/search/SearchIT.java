package io.quarry.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GET /api/search: ranking, every filter, paging, and permission filtering (content by collection, data by graph). */
class SearchIT {
    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    private static TestServer server;
    private static Api api;
    private static Api admin;
    private static Api user;
    private static long userId;
    private static long shop;
    private static long secret;
    private static long sales;
    private static long salesSub;
    private static long hidden;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(Map.of());
        api = server.api();
        admin = api.as(Fixtures.setUp(api));
        long adminId = admin.get(200, "user/current").json().get("id").asLong();
        admin.post(200, "user", Map.of("email", "searcher@example.com", "first_name", "Sea", "last_name", "Rcher",
                "password", "Sunny-day-77"));
        user = api.as(Fixtures.login(api, "searcher@example.com", "Sunny-day-77"));
        userId = user.get(200, "user/current").json().get("id").asLong();
        shop = addDatabase("Shop");
        secret = addDatabase("Secret");
        // All Users may not see the Secret database at all
        long revision = admin.get(200, "permissions/graph").json().get("revision").asLong();
        admin.put(200, "permissions/graph", Map.of("revision", revision,
                "groups", Map.of("1", Map.of(String.valueOf(secret), Map.of("view-data", "blocked")))));

        sales = insert("INSERT INTO collection (name, slug, location, created_at) VALUES ('Sales', 'sales', '/', ?)", T0);
        salesSub = insert("INSERT INTO collection (name, slug, location, created_at) VALUES ('Sales sub', 'sales_sub', ?, ?)",
                "/" + sales + "/", T0);
        hidden = insert("INSERT INTO collection (name, slug, location, created_at) VALUES ('Hidden orders', 'hidden', '/', ?)", T0);
        // the admin's personal collection (made for every user as it is first needed)
        long personal = admin.get(200, "user/current").json().get("personal_collection_id").asLong();
        insert("INSERT INTO collection_permission (group_id, collection_id, perm) VALUES (1, ?, 'read')", sales);
        insert("INSERT INTO collection_permission (group_id, collection_id, perm) VALUES (1, ?, 'write')", salesSub);

        card("Orders", null, "question", false, 1, adminId);
        card("Orders by month", sales, "question", false, 2, adminId);
        card("Orders secret", hidden, "question", false, 3, adminId);
        card("Monthly orders", salesSub, "question", false, 4, userId);
        card("Reorders", null, "question", false, 5, adminId);
        card("Orders model", sales, "model", false, 6, adminId);
        card("Orders archived", null, "question", true, 7, adminId);
        card("Orders personal", personal, "question", false, 8, adminId);
        insert("INSERT INTO report_dashboard (name, parameters, collection_id, creator_id, created_at, updated_at) "
                + "VALUES ('Orders dashboard', '[]', ?, ?, ?, ?)", sales, adminId, T0, T0.plusDays(9));
        insert("INSERT INTO native_query_snippet (name, content, creator_id, created_at, updated_at) "
                + "VALUES ('orders snippet', 'WHERE 1 = 1', ?, ?, ?)", adminId, T0, T0);
        long ordersTable = ((Number) AppDbSql.value(server, "SELECT id FROM metabase_table WHERE db_id = ? AND name = 'ORDERS'", shop))
                .longValue();
        insert("INSERT INTO segment (name, table_id, definition, creator_id, created_at, updated_at) "
                + "VALUES ('Big orders', ?, '{}', ?, ?, ?)", ordersTable, adminId, T0, T0);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long addDatabase(String name) throws Exception {
        long id = admin.post(200, "database", Map.of("engine", "h2", "name", name, "details",
                Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(id).get();
        return id;
    }

    private static void card(String name, Long collection, String type, boolean archived, int day, long creator) {
        insert("INSERT INTO report_card (name, display, card_type, dataset_query, query_type, visualization_settings, database_id, "
                        + "collection_id, archived, creator_id, created_at, updated_at) VALUES (?, 'table', ?, ?, 'native', '{}', ?, ?, ?, ?, ?, ?)",
                name, type, "{\"database\":" + shop + ",\"type\":\"native\",\"native\":{\"query\":\"SELECT 1\"}}", shop, collection,
                archived, creator, T0, T0.plusDays(day));
    }

    private static long insert(String sql, Object... params) {
        try (Connection c = AppDbSql.connect(server); PreparedStatement s = c.prepareStatement(sql, new String[] {"id"})) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            s.executeUpdate();
            try (ResultSet keys = s.getGeneratedKeys()) {
                return keys.next() ? keys.getLong(1) : -1;
            }
        } catch (Exception e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    private static List<String> names(JsonNode result) {
        List<String> names = new ArrayList<>();
        for (JsonNode item : result.get("data")) {
            names.add(item.get("name").asText());
        }
        return names;
    }

    private static Set<String> nameSet(JsonNode result) {
        return new TreeSet<>(names(result));
    }

    @Test
    void ranksExactThenPrefixThenWordPrefixThenSubstringTiesByRecency() {
        JsonNode result = admin.get(200, "search", "q", "orders", "models", "card").json();
        assertEquals(List.of("Orders", "Orders personal", "Orders secret", "Orders by month", "Monthly orders", "Reorders"), names(result));
        assertEquals(6, result.get("total").asInt());
        assertEquals("search.engine/in-place", result.get("engine").asText());
        assertEquals(List.of("card"), List.of(result.get("models").get(0).asText()));
        JsonNode first = result.get("data").get(0);
        assertEquals("card", first.get("model").asText());
        assertEquals(shop, first.get("database_id").asLong());
        assertTrue(first.get("collection").has("id") && first.get("collection").get("id").isNull(), "Root items: collection id null");
        assertTrue(first.get("scores").get(0).get("score").asDouble() > result.get("data").get(5).get("scores").get(0).get("score").asDouble());
        JsonNode inSales = result.get("data").get(3);
        assertEquals(sales, inSales.get("collection").get("id").asLong());
        assertEquals("Sales", inSales.get("collection").get("name").asText());

        // case-insensitive, every word must match somewhere
        assertEquals(Set.of("Orders by month", "Monthly orders"), nameSet(admin.get(200, "search", "q", "MONTH  orders", "models", "card").json()));
        assertEquals(List.of(), names(admin.get(200, "search", "q", "orders zebra").json()));
        // LIKE wildcards in q are plain characters
        assertEquals(List.of(), names(admin.get(200, "search", "q", "%").json()));
    }

    @Test
    void modelsFilterAndModelNames() {
        JsonNode models = admin.get(200, "search", "q", "orders", "models", "dataset").json();
        assertEquals(List.of("Orders model"), names(models));
        assertEquals("dataset", models.get("data").get(0).get("model").asText());
        JsonNode data = admin.get(200, "search", "q", "orders", "models", "table", "models", "segment").json();
        Set<String> kinds = new TreeSet<>();
        for (JsonNode item : data.get("data")) {
            kinds.add(item.get("model").asText());
            if (item.get("model").asText().equals("segment")) {
                assertEquals("Big orders", item.get("name").asText());
                assertEquals("ORDERS", item.get("table_name").asText());
            }
        }
        assertEquals(Set.of("segment", "table"), kinds);
        JsonNode all = admin.get(200, "search", "q", "orders").json();
        Set<String> every = new TreeSet<>();
        all.get("data").forEach(item -> every.add(item.get("model").asText()));
        assertEquals(Set.of("card", "dataset", "dashboard", "collection", "table", "segment", "snippet"), every);
        assertTrue(all.get("models").isNull());
        assertEquals(List.of(), names(admin.get(200, "search", "q", "orders", "models", "action").json()));
        JsonNode bad = admin.get(400, "search", "models", "cards").json();
        assertTrue(bad.get("errors").get("models").asText().contains("dashboard"));
    }

    @Test
    void archivedCollectionTableDbAndCreatorFilters() {
        assertEquals(List.of("Orders archived"), names(admin.get(200, "search", "q", "orders", "archived", "true").json()));
        assertFalse(names(admin.get(200, "search", "q", "orders").json()).contains("Orders archived"));
        admin.get(400, "search", "archived", "maybe");

        assertEquals(Set.of("Orders by month", "Monthly orders", "Orders model", "Orders dashboard", "Sales sub"),
                nameSet(admin.get(200, "search", "collection", sales).json()));
        assertEquals(Set.of("Monthly orders"), nameSet(admin.get(200, "search", "collection", salesSub).json()));
        assertTrue(admin.get(400, "search", "collection", "0").json().get("errors").has("collection"));

        JsonNode shopTables = admin.get(200, "search", "models", "table", "table_db_id", shop).json();
        assertEquals(shop, shopTables.get("table_db_id").asLong());
        assertFalse(shopTables.get("data").isEmpty());
        shopTables.get("data").forEach(t -> assertEquals(shop, t.get("database_id").asLong()));
        JsonNode secretCards = admin.get(200, "search", "q", "orders", "table_db_id", secret).json();
        secretCards.get("data").forEach(t -> assertEquals("table", t.get("model").asText()));

        assertEquals(List.of("Monthly orders"), names(admin.get(200, "search", "q", "orders", "created_by", userId).json()));
        admin.get(400, "search", "created_by", "x");
    }

    @Test
    void pagesWithTotalOfAllMatches() {
        JsonNode page = admin.get(200, "search", "q", "orders", "models", "card", "limit", 2, "offset", 1).json();
        assertEquals(6, page.get("total").asInt());
        assertEquals(List.of("Orders personal", "Orders secret"), names(page));
        assertEquals(2, page.get("limit").asInt());
        assertEquals(1, page.get("offset").asInt());
        JsonNode unpaged = admin.get(200, "search", "q", "orders", "models", "card").json();
        assertTrue(unpaged.get("limit").isNull());
        assertTrue(unpaged.get("offset").isNull());
        // either one sent: the other takes its default (limit 50, offset 0)
        JsonNode limitOnly = admin.get(200, "search", "q", "orders", "models", "card", "limit", 1).json();
        assertEquals(1, limitOnly.get("limit").asInt());
        assertEquals(0, limitOnly.get("offset").asInt());
        JsonNode offsetOnly = admin.get(200, "search", "q", "orders", "models", "card", "offset", 5).json();
        assertEquals(50, offsetOnly.get("limit").asInt());
        assertEquals(1, offsetOnly.get("data").size());
        JsonNode badLimit = admin.get(400, "search", "limit", "abc").json();
        assertTrue(badLimit.get("errors").has("limit"));
        assertTrue(badLimit.get("message").asText().startsWith("Error parsing paging parameters"));
        assertTrue(admin.get(400, "search", "offset", "-1").json().get("errors").has("offset"));
    }

    @Test
    void resultsAreFilteredByWhatTheCallerMaySee() {
        api.get(401, "search", "q", "orders");
        JsonNode result = user.get(200, "search", "q", "orders").json();
        List<String> names = names(result);
        assertFalse(names.contains("Orders secret"), "a card in a collection the user cannot read never appears");
        assertFalse(names.contains("Orders personal"), "nor one in someone else's personal collection");
        assertFalse(names.contains("Hidden orders"), "nor the unreadable collection itself");
        assertTrue(names.containsAll(List.of("Orders", "Orders by month", "Monthly orders", "Orders model", "Orders dashboard",
                "orders snippet", "Big orders")), names.toString());
        assertEquals(result.get("data").size(), result.get("total").asInt());
        for (JsonNode item : user.get(200, "search", "models", "table").json().get("data")) {
            assertTrue(item.get("database_id").asLong() != secret, "tables of a blocked database never appear: " + item);
        }
        assertTrue(user.get(200, "search", "models", "table", "table_db_id", secret).json().get("data").isEmpty());
        assertFalse(admin.get(200, "search", "models", "table", "table_db_id", secret).json().get("data").isEmpty());
        for (JsonNode item : user.get(200, "search", "models", "database").json().get("data")) {
            assertTrue(item.get("id").asLong() != secret);
        }
        // the collection filter cannot reveal what is inside an unreadable collection
        assertTrue(user.get(200, "search", "collection", hidden).json().get("data").isEmpty());
    }
}
