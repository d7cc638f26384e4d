package io.quarry.collection;

import static io.quarry.collection.CollectionSupport.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code DELETE /api/collection/:id} (Metabase v0.63): superusers delete a trashed collection for good, with its
 * subcollections, cards and dashboards (through their own deletes: no card is left behind without a collection);
 * what was trashed on its own inside stays in the Trash.
 */
class CollectionDeleteIT {
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static long dbId;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
        dbId = CollectionSupport.database(admin);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long card(String name, long collectionId) {
        Map<String, Object> body = map("name", name, "display", "table",
                "dataset_query", map("type", "native", "native", map("query", "SELECT 1 AS ONE"), "database", dbId),
                "visualization_settings", map(), "collection_id", collectionId);
        return admin.post(200, "card", body).json().get("id").asLong();
    }

    private static long count(String sql, Object... params) {
        return AppDbSql.count(server, sql, params);
    }

    private static void archive(long collectionId) {
        admin.put(200, "collection/" + collectionId, map("archived", true));
    }

    @Test
    void deletesTheTrashedCollectionWithEverythingBelow() {
        long top = CollectionSupport.collection(admin, "Doomed", null);
        long child = CollectionSupport.collection(admin, "Doomed child", top);
        long grandchild = CollectionSupport.collection(admin, "Doomed grandchild", child);
        long kept = CollectionSupport.collection(admin, "Trashed on its own", top);
        long keptChild = CollectionSupport.collection(admin, "Below the one trashed on its own", kept);
        long topCard = card("Top card", top);
        long deepCard = card("Deep card", grandchild);
        long keptCard = card("Kept card", kept);
        long outside = card("Outside card", CollectionSupport.collection(admin, "Survivor", null));
        long board = admin.post(200, "dashboard", map("name", "Doomed board", "collection_id", child)).json().get("id").asLong();
        long otherBoard = admin.post(200, "dashboard", map("name", "Other board")).json().get("id").asLong();
        admin.put(200, "dashboard/" + otherBoard, map("dashcards", List.of(map("id", -1, "card_id", deepCard, "row", 0, "col", 0,
                "size_x", 4, "size_y", 4), map("id", -2, "card_id", outside, "row", 0, "col", 4, "size_x", 4, "size_y", 4))));
        archive(kept);
        archive(top);

        assertEquals("1", admin.delete(200, "collection/" + top).body());
        for (long id : List.of(top, child, grandchild)) {
            assertEquals(0, count("SELECT COUNT(*) FROM collection WHERE id = ?", id));
            admin.get(404, "collection/" + id);
        }
        assertEquals(0, count("SELECT COUNT(*) FROM report_card WHERE id IN (?, ?)", topCard, deepCard), "cards deleted, not orphaned");
        assertEquals(0, count("SELECT COUNT(*) FROM revision WHERE model = 'Card' AND model_id IN (?, ?)", topCard, deepCard));
        assertEquals(0, count("SELECT COUNT(*) FROM report_dashboard WHERE id = ?", board));
        admin.get(404, "card/" + deepCard);
        assertEquals(1, admin.get(200, "dashboard/" + otherBoard).json().get("dashcards").size(), "the deleted card left other dashboards");

        // what was trashed on its own stays in the Trash, moved up to the deleted collection's parent (Root)
        assertEquals("/", admin.get(200, "collection/" + kept).json().get("location").asText());
        assertEquals("/" + kept + "/", admin.get(200, "collection/" + keptChild).json().get("location").asText());
        assertTrue(admin.get(200, "collection/" + kept).json().get("archived").asBoolean());
        assertEquals(kept, admin.get(200, "card/" + keptCard).json().get("collection_id").asLong());
        assertEquals(1, count("SELECT COUNT(*) FROM report_card WHERE id = ?", outside));
    }

    @Test
    void refusesWhatMayNotBeDeleted() {
        long live = CollectionSupport.collection(admin, "Alive", null);
        long liveCard = card("Alive card", live);
        assertEquals("Collection must be trashed before deletion.", admin.delete(400, "collection/" + live).body());
        assertEquals(1, count("SELECT COUNT(*) FROM report_card WHERE id = ?", liveCard));

        long trashed = CollectionSupport.collection(admin, "Trashed", null);
        long trashedCard = card("Trashed card", trashed);
        archive(trashed);
        assertEquals("You don't have permissions to do that.", user.delete(403, "collection/" + trashed).body());
        CollectionSupport.grantAllUsers(admin, trashed, "write");
        assertEquals("You don't have permissions to do that.", user.delete(403, "collection/" + trashed).body(), "superusers only");
        assertEquals(1, count("SELECT COUNT(*) FROM collection WHERE id = ?", trashed));
        assertEquals(1, count("SELECT COUNT(*) FROM report_card WHERE id = ?", trashedCard));

        long personal = admin.get(200, "user/current").json().get("personal_collection_id").asLong();
        CollectionSupport.sql(server, "UPDATE collection SET archived = TRUE WHERE id = ?", personal);
        assertEquals("Personal collections cannot be deleted.", admin.delete(400, "collection/" + personal).body());
        CollectionSupport.sql(server, "UPDATE collection SET archived = FALSE WHERE id = ?", personal);
        long trash = admin.get(200, "collection/trash").json().get("id").asLong();
        assertEquals("Collection must be trashed before deletion.", admin.delete(400, "collection/" + trash).body());
        long snippets = admin.post(200, "collection", map("name", "Snippet folder", "namespace", "snippets")).json().get("id").asLong();
        archive(snippets);
        assertEquals("Collections in non-nil namespaces cannot be deleted.", admin.delete(400, "collection/" + snippets).body());

        admin.delete(404, "collection/999999");
        user.delete(404, "collection/999999");
        admin.delete(400, "collection/x");
        anonymous.delete(401, "collection/" + trashed);
        assertFalse(admin.get(200, "collection/" + trashed).body().isEmpty());
    }
}
