package io.quarry.collection;

import static io.quarry.collection.CollectionSupport.collection;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GET /api/collection/tree: nesting, here/below, hoisting under unreadable parents, filters. */
class CollectionTreeIT {
    private static TestServer server;
    private static Api api;
    private static Api admin;
    private static long dbId;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        api = server.api();
        admin = api.as(Fixtures.setUp(api));
        dbId = CollectionSupport.database(admin);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static JsonNode find(JsonNode nodes, long id) {
        for (JsonNode n : nodes) {
            if (n.get("id").asLong() == id) {
                return n;
            }
            JsonNode inChildren = n.get("children").isArray() ? find(n.get("children"), id) : null;
            if (inChildren != null) {
                return inChildren;
            }
        }
        return null;
    }

    private static Set<String> set(JsonNode array) {
        Set<String> out = new HashSet<>();
        if (array != null) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    @Test
    void nestingHereAndBelow() {
        long a = collection(admin, "Tree A", null);
        long b = collection(admin, "Tree B", a);
        long c = collection(admin, "Tree C", b);
        CollectionSupport.card(server, dbId, "q", c, "question", null);
        CollectionSupport.card(server, dbId, "m", b, "model", null);
        CollectionSupport.dashboard(server, "d", a);
        JsonNode tree = admin.get(200, "collection/tree").json();
        JsonNode nodeA = find(tree, a);
        assertNotNull(nodeA);
        assertEquals(b, nodeA.get("children").get(0).get("id").asLong());
        assertEquals(c, nodeA.get("children").get(0).get("children").get(0).get("id").asLong());
        assertEquals(Set.of("dashboard", "collection"), set(nodeA.get("here")));
        assertEquals(Set.of("card", "dataset", "collection"), set(nodeA.get("below")));
        JsonNode nodeC = find(tree, c);
        assertEquals(Set.of("card"), set(nodeC.get("here")));
        assertNull(nodeC.get("below"));
        assertTrue(nodeC.get("can_write").asBoolean());
        // shallow: one level, children as a flag
        JsonNode shallow = admin.get(200, "collection/tree", "shallow", "true", "collection-id", a).json();
        assertEquals(1, shallow.size());
        assertEquals(b, shallow.get(0).get("id").asLong());
        assertTrue(shallow.get(0).get("children").asBoolean());
        admin.get(400, "collection/tree", "collection-id", "zero");
        admin.get(400, "collection/tree", "shallow", "maybe");
        api.get(401, "collection/tree");
    }

    @Test
    void readableChildrenOfUnreadableParentsAreHoisted() {
        long secret = collection(admin, "Secret", null);
        long visible = collection(admin, "Visible child", secret);
        CollectionSupport.grantAllUsers(admin, secret, "none");
        CollectionSupport.Person fay = CollectionSupport.person(api, admin, "Fay", "Fox");
        JsonNode tree = fay.api().get(200, "collection/tree").json();
        assertNull(find(tree, secret));
        boolean top = false;
        for (JsonNode n : tree) {
            top |= n.get("id").asLong() == visible;
        }
        assertTrue(top, "hoisted to the top");
        assertEquals("/", find(tree, visible).get("effective_location").asText());
        // the owner's own personal collection is in the tree; archived ones leave with exclude-archived
        long personal = fay.api().get(200, "user/current").json().get("personal_collection_id").asLong();
        assertNotNull(find(tree, personal));
        long old = collection(admin, "Old stuff", null);
        admin.put(200, "collection/" + old, CollectionSupport.map("archived", true));
        assertNotNull(find(admin.get(200, "collection/tree").json(), old));
        assertNull(find(admin.get(200, "collection/tree", "exclude-archived", "true").json(), old));
        assertNotNull(find(admin.get(200, "collection/tree").json(), personal));
        assertNull(find(admin.get(200, "collection/tree", "exclude-other-user-collections", "true").json(), personal));
        assertFalse(fay.api().get(200, "collection/tree", "namespace", "snippets").json().toString().contains("Visible child"));
    }

    /** Each listed child collection of an items page carries the same here/below as its node in the tree. */
    @Test
    void itemsAgreeWithTheTreeOnHereAndBelow() {
        long p = collection(admin, "Agree P", null);
        long q = collection(admin, "Agree Q", p);
        long r = collection(admin, "Agree R", q);
        long s = collection(admin, "Agree S", r);
        long t = collection(admin, "Agree T", p);
        long u = collection(admin, "Agree U", t);
        long e = collection(admin, "Agree E", null);
        CollectionSupport.card(server, dbId, "q1", r, "question", null);
        CollectionSupport.card(server, dbId, "m1", s, "model", null);
        CollectionSupport.card(server, dbId, "x1", u, "metric", null);
        CollectionSupport.dashboard(server, "d1", t);
        CollectionSupport.dashboard(server, "d2", q);
        admin.put(200, "collection/" + s, CollectionSupport.map("archived", true));
        CollectionSupport.grantAllUsers(admin, q, "none");
        CollectionSupport.grantAllUsers(admin, u, "none");
        CollectionSupport.Person gil = CollectionSupport.person(api, admin, "Gil", "Gray");
        for (Api who : new Api[] {admin, gil.api()}) {
            JsonNode tree = who.get(200, "collection/tree").json();
            int compared = compare(who, tree, null);
            assertTrue(compared >= 4, "compared " + compared);
            assertNotNull(find(tree, e));
        }
    }

    private static int compare(Api who, JsonNode nodes, Long parent) {
        JsonNode items = who.get(200, parent == null ? "collection/root/items" : "collection/" + parent + "/items",
                "models", "collection").json().get("data");
        int compared = 0;
        for (JsonNode n : nodes) {
            if (!n.get("children").isArray()) {
                continue; // the Trash
            }
            long id = n.get("id").asLong();
            JsonNode item = null;
            for (JsonNode i : items) {
                if (i.get("id").asLong() == id) {
                    item = i;
                }
            }
            if (item == null) {
                continue; // other users' personal collections are not items at the top
            }
            assertEquals(set(n.get("here")), set(item.get("here")), "here of " + n.get("name"));
            assertEquals(set(n.get("below")), set(item.get("below")), "below of " + n.get("name"));
            compared += 1 + compare(who, n.get("children"), id);
        }
        return compared;
    }
}
