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
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/activity}: opening a card, dashboard, table or collection records the caller's view; the lists show
 * Metabase's item shapes, newest first, only what the caller may still read and nothing archived; each user keeps
 * at most 20 items of a kind.
 */
class ActivityIT {
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static long dbId;
    private static long tableId;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        dbId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop", "details",
                Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(dbId).get();
        tableId = admin.get(200, "table").json().get(0).get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long card(String name, Object collectionId, String type) {
        Map<String, Object> card = new HashMap<>(Map.of("name", name, "display", "table", "visualization_settings", Map.of(),
                "type", type, "dataset_query", Map.of("database", dbId, "type", "native", "native", Map.of("query", "SELECT 1"))));
        card.put("collection_id", collectionId);
        return admin.post(200, "card", card).json().get("id").asLong();
    }

    private static List<String> keys(JsonNode items) {
        List<String> out = new ArrayList<>();
        items.forEach(i -> out.add(i.get("model").asText() + "/" + i.get("id").asLong()));
        return out;
    }

    private static int storedViews(Api caller, String model) throws Exception {
        long userId = caller.get(200, "user/current").json().get("id").asLong();
        try (Connection c = AppDbSql.connect(server); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM recent_views WHERE user_id = " + userId + " AND model = '" + model + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void openedItemsAreListedNewestFirstInMetabaseShapes() throws Exception {
        Api user = anonymous.as(newUser("viewer@example.com"));
        long question = card("Orders question", null, "question");
        long model = card("Orders model", null, "model");
        long collection = admin.post(200, "collection", Map.of("name", "Shelf")).json().get("id").asLong();
        long dashboard = admin.post(200, "dashboard", Map.of("name", "Board", "collection_id", collection)).json().get("id").asLong();
        assertEquals(0, user.get(200, "activity/recent_views").json().get("recent_views").size());

        user.get(200, "card/" + question);
        user.get(200, "card/" + model);
        user.get(200, "dashboard/" + dashboard);
        user.get(200, "collection/" + collection);
        user.get(200, "table/" + tableId);
        user.get(200, "card/" + question, "ignore_view", "true");   // not a view
        user.get(404, "card/999999");                               // nothing to record
        JsonNode views = user.get(200, "activity/recent_views").json().get("recent_views");
        assertEquals(List.of("table/" + tableId, "collection/" + collection, "dashboard/" + dashboard, "dataset/" + model,
                "card/" + question), keys(views));

        JsonNode table = views.get(0);
        assertEquals(admin.get(200, "table/" + tableId).json().get("name").asText(), table.get("name").asText());
        assertTrue(table.has("display_name") && table.has("table_schema"));
        assertEquals("Shop", table.get("database").get("name").asText());
        assertEquals(dbId, table.get("database").get("id").asLong());
        assertFalse(table.get("can_write").asBoolean(), "an ordinary user does not edit table metadata");
        JsonNode coll = views.get(1);
        assertEquals("Shelf", coll.get("name").asText());
        assertEquals("/", coll.get("effective_location").asText());
        assertEquals("root", coll.get("parent_collection").get("id").asText());
        JsonNode board = views.get(2);
        assertEquals(collection, board.get("parent_collection").get("id").asLong());
        assertEquals("Shelf", board.get("parent_collection").get("name").asText());
        assertTrue(board.has("moderated_status") && board.get("moderated_status").isNull());
        JsonNode q = views.get(4);
        assertEquals("Orders question", q.get("name").asText());
        assertEquals("table", q.get("display").asText());
        assertEquals(dbId, q.get("database_id").asLong());
        assertEquals("SELECT 1", q.get("dataset_query").get("native").get("query").asText());
        assertEquals("Our analytics", q.get("parent_collection").get("name").asText());
        assertTrue(q.get("timestamp").isTextual() && q.get("timestamp").asText().startsWith("20"));
        assertTrue(q.get("can_write").isBoolean());
        for (JsonNode item : views) {
            for (String key : List.of("id", "name", "description", "model", "can_write", "timestamp")) {
                assertTrue(item.has(key), item + " has " + key);
            }
        }

        // opening again moves an item to the top, once
        user.get(200, "card/" + question);
        views = user.get(200, "activity/recent_views").json().get("recent_views");
        assertEquals("card/" + question, keys(views).get(0));
        assertEquals(5, views.size());
        assertEquals(2, storedViews(user, "card"));

        // archived items and items the user may no longer read drop out
        admin.put(200, "dashboard/" + dashboard, Map.of("archived", true));
        long personal = admin.get(200, "user/current").json().get("personal_collection_id").asLong();
        admin.put(200, "card/" + model, Map.of("collection_id", personal));
        views = user.get(200, "activity/recent_views").json().get("recent_views");
        assertEquals(List.of("card/" + question, "table/" + tableId, "collection/" + collection), keys(views));
        // and a card the user may not open is not recorded
        long hidden = card("Hidden", personal, "question");
        user.get(403, "card/" + hidden);
        assertEquals(2, storedViews(user, "card"));
        // the newest views are the popular ones here: dashboards and tables first, then cards (the archived board is gone)
        JsonNode popular = user.get(200, "activity/popular_items").json().get("popular_items");
        assertEquals(List.of("card/" + question, "table/" + tableId), keys(popular));
    }

    @Test
    void eachUserKeepsTwentyItemsOfAKind() throws Exception {
        Api user = anonymous.as(newUser("busy@example.com"));
        List<Long> cards = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            long id = card("Card " + i, null, "question");
            cards.add(id);
            user.get(200, "card/" + id);
        }
        long model = card("A model", null, "model");
        user.get(200, "card/" + model);
        assertEquals(21, storedViews(user, "card"), "20 questions and the model: each type keeps its own 20");
        JsonNode views = user.get(200, "activity/recent_views").json().get("recent_views");
        assertEquals(21, views.size());
        assertEquals("dataset/" + model, keys(views).get(0));
        assertEquals("card/" + cards.get(22), keys(views).get(1));
        assertEquals("card/" + cards.get(3), keys(views).get(20), "the three oldest questions were pruned");
        Api idle = anonymous.as(newUser("idle@example.com"));
        assertEquals(0, idle.get(200, "activity/recent_views").json().get("recent_views").size(), "per user");
        assertTrue(user.get(200, "activity/popular_items").json().get("popular_items").size() <= 5);
    }

