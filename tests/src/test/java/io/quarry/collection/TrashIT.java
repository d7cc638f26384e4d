package io.quarry.collection;

import static io.quarry.collection.CollectionSupport.collection;
import static io.quarry.collection.CollectionSupport.ids;
import static io.quarry.collection.CollectionSupport.map;
import static io.quarry.collection.CollectionSupport.names;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Trash (Metabase 0.50+): a collection of type "trash" listing what was archived directly; things archived with
 * their collection stay inside it; restoring puts things back where they were (or where the PUT says).
 */
class TrashIT {
    private static TestServer server;
    private static Api api;
    private static Api admin;
    private static long dbId;
    private static long trashId;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        api = server.api();
        admin = api.as(Fixtures.setUp(api));
        dbId = CollectionSupport.database(admin);
        trashId = admin.get(200, "collection/trash").json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long card(Api as, String name, Long collectionId) {
        Map<String, Object> body = map("name", name, "display", "table", "type", "question",
                "dataset_query", map("type", "native", "native", map("query", "SELECT 1 AS ONE"), "database", dbId),
                "visualization_settings", map(), "collection_id", collectionId);
        return as.post(200, "card", body).json().get("id").asLong();
    }

    private static long dashboard(Api as, String name, Long collectionId) {
        return as.post(200, "dashboard", map("name", name, "collection_id", collectionId)).json().get("id").asLong();
    }

    private static JsonNode trashItems(Api as) {
        return as.get(200, "collection/" + trashId + "/items").json();
    }

    private static JsonNode item(JsonNode data, String model, long id) {
        for (JsonNode n : data) {
            if (model.equals(n.get("model").asText()) && n.get("id").asLong() == id) {
                return n;
            }
        }
        return null;
    }

    private static List<String> models(JsonNode data) {
        List<String> out = new ArrayList<>();
        for (JsonNode n : data) {
            out.add(n.get("model").asText() + ":" + n.get("name").asText());
        }
        return out;
    }

    @Test
    void anonymousCallersAreRejected() {
        assertEquals("Unauthenticated", api.get(401, "collection/trash").body());
        api.get(401, "collection/" + trashId);
        api.get(401, "collection/" + trashId + "/items");
    }

    @Test
    void theTrashCollectionShape() {
        JsonNode t = admin.get(200, "collection/trash").json();
        assertEquals("Trash", t.get("name").asText());
        assertEquals("trash", t.get("type").asText());
        assertEquals("/", t.get("location").asText());
        assertFalse(t.get("archived").asBoolean());
        assertFalse(t.get("can_write").asBoolean());
        assertFalse(t.get("can_restore").asBoolean());
        assertFalse(t.get("can_delete").asBoolean());
        assertFalse(t.get("is_personal").asBoolean());
        assertTrue(t.get("parent_id").isNull());
        assertEquals("/", t.get("effective_location").asText());
        assertEquals("root", t.get("effective_ancestors").get(0).get("id").asText());
        assertTrue(t.has("entity_id"));
        assertEquals(t, admin.get(200, "collection/" + trashId).json());
        // an ordinary user reads it too (nobody writes it)
        CollectionSupport.Person ann = CollectionSupport.person(api, admin, "Ann", "Shape");
        JsonNode asAnn = ann.api().get(200, "collection/trash").json();
        assertEquals(trashId, asAnn.get("id").asLong());
        assertFalse(asAnn.get("can_write").asBoolean());
        ann.api().get(200, "collection/" + trashId);
        assertTrue(ann.api().get(200, "collection/" + trashId + "/items").json().has("total"));
        // nothing can be put in it, and it cannot be changed
        assertEquals(Trash.CANNOT_MODIFY, admin.post(400, "collection", map("name", "Inside", "parent_id", trashId)).body());
        assertEquals(Trash.CANNOT_MODIFY, admin.put(400, "collection/" + trashId, map("name", "Bin")).body());
        long c = collection(admin, "Mover", null);
        assertEquals(Trash.CANNOT_MODIFY, admin.put(400, "collection/" + c, map("parent_id", trashId)).body());
        assertEquals("Trash", admin.get(200, "collection/trash").json().get("name").asText());
    }

