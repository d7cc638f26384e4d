package io.quarry.bookmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Bookmarks of cards and collections: per user, readable items only, ordering, validation. */
class BookmarkIT {
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static long dbId;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
        dbId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop", "details",
                Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long collection(String name) throws Exception {
        try (Connection c = AppDbSql.connect(server); PreparedStatement s = c.prepareStatement(
                "INSERT INTO collection (name, slug, location, created_at) VALUES (?, ?, '/', CURRENT_TIMESTAMP)",
                Statement.RETURN_GENERATED_KEYS)) {
            s.setString(1, name);
            s.setString(2, name.toLowerCase());
            s.executeUpdate();
            try (ResultSet keys = s.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    private static long card(String name, Long collectionId) {
        Map<String, Object> card = new java.util.HashMap<>(Map.of("name", name, "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", dbId, "type", "native", "native", Map.of("query", "SELECT 1"))));
        card.put("collection_id", collectionId);
        return admin.post(200, "card", card).json().get("id").asLong();
    }

    private static List<String> ids(JsonNode list) {
        List<String> ids = new ArrayList<>();
        list.forEach(b -> ids.add(b.get("id").asText()));
        return ids;
    }

    @Test
    void bookmarkListOrderAndRemove() throws Exception {
        long a = card("Card A", null);
        long b = card("Card B", null);
        long coll = collection("Visible");
        try (Connection c = AppDbSql.connect(server); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO collection_permission (group_id, collection_id, perm) VALUES (1, " + coll + ", 'read')");
        }
        JsonNode created = user.post(200, "bookmark/card/" + a, Map.of()).json();
        assertEquals(a, created.get("card_id").asLong());
        assertTrue(created.has("created_at") && created.get("id").asLong() > 0);
        assertEquals("Bookmark already exists", user.post(400, "bookmark/card/" + a, Map.of()).body());
        user.post(200, "bookmark/card/" + b, Map.of());
        user.post(200, "bookmark/collection/" + coll, Map.of());
        JsonNode list = user.get(200, "bookmark").json();
        assertEquals(List.of("collection-" + coll, "card-" + b, "card-" + a), ids(list), "newest first");
        JsonNode first = list.get(1);
        assertEquals("card", first.get("type").asText());
        assertEquals(b, first.get("item_id").asLong());
        assertEquals("Card B", first.get("name").asText());
        assertEquals("table", first.get("display").asText());
        assertTrue(admin.get(200, "bookmark").json().isEmpty(), "bookmarks are per user");

        user.put(204, "bookmark/ordering", Map.of("orderings", List.of(Map.of("type", "card", "item_id", a),
                Map.of("type", "collection", "item_id", coll), Map.of("type", "card", "item_id", b))));
        assertEquals(List.of("card-" + a, "collection-" + coll, "card-" + b), ids(user.get(200, "bookmark").json()));
        JsonNode bad = user.put(400, "bookmark/ordering", Map.of("orderings", List.of(Map.of("type", "pulse", "item_id", 1)))).json();
        assertTrue(bad.get("errors").has("orderings"));
        user.put(400, "bookmark/ordering", Map.of());
        assertEquals(List.of("card-" + a, "collection-" + coll, "card-" + b), ids(user.get(200, "bookmark").json()),
                "a bad ordering changed nothing");

        admin.put(200, "card/" + b, Map.of("archived", true));
        assertEquals(List.of("card-" + a, "collection-" + coll), ids(user.get(200, "bookmark").json()), "archived items drop out");
        user.delete(204, "bookmark/card/" + a);
        user.delete(204, "bookmark/card/" + a);
        assertEquals(List.of("collection-" + coll), ids(user.get(200, "bookmark").json()));
    }

    @Test
    void onlyReadableItemsAndValidation() throws Exception {
        long secret = collection("Hidden");
        long hiddenCard = card("Hidden card", secret);
        assertEquals("You don't have permissions to do that.", user.post(403, "bookmark/card/" + hiddenCard, Map.of()).body());
        user.post(403, "bookmark/collection/" + secret, Map.of());
        user.post(404, "bookmark/card/999999", Map.of());
        user.post(404, "bookmark/dashboard/999999", Map.of());
        assertEquals("enum of card, dashboard, collection",
                user.post(400, "bookmark/pulse/1", Map.of()).json().get("errors").get("model").asText());
        user.post(400, "bookmark/card/0", Map.of());
        anonymous.get(401, "bookmark");
        anonymous.post(401, "bookmark/card/" + hiddenCard, Map.of());
        assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM card_bookmark WHERE card_id = ?", hiddenCard));
        // rights taken away later hide the bookmark
        admin.post(200, "bookmark/card/" + hiddenCard, Map.of());
        assertEquals(1, admin.get(200, "bookmark").json().size());
    }
}