    @Test
    void selectionsAreRecordedThroughRecents() {
        Api user = anonymous.as(newUser("picker@example.com"));
        long question = card("Picked", null, "question");
        user.post(204, "activity/recents", Map.of("model", "card", "model_id", question, "context", "selection"));
        user.post(204, "activity/recents", Map.of("model", "table", "model_id", tableId, "context", "selection"));
        assertEquals(List.of("table/" + tableId, "card/" + question),
                keys(user.get(200, "activity/recents", "context", "selections").json().get("recents")));
        assertEquals(0, user.get(200, "activity/recents", "context", "views").json().get("recents").size());
        assertEquals(0, user.get(200, "activity/recent_views").json().get("recent_views").size(), "views only");
        assertEquals("context is required.", user.get(400, "activity/recents").body().replace("\"", ""));
        user.post(404, "activity/recents", Map.of("model", "card", "model_id", 999999, "context", "selection"));
        assertTrue(user.post(400, "activity/recents", Map.of("model", "pulse", "model_id", 1, "context", "selection"))
                .json().get("errors").has("model"));
        long personal = admin.get(200, "user/current").json().get("personal_collection_id").asLong();
        long hidden = card("Hidden pick", personal, "question");
        user.post(403, "activity/recents", Map.of("model", "card", "model_id", hidden, "context", "selection"));
    }

    /** A signed-in ordinary user (a session, as the web interface has). */
    private static String newUser(String email) {
        admin.post(200, "user", Map.of("email", email, "first_name", "V", "last_name", "U", "password", "Some-pass-42x"));
        return Fixtures.login(anonymous, email, "Some-pass-42x");
    }
}