    @Test
    void theTrashIsNoOrdinaryCollection() {
        // not in the list (Metabase lists it only with the archived ones, last), not among the Root's items
        assertFalse(ids(admin.get(200, "collection").json()).contains(trashId));
        List<Long> archivedList = ids(admin.get(200, "collection", "archived", "true").json());
        assertEquals(trashId, archivedList.get(archivedList.size() - 1));
        assertFalse(ids(admin.get(200, "collection/root/items").json().get("data")).contains(trashId));
        // not in the permission graph
        JsonNode groups = admin.get(200, "collection/graph").json().get("groups");
        groups.forEach(g -> assertFalse(g.has(String.valueOf(trashId))));
        // the tree ends with it (as Metabase's does) unless archived things are left out
        JsonNode tree = admin.get(200, "collection/tree").json();
        JsonNode last = tree.get(tree.size() - 1);
        assertEquals(trashId, last.get("id").asLong());
        assertEquals("trash", last.get("type").asText());
        assertEquals(0, last.get("children").size());
        assertFalse(ids(admin.get(200, "collection/tree", "exclude-archived", "true").json()).contains(trashId));
        assertFalse(ids(admin.get(200, "collection/tree", "namespace", "snippets").json()).contains(trashId));
        // search does not find it
        JsonNode found = admin.get(200, "search", "q", "Trash", "models", "collection").json().get("data");
        assertFalse(ids(found).contains(trashId));
    }

