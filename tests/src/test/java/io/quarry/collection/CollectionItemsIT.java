package io.quarry.collection;

import static io.quarry.collection.CollectionSupport.collection;
import static io.quarry.collection.CollectionSupport.map;
import static io.quarry.collection.CollectionSupport.names;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Items of a collection and of the Root: models, archived, pinned_state, sorting, paging, rights. */
class CollectionItemsIT {
    private static TestServer server;
    private static Api api;
    private static Api admin;
    private static long dbId;
    private static long box;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        api = server.api();
        admin = api.as(Fixtures.setUp(api));
        dbId = CollectionSupport.database(admin);
        box = collection(admin, "Box", null);
        CollectionSupport.card(server, dbId, "banana question", box, "question", null);
        CollectionSupport.card(server, dbId, "Apple model", box, "model", 1);
        CollectionSupport.card(server, dbId, "cherry metric", box, "metric", null);
        CollectionSupport.dashboard(server, "Dates dashboard", box);
        long sub = collection(admin, "Elder sub", box);
        CollectionSupport.card(server, dbId, "deep card", sub, "question", null);
        long gone = CollectionSupport.card(server, dbId, "Fig archived", box, "question", null);
        CollectionSupport.sql(server, "UPDATE report_card SET archived = TRUE, archived_directly = TRUE WHERE id = ?", gone);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static List<String> models(JsonNode data) {
        List<String> out = new ArrayList<>();
        for (JsonNode n : data) {
            out.add(n.get("model").asText());
        }
        return out;
    }

    @Test
    void everyModelWithTotalAndTheirKeys() {
        JsonNode res = admin.get(200, "collection/" + box + "/items").json();
        assertEquals(5, res.get("total").asInt());
        assertTrue(res.get("limit").isNull());
        assertTrue(res.get("offset").isNull());
        JsonNode data = res.get("data");
        // name order, case-insensitive
        assertEquals(List.of("Apple model", "banana question", "cherry metric", "Dates dashboard", "Elder sub"), names(data));
        assertEquals(List.of("dataset", "card", "metric", "dashboard", "collection"), models(data));
        JsonNode card = data.get(1);
        assertEquals("table", card.get("display").asText());
        assertEquals(box, card.get("collection_id").asLong());
        assertTrue(card.get("can_write").asBoolean());
        assertFalse(card.has("dataset_query"));
        JsonNode sub = data.get(4);
        assertEquals("card", sub.get("here").get(0).asText());
        assertFalse(sub.has("personal_owner_id"));
        List<String> listed = new ArrayList<>();
        res.get("models").forEach(m -> listed.add(m.asText()));
        assertEquals(List.of("card", "collection", "dashboard", "dataset", "metric", "pulse", "timeline"), listed);
    }

    @Test
    void filtersSortingAndPaging() {
        assertEquals(List.of("banana question"), names(admin.get(200, "collection/" + box + "/items", "models", "card")
                .json().get("data")));
        JsonNode two = admin.get(200, "collection/" + box + "/items?models=card&models=dashboard").json();
        assertEquals(List.of("banana question", "Dates dashboard"), names(two.get("data")));
        assertEquals(0, admin.get(200, "collection/" + box + "/items", "models", "no_models").json().get("total").asInt());
        assertEquals(List.of("Apple model"), names(admin.get(200, "collection/" + box + "/items", "pinned_state", "is_pinned")
                .json().get("data")));
        assertEquals(4, admin.get(200, "collection/" + box + "/items", "pinned_state", "is_not_pinned").json().get("total").asInt());
        // archived on its own, the card is in the Trash, not among its collection's archived items (Metabase 0.50+)
        assertEquals(List.of(), names(admin.get(200, "collection/" + box + "/items", "archived", "true")
                .json().get("data")));
        long trash = admin.get(200, "collection/trash").json().get("id").asLong();
        assertTrue(names(admin.get(200, "collection/" + trash + "/items").json().get("data")).contains("Fig archived"));
        assertEquals(List.of("Elder sub", "Dates dashboard", "cherry metric", "banana question", "Apple model"),
                names(admin.get(200, "collection/" + box + "/items", "sort_column", "name", "sort_direction", "desc").json().get("data")));
        assertEquals(List.of("dashboard", "dataset", "metric", "card", "collection"),
                models(admin.get(200, "collection/" + box + "/items", "sort_column", "model").json().get("data")));
        JsonNode page = admin.get(200, "collection/" + box + "/items?limit=2&offset=1").json();
        assertEquals(5, page.get("total").asInt());
        assertEquals(2, page.get("limit").asInt());
        assertEquals(1, page.get("offset").asInt());
        assertEquals(List.of("banana question", "cherry metric"), names(page.get("data")));
        JsonNode beyond = admin.get(200, "collection/" + box + "/items?limit=2&offset=10").json();
        assertEquals(5, beyond.get("total").asInt());
        assertEquals(0, beyond.get("data").size());
        // bad values name the parameter
        assertTrue(admin.get(400, "collection/" + box + "/items", "models", "cards").json().get("errors").has("models"));
        assertEquals("nullable enum of all, is_pinned, is_not_pinned", admin.get(400, "collection/" + box + "/items",
                "pinned_state", "pinned").json().get("errors").get("pinned_state").asText());
        assertTrue(admin.get(400, "collection/" + box + "/items", "sort_column", "size").json().get("errors").has("sort_column"));
        assertTrue(admin.get(400, "collection/" + box + "/items", "sort_direction", "up").json().get("errors").has("sort_direction"));
        assertTrue(admin.get(400, "collection/" + box + "/items", "archived", "yes").json().get("errors").has("archived"));
        assertTrue(admin.get(400, "collection/" + box + "/items", "limit", "-1").json().get("errors").has("limit"));
        admin.get(404, "collection/999999/items");
        api.get(401, "collection/" + box + "/items");
    }

