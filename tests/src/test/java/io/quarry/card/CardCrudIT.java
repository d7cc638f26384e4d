package io.quarry.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.testing.Api;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Creating, reading, updating, archiving, copying, moving and deleting cards, with rights and validation. */
class CardCrudIT {
    private static CardTests t;
    private static Api admin;
    private static Api user;

    @BeforeAll
    static void start() throws Exception {
        t = new CardTests();
        admin = t.admin;
        user = t.user;
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    private long cards() {
        return t.count("SELECT COUNT(*) FROM report_card");
    }

    @Test
    void createValidatesEveryFieldAndWritesNothing() {
        long before = cards();
        JsonNode errors = admin.post(400, "card", Map.of("name", "", "display", 3, "dataset_query", List.of(),
                "visualization_settings", "x", "description", " ", "collection_id", -1, "collection_position", "a",
                "cache_ttl", 0, "type", "chart", "result_metadata", "cols")).json().get("errors");
        assertEquals("value must be a non-blank string.", errors.get("name").asText());
        assertEquals("value must be a non-blank string.", errors.get("display").asText());
        assertEquals("Value must be a map.", errors.get("dataset_query").asText());
        assertEquals("Value must be a map.", errors.get("visualization_settings").asText());
        assertEquals("nullable value must be a non-blank string.", errors.get("description").asText());
        assertEquals("nullable value must be an integer greater than zero.", errors.get("collection_id").asText());
        assertEquals("nullable value must be an integer greater than zero.", errors.get("collection_position").asText());
        assertEquals("nullable value must be an integer greater than zero.", errors.get("cache_ttl").asText());
        assertEquals("nullable enum of question, model, metric", errors.get("type").asText());
        assertEquals("nullable value must be an array of valid results column metadata maps.", errors.get("result_metadata").asText());
        JsonNode params = admin.post(400, "card", t.with(t.nativeCard("P", "SELECT 1"), "parameters", List.of(Map.of("id", "x")),
                "parameter_mappings", List.of(Map.of("target", 1)))).json().get("errors");
        assertEquals("nullable sequence of parameter must be a map with :id and :type keys", params.get("parameters").asText());
        assertEquals("nullable sequence of parameter_mapping must be a map with :parameter_id and :target keys",
                params.get("parameter_mappings").asText());
        JsonNode missing = admin.post(400, "card", Map.of()).json().get("errors");
        assertEquals("value must be a non-blank string.", missing.get("name").asText());
        assertEquals("Value must be a map.", missing.get("dataset_query").asText());
        admin.post(404, "card", t.with(t.nativeCard("Nowhere", "SELECT 1"), "collection_id", 999_999));
        t.anonymous.post(401, "card", t.nativeCard("Anon", "SELECT 1"));
        long secret = t.collection("Admins only");
        assertEquals("You don't have permissions to do that.",
                user.post(403, "card", t.with(t.nativeCard("Sneaky", "SELECT 1"), "collection_id", secret)).body());
        assertEquals(before, cards(), "no failed create wrote a card");
    }

    @Test
    void createStoresEveryFieldAndComputesMetadata() {
        long coll = t.collection("Reports");
        t.grant(coll, "write");
        JsonNode card = user.post(200, "card", t.with(t.nativeCard("Totals", "SELECT ID, TOTAL FROM ORDERS"),
                "description", "All totals", "collection_id", coll, "cache_ttl", 5, "dataset", true,
                "parameters", List.of(Map.of("id", "p1", "type", "category", "slug", "cat")),
                "parameter_mappings", List.of(), "visualization_settings", Map.of("table.pivot", false))).json();
        assertEquals("Totals", card.get("name").asText());
        assertEquals("model", card.get("type").asText());
        assertTrue(card.get("dataset").asBoolean());
        assertEquals("native", card.get("query_type").asText());
        assertEquals(coll, card.get("collection_id").asLong());
        assertEquals("Reports", card.get("collection").get("name").asText());
        assertEquals(5, card.get("cache_ttl").asInt());
        assertEquals("All totals", card.get("description").asText());
        assertEquals("p1", card.get("parameters").get(0).get("id").asText());
        assertTrue(card.get("can_write").asBoolean());
        assertEquals(List.of("ID", "TOTAL"), List.of(card.get("result_metadata").get(0).get("name").asText(),
                card.get("result_metadata").get(1).get("name").asText()));
        assertEquals("type/Float", card.get("result_metadata").get(1).get("base_type").asText());
        assertTrue(card.get("creator").has("common_name"));
        assertTrue(card.has("last-edit-info"));

        JsonNode mbql = admin.post(200, "card", t.tableCard("Customers", t.tableId("CUSTOMERS"))).json();
        assertEquals("query", mbql.get("query_type").asText());
        assertEquals(t.tableId("CUSTOMERS"), mbql.get("table_id").asLong());
        assertEquals("question", mbql.get("type").asText());
        assertTrue(mbql.get("result_metadata").size() >= 4, mbql.toString());
        assertEquals("root", mbql.get("collection").get("id").asText());

        // a native query that cannot run now (a required variable) is saved anyway, without metadata
        JsonNode pending = admin.post(200, "card", t.with(t.nativeCard("Later", "SELECT * FROM ORDERS WHERE ID = {{id}}"),
                "dataset_query", Map.of("database", t.dbId, "type", "native", "native", Map.of("query",
                        "SELECT * FROM ORDERS WHERE ID = {{id}}", "template-tags", Map.of("id", Map.of("name", "id", "type", "number",
                                "required", true)))))).json();
        assertTrue(pending.get("result_metadata").isNull());
        assertEquals(1, t.count("SELECT COUNT(*) FROM revision WHERE model = 'Card' AND model_id = ? AND is_creation = TRUE",
                pending.get("id").asLong()));
    }

    @Test
    void fetchNeedsReadRightsAndCountsViewsUnlessIgnored() {
        long secret = t.collection("Secret reads");
        long hidden = t.create(admin, t.with(t.nativeCard("Hidden", "SELECT 1"), "collection_id", secret));
        long open = t.create(admin, t.nativeCard("Open", "SELECT 1"));
        assertEquals("You don't have permissions to do that.", user.get(403, "card/" + hidden).body());
        assertEquals("Open", user.get(200, "card/" + open).json().get("name").asText());
        assertFalse(user.get(200, "card/" + open).json().get("can_write").isNull());
        t.anonymous.get(401, "card/" + open);
        assertEquals("Not found.", admin.get(404, "card/999999").body());
        admin.get(400, "card/abc");
        int views = admin.get(200, "card/" + open, "ignore_view", "true").json().get("view_count").asInt();
        assertEquals(views, admin.get(200, "card/" + open, "ignore_view", "true").json().get("view_count").asInt());
        assertEquals(views + 1, admin.get(200, "card/" + open).json().get("view_count").asInt());
        assertTrue(admin.get(400, "card/" + open, "ignore_view", "maybe").json().get("errors").has("ignore_view"));
        t.grant(secret, "read");
        JsonNode readable = user.get(200, "card/" + hidden).json();
        assertFalse(readable.get("can_write").asBoolean());
        user.put(403, "card/" + hidden, Map.of("name", "Mine now"));
        assertEquals("Hidden", admin.get(200, "card/" + hidden).json().get("name").asText());
    }

    @Test
    void updateChangesFieldsIgnoresUnknownKeysAndValidates() {
        long id = t.create(admin, t.nativeCard("Editable", "SELECT ID FROM ORDERS"));
        ObjectNode whole = (ObjectNode) admin.get(200, "card/" + id).json();
        whole.put("name", "Edited");
        whole.put("some_future_key", "whatever");
        whole.putObject("collection").put("id", "root");
        JsonNode updated = admin.put(200, "card/" + id, whole).json();
        assertEquals("Edited", updated.get("name").asText());
        assertEquals("SELECT ID FROM ORDERS", updated.get("dataset_query").get("native").get("query").asText());

        JsonNode changed = admin.put(200, "card/" + id, Map.of("description", "d", "display", "bar", "cache_ttl", 3,
                "visualization_settings", Map.of("graph.dimensions", List.of("ID")), "collection_preview", false,
                "dataset_query", Map.of("database", t.dbId, "type", "native", "native", Map.of("query", "SELECT ID, CATEGORY FROM ORDERS")))).json();
        assertEquals("d", changed.get("description").asText());
        assertEquals("bar", changed.get("display").asText());
        assertEquals(3, changed.get("cache_ttl").asInt());
        assertFalse(changed.get("collection_preview").asBoolean());
        assertEquals(2, changed.get("result_metadata").size(), "a new query recomputes the metadata");
        JsonNode cleared = admin.put(200, "card/" + id, java.util.Collections.unmodifiableMap(new java.util.HashMap<>() {{
            put("description", null);
            put("cache_ttl", null);
            put("name", null);
        }})).json();
        assertTrue(cleared.get("description").isNull());
        assertTrue(cleared.get("cache_ttl").isNull());
        assertEquals("Edited", cleared.get("name").asText(), "a null name is ignored");
        JsonNode model = admin.put(200, "card/" + id, Map.of("type", "model")).json();
        assertEquals("model", model.get("type").asText());
        assertEquals("table", model.get("display").asText(), "a model is shown as a table");

        String snapshot = admin.get(200, "card/" + id, "ignore_view", "true").json().toString();
        JsonNode errors = admin.put(400, "card/" + id, Map.of("name", " ", "description", 5, "display", "", "dataset_query", "q",
                "archived", "perhaps", "collection_id", 0, "cache_ttl", -2, "type", "x", "embedding_params", Map.of("a", "open"),
                "enable_embedding", 3)).json().get("errors");
        assertEquals("nullable value must be a non-blank string.", errors.get("name").asText());
        assertEquals("nullable value must be a string.", errors.get("description").asText());
        assertEquals("nullable Value must be a map.", errors.get("dataset_query").asText());
        assertEquals("nullable value must be a boolean.", errors.get("archived").asText());
        assertEquals("nullable value must be an integer greater than zero.", errors.get("collection_id").asText());
        assertEquals("nullable value must be a valid embedding params map.", errors.get("embedding_params").asText());
        assertEquals("nullable value must be a boolean.", errors.get("enable_embedding").asText());
        assertEquals(snapshot, admin.get(200, "card/" + id, "ignore_view", "true").json().toString(), "a bad update wrote nothing");
        admin.put(404, "card/999999", Map.of("name", "x"));
        t.anonymous.put(401, "card/" + id, Map.of("name", "x"));
        admin.put(404, "card/" + id, Map.of("collection_id", 999_999));
    }

    @Test
    void embeddingNeedsTheSettingAndASuperuser() {
        long id = t.create(user, t.nativeCard("Embed me", "SELECT 1"));
        assertEquals("Embedding is not enabled.", admin.put(400, "card/" + id, Map.of("enable_embedding", true)).body());
        admin.put(204, "setting/enable-embedding-static", Map.of("value", true));
        try {
            user.put(403, "card/" + id, Map.of("enable_embedding", true));
            JsonNode on = admin.put(200, "card/" + id, Map.of("enable_embedding", true, "embedding_params",
                    Map.of("category", "locked", "id", "enabled"))).json();
            assertTrue(on.get("enable_embedding").asBoolean());
            assertEquals("locked", on.get("embedding_params").get("category").asText());
            assertTrue(admin.get(200, "card/embeddable").json().toString().contains("\"id\":" + id));
            user.get(403, "card/embeddable");
            // the same value again is no change: an ordinary user may send it back
            user.put(200, "card/" + id, Map.of("enable_embedding", true, "name", "Embedded"));
        } finally {
            admin.put(204, "setting/enable-embedding-static", Map.of("value", false));
        }
    }

    @Test
    void archiveAndUnarchive() {
        long id = t.create(user, t.nativeCard("Old news", "SELECT 1"));
        JsonNode archived = user.put(200, "card/" + id, Map.of("archived", true)).json();
        assertTrue(archived.get("archived").asBoolean());
        assertTrue(archived.get("archived_directly").asBoolean());
        assertTrue(admin.get(200, "card", "f", "archived").json().toString().contains("\"id\":" + id));
        assertFalse(admin.get(200, "card").json().toString().contains("\"id\":" + id + ","));
        JsonNode back = user.put(200, "card/" + id, Map.of("archived", false)).json();
        assertFalse(back.get("archived").asBoolean());
        assertFalse(back.get("archived_directly").asBoolean());
    }

    @Test
    void copyNamesTheCopyAndNeedsRights() {
        long coll = t.collection("Copy source");
        long id = t.create(admin, t.with(t.nativeCard("Revenue", "SELECT 1"), "collection_id", coll, "description", "money"));
        JsonNode copy = admin.post(200, "card/" + id + "/copy", Map.of()).json();
        assertEquals("Copy of Revenue", copy.get("name").asText());
        assertEquals("money", copy.get("description").asText());
        assertEquals(coll, copy.get("collection_id").asLong());
        assertTrue(copy.get("id").asLong() != id);
        long before = cards();
        user.post(403, "card/" + id + "/copy", Map.of());
        admin.post(404, "card/999999/copy", Map.of());
        t.anonymous.post(401, "card/" + id + "/copy", Map.of());
        assertEquals(before, cards());
    }

    @Test
    void moveCardsBetweenCollections() {
        long target = t.collection("Target");
        long locked = t.collection("Locked");
        long a = t.create(user, t.nativeCard("Move A", "SELECT 1"));
        long b = t.create(user, t.with(t.nativeCard("Move B", "SELECT 1"), "collection_position", 1));
        long inLocked = t.create(admin, t.with(t.nativeCard("Stuck", "SELECT 1"), "collection_id", locked));
        user.post(403, "card/collections", Map.of("card_ids", List.of(a, b), "collection_id", target));
        t.grant(target, "write");
        user.post(403, "card/collections", Map.of("card_ids", List.of(a, inLocked), "collection_id", target));
        assertTrue(admin.get(200, "card/" + a).json().get("collection_id").isNull(), "a refused move moved nothing");
        assertEquals("ok", user.post(200, "card/collections", Map.of("card_ids", List.of(a, b), "collection_id", target))
                .json().get("status").asText());
        assertEquals(target, admin.get(200, "card/" + a).json().get("collection_id").asLong());
        JsonNode movedB = admin.get(200, "card/" + b).json();
        assertEquals(target, movedB.get("collection_id").asLong());
        assertEquals(1, movedB.get("collection_position").asInt(), "a pinned card stays pinned after the target's pins");
        JsonNode errors = admin.post(400, "card/collections", Map.of("card_ids", "x", "collection_id", -3)).json().get("errors");
        assertTrue(errors.has("card_ids"));
        assertEquals("nullable value must be an integer greater than zero.", errors.get("collection_id").asText());
        admin.post(404, "card/collections", Map.of("card_ids", List.of(999_999), "collection_id", target));
        java.util.Map<String, Object> toRoot = new java.util.HashMap<>();
        toRoot.put("card_ids", List.of(a));
        toRoot.put("collection_id", null);
        user.post(200, "card/collections", toRoot);
        assertTrue(admin.get(200, "card/" + a).json().get("collection_id").isNull());
        // moving with PUT needs write on the target as well
        user.put(403, "card/" + a, Map.of("collection_id", locked));
        assertTrue(admin.get(200, "card/" + a).json().get("collection_id").isNull());
    }

    @Test
    void movingSeveralPinnedCardsKeepsBothCollectionsDense() {
        long source = t.collection("Pins source");
        long target = t.collection("Pins target");
        long p1 = t.create(admin, t.with(t.nativeCard("Pin 1", "SELECT 1"), "collection_id", source, "collection_position", 1));
        long p2 = t.create(admin, t.with(t.nativeCard("Pin 2", "SELECT 1"), "collection_id", source, "collection_position", 2));
        long p3 = t.create(admin, t.with(t.nativeCard("Pin 3", "SELECT 1"), "collection_id", source, "collection_position", 3));
        admin.post(200, "card/collections", Map.of("card_ids", List.of(p2, p1), "collection_id", target));
        assertEquals(1, admin.get(200, "card/" + p1).json().get("collection_position").asInt());
        assertEquals(2, admin.get(200, "card/" + p2).json().get("collection_position").asInt());
        assertEquals(target, admin.get(200, "card/" + p2).json().get("collection_id").asLong());
        assertEquals(1, admin.get(200, "card/" + p3).json().get("collection_position").asInt(), "the source's pins close up");
    }

    @Test
    void pinningKeepsPositionsDense() {
        long coll = t.collection("Pins");
        long first = t.create(admin, t.with(t.nativeCard("Pin 1", "SELECT 1"), "collection_id", coll, "collection_position", 1));
        long second = t.create(admin, t.with(t.nativeCard("Pin 2", "SELECT 1"), "collection_id", coll, "collection_position", 1));
        assertEquals(2, admin.get(200, "card/" + first).json().get("collection_position").asInt(), "the older pin moved down");
        assertEquals(1, admin.get(200, "card/" + second).json().get("collection_position").asInt());
        admin.put(200, "card/" + second, new java.util.HashMap<>(java.util.Collections.singletonMap("collection_position", null)));
        assertEquals(1, admin.get(200, "card/" + first).json().get("collection_position").asInt(), "unpinning closes the gap");
    }

    @Test
    void deprecatedDeleteRemovesTheCard() {
        long secret = t.collection("No deletes");
        long id = t.create(user, t.nativeCard("Doomed", "SELECT 1"));
        long kept = t.create(admin, t.with(t.nativeCard("Kept", "SELECT 1"), "collection_id", secret));
        user.delete(403, "card/" + kept);
        t.anonymous.delete(401, "card/" + id);
        admin.get(200, "card/" + kept);
        user.delete(204, "card/" + id);
        admin.get(404, "card/" + id);
        admin.delete(404, "card/" + id);
        assertEquals(0, t.count("SELECT COUNT(*) FROM revision WHERE model = 'Card' AND model_id = ?", id));
    }
}