    @Test
    void archiveListRestore() {
        long home = collection(admin, "Home base", null);
        long box = collection(admin, "Box to bin", home);
        long sub = collection(admin, "Box child", box);
        long card = card(admin, "Lone card", home);
        long dash = dashboard(admin, "Lone dashboard", home);
        long inner = card(admin, "Inner card", box);
        long innerDash = dashboard(admin, "Inner dashboard", sub);
        long rootCard = card(admin, "Root card", null);

        JsonNode archivedCard = admin.put(200, "card/" + card, map("archived", true)).json();
        assertTrue(archivedCard.get("archived").asBoolean());
        admin.put(200, "dashboard/" + dash, map("archived", true));
        admin.put(200, "card/" + rootCard, map("archived", true));
        admin.put(200, "collection/" + box, map("archived", true));

        // the trash lists the things archived directly, not what went with the collection
        JsonNode res = trashItems(admin);
        JsonNode data = res.get("data");
        List<String> listed = models(data);
        assertTrue(listed.containsAll(List.of("card:Lone card", "dashboard:Lone dashboard", "collection:Box to bin",
                "card:Root card")), listed.toString());
        assertFalse(listed.contains("card:Inner card"), listed.toString());
        assertFalse(listed.contains("collection:Box child"), listed.toString());
        assertFalse(listed.contains("dashboard:Inner dashboard"), listed.toString());
        JsonNode c = item(data, "card", card);
        assertEquals(trashId, c.get("collection_id").asLong());
        assertTrue(c.get("archived").asBoolean());
        assertTrue(c.get("can_write").asBoolean());
        assertTrue(c.get("can_restore").asBoolean());
        assertTrue(c.get("can_delete").asBoolean());
        JsonNode d = item(data, "dashboard", dash);
        assertTrue(d.get("archived").asBoolean());
        assertTrue(d.get("can_restore").asBoolean());
        assertTrue(d.get("can_delete").asBoolean());
        JsonNode coll = item(data, "collection", box);
        assertTrue(coll.get("archived").asBoolean());
        assertTrue(coll.get("can_restore").asBoolean());
        assertFalse(coll.get("can_delete").asBoolean());
        assertEquals("/" + trashId + "/", coll.get("effective_location").asText());
        assertTrue(item(data, "card", rootCard).get("can_restore").asBoolean());
        // models filter
        for (JsonNode n : admin.get(200, "collection/" + trashId + "/items", "models", "card").json().get("data")) {
            assertEquals("card", n.get("model").asText());
        }
        for (JsonNode n : admin.get(200, "collection/" + trashId + "/items", "models", "dashboard").json().get("data")) {
            assertEquals("dashboard", n.get("model").asText());
        }

        // the archived collection lists its contents, archived with it
        List<String> inside = models(admin.get(200, "collection/" + box + "/items").json().get("data"));
        assertTrue(inside.containsAll(List.of("card:Inner card", "collection:Box child")), inside.toString());
        assertFalse(inside.contains("card:Lone card"));
        JsonNode innerRow = item(admin.get(200, "collection/" + box + "/items").json().get("data"), "card", inner);
        assertTrue(innerRow.get("archived").asBoolean());
        assertFalse(innerRow.get("can_restore").asBoolean());
        assertEquals(List.of("Inner dashboard"), names(admin.get(200, "collection/" + sub + "/items").json().get("data")));

        // the GETs say it too
        JsonNode gotCard = admin.get(200, "card/" + card).json();
        assertTrue(gotCard.get("archived").asBoolean());
        assertTrue(gotCard.get("can_restore").asBoolean());
        assertTrue(gotCard.get("can_delete").asBoolean());
        assertFalse(admin.get(200, "card/" + inner).json().get("can_restore").asBoolean());
        JsonNode gotDash = admin.get(200, "dashboard/" + dash).json();
        assertTrue(gotDash.get("archived").asBoolean());
        assertTrue(gotDash.get("can_restore").asBoolean());
        assertTrue(gotDash.get("can_delete").asBoolean());
        JsonNode gotBox = admin.get(200, "collection/" + box).json();
        assertTrue(gotBox.get("archived").asBoolean());
        assertTrue(gotBox.get("can_restore").asBoolean());
        assertFalse(gotBox.get("can_delete").asBoolean());
        assertEquals("/" + trashId + "/", gotBox.get("effective_location").asText());
        assertFalse(admin.get(200, "collection/" + sub).json().get("can_restore").asBoolean());
        // and the live collection no longer shows them
        List<String> homeItems = models(admin.get(200, "collection/" + home + "/items").json().get("data"));
        assertFalse(homeItems.contains("card:Lone card") || homeItems.contains("dashboard:Lone dashboard")
                || homeItems.contains("collection:Box to bin"), homeItems.toString());

        // restore: each goes back where it was
        JsonNode back = admin.put(200, "card/" + card, map("archived", false)).json();
        assertFalse(back.get("archived").asBoolean());
        assertEquals(home, back.get("collection_id").asLong());
        admin.put(200, "dashboard/" + dash, map("archived", false));
        assertEquals(home, admin.get(200, "dashboard/" + dash).json().get("collection_id").asLong());
        admin.put(200, "card/" + rootCard, map("archived", false));
        assertTrue(admin.get(200, "card/" + rootCard).json().get("collection_id").isNull());
        JsonNode boxBack = admin.put(200, "collection/" + box, map("archived", false)).json();
        assertFalse(boxBack.get("archived").asBoolean());
        assertEquals("/" + home + "/", boxBack.get("location").asText());
        assertFalse(admin.get(200, "card/" + inner).json().get("archived").asBoolean());
        assertFalse(admin.get(200, "dashboard/" + innerDash).json().get("archived").asBoolean());
        List<String> homeAgain = models(admin.get(200, "collection/" + home + "/items").json().get("data"));
        assertTrue(homeAgain.containsAll(List.of("card:Lone card", "dashboard:Lone dashboard", "collection:Box to bin")),
                homeAgain.toString());
        List<String> left = models(trashItems(admin).get("data"));
        for (String gone : List.of("card:Lone card", "dashboard:Lone dashboard", "collection:Box to bin", "card:Root card")) {
            assertFalse(left.contains(gone), left.toString());
        }
    }