    @Test
    void rootItemsFollowTheCallersRights() {
        long top = collection(admin, "Top visible", null);
        long hidden = collection(admin, "Hidden parent", null);
        long inner = collection(admin, "Inner readable", hidden);
        CollectionSupport.card(server, dbId, "Loose root card", null, "question", null);
        CollectionSupport.Person eve = CollectionSupport.person(api, admin, "Eve", "Eden");
        CollectionSupport.grantAllUsers(admin, hidden, "none");
        CollectionSupport.grantAllUsers(admin, inner, "read");
        JsonNode mine = eve.api().get(200, "collection/root/items").json();
        List<String> mineNames = names(mine.get("data"));
        assertTrue(mineNames.contains("Top visible"));
        assertTrue(mineNames.contains("Loose root card"));
        assertTrue(mineNames.contains("Inner readable"), "a readable child of an unreadable parent shows at the top");
        assertFalse(mineNames.contains("Hidden parent"));
        assertTrue(mineNames.contains("Eve Eden's Personal Collection"));
        // no other user's personal collection at the top, not even for admins
        assertFalse(names(admin.get(200, "collection/root/items").json().get("data")).contains("Eve Eden's Personal Collection"));
        // without Root rights only collections remain
        long revision = admin.get(200, "collection/graph").json().get("revision").asLong();
        admin.put(200, "collection/graph", map("revision", revision, "groups", map("1", map("root", "none"))));
        JsonNode noRoot = eve.api().get(200, "collection/root/items").json();
        for (JsonNode item : noRoot.get("data")) {
            assertEquals("collection", item.get("model").asText());
        }
        assertTrue(names(noRoot.get("data")).contains("Inner readable"));
        eve.api().get(403, "collection/root");
        assertEquals(0, eve.api().get(200, "collection/root/items", "models", "card").json().get("total").asInt());
        revision = admin.get(200, "collection/graph").json().get("revision").asLong();
        admin.put(200, "collection/graph", map("revision", revision, "groups", map("1", map("root", "write"))));
        eve.api().get(403, "collection/" + hidden + "/items");
        assertTrue(top > 0);
    }

    @Test
    void snippetFoldersListTheirSnippets() {
        long folder = admin.post(200, "collection", map("name", "SQL bits", "namespace", "snippets")).json().get("id").asLong();
        CollectionSupport.sql(server, "INSERT INTO native_query_snippet (name, content, creator_id, collection_id, created_at, updated_at)"
                + " VALUES ('orders filter', 'status = 1', 1, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)", folder);
        JsonNode items = admin.get(200, "collection/" + folder + "/items").json();
        assertEquals(List.of("orders filter"), names(items.get("data")));
        assertEquals("snippet", items.get("data").get(0).get("model").asText());
        JsonNode root = admin.get(200, "collection/root/items", "namespace", "snippets").json();
        assertEquals(List.of("SQL bits"), names(root.get("data")));
        assertFalse(names(admin.get(200, "collection/root/items").json().get("data")).contains("SQL bits"));
        assertEquals("snippets", admin.get(200, "collection/" + folder).json().get("namespace").asText());
    }
}