    @Test
    void restoreIntoAnotherCollection() {
        long from = collection(admin, "From here", null);
        long to = collection(admin, "To there", null);
        long card = card(admin, "Travelling card", from);
        long dash = dashboard(admin, "Travelling dashboard", from);
        long coll = collection(admin, "Travelling collection", from);
        admin.put(200, "card/" + card, map("archived", true));
        admin.put(200, "dashboard/" + dash, map("archived", true));
        admin.put(200, "collection/" + coll, map("archived", true));
        // the collection it came from goes away: nothing can go back there
        admin.put(200, "collection/" + from, map("archived", true));
        JsonNode data = trashItems(admin).get("data");
        assertFalse(item(data, "card", card).get("can_restore").asBoolean());
        assertFalse(item(data, "dashboard", dash).get("can_restore").asBoolean());
        assertFalse(item(data, "collection", coll).get("can_restore").asBoolean());
        assertTrue(item(data, "collection", from).get("can_restore").asBoolean());
        // restore and move at once
        JsonNode c = admin.put(200, "card/" + card, map("archived", false, "collection_id", to)).json();
        assertFalse(c.get("archived").asBoolean());
        assertEquals(to, c.get("collection_id").asLong());
        admin.put(200, "dashboard/" + dash, map("archived", false, "collection_id", to));
        JsonNode dashNow = admin.get(200, "dashboard/" + dash).json();
        assertFalse(dashNow.get("archived").asBoolean());
        assertEquals(to, dashNow.get("collection_id").asLong());
        JsonNode k = admin.put(200, "collection/" + coll, map("archived", false, "parent_id", to)).json();
        assertFalse(k.get("archived").asBoolean());
        assertEquals("/" + to + "/", k.get("location").asText());
        List<String> there = models(admin.get(200, "collection/" + to + "/items").json().get("data"));
        assertTrue(there.containsAll(List.of("card:Travelling card", "dashboard:Travelling dashboard",
                "collection:Travelling collection")), there.toString());
    }

    @Test
    void ordinaryUsersSeeOnlyWhatTheyMayRestore() {
        CollectionSupport.Person bob = CollectionSupport.person(api, admin, "Bob", "Binner");
        long secret = collection(admin, "Secret shelf", null);
        CollectionSupport.grantAllUsers(admin, secret, "none");
        long readOnly = collection(admin, "Read shelf", null);
        CollectionSupport.grantAllUsers(admin, readOnly, "read");
        long open = collection(admin, "Open shelf", null);
        CollectionSupport.grantAllUsers(admin, open, "write");
        long hidden = card(admin, "Hidden trashed card", secret);
        long readable = card(admin, "Read-only trashed card", readOnly);
        long mine = card(bob.api(), "Bob trashed card", open);
        long openDash = dashboard(admin, "Open trashed dashboard", open);
        long secretChild = collection(admin, "Secret child", secret);
        admin.put(200, "card/" + hidden, map("archived", true));
        admin.put(200, "card/" + readable, map("archived", true));
        bob.api().put(200, "card/" + mine, map("archived", true));
        admin.put(200, "dashboard/" + openDash, map("archived", true));
        admin.put(200, "collection/" + secretChild, map("archived", true));

        List<String> seen = models(trashItems(bob.api()).get("data"));
        assertTrue(seen.containsAll(List.of("card:Bob trashed card", "dashboard:Open trashed dashboard")), seen.toString());
        assertFalse(seen.contains("card:Hidden trashed card"), seen.toString());
        assertFalse(seen.contains("collection:Secret child"), seen.toString());
        // Metabase shows in the Trash only what the user could restore (write on the original collection)
        assertFalse(seen.contains("card:Read-only trashed card"), seen.toString());
        assertTrue(item(trashItems(bob.api()).get("data"), "card", mine).get("can_restore").asBoolean());
        // superusers see everything
        List<String> all = models(trashItems(admin).get("data"));
        assertTrue(all.containsAll(List.of("card:Hidden trashed card", "card:Read-only trashed card", "card:Bob trashed card",
                "dashboard:Open trashed dashboard", "collection:Secret child")), all.toString());
        // no rights on the card's collection: no GET of the card, no restore
        bob.api().get(403, "card/" + hidden);
        bob.api().put(403, "card/" + hidden, map("archived", false));
        assertTrue(admin.get(200, "card/" + hidden).json().get("archived").asBoolean());
        // the user restores his own card
        bob.api().put(200, "card/" + mine, map("archived", false));
        assertFalse(models(trashItems(bob.api()).get("data")).contains("card:Bob trashed card"));
        assertNull(item(trashItems(admin).get("data"), "card", mine));
    }
}
