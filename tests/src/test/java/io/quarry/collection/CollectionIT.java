package io.quarry.collection;

import static io.quarry.collection.CollectionSupport.collection;
import static io.quarry.collection.CollectionSupport.ids;
import static io.quarry.collection.CollectionSupport.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Collections: create, read, update, move with the subtree, archive/unarchive cascades, personal collections. */
class CollectionIT {
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

    private static long count(String sql, Object... params) {
        return AppDbSql.count(server, sql, params);
    }

    @Test
    void anonymousCallersAreRejected() {
        assertEquals("Unauthenticated", api.get(401, "collection").body());
        api.get(401, "collection/tree");
        api.get(401, "collection/root");
        api.get(401, "collection/root/items");
        api.get(401, "collection/1");
        api.post(401, "collection", map("name", "X"));
        api.put(401, "collection/1", map("name", "X"));
    }

    @Test
    void createValidatesEveryFieldAndWritesNothingOnError() {
        long before = count("SELECT COUNT(*) FROM collection");
        JsonNode errors = admin.post(400, "collection", map("name", " ", "parent_id", "x", "authority_level", "gold",
                "description", "", "namespace", "")).json().get("errors");
        assertEquals("value must be a non-blank string.", errors.get("name").asText());
        assertEquals("nullable value must be an integer greater than zero.", errors.get("parent_id").asText());
        assertEquals("nullable enum of official", errors.get("authority_level").asText());
        assertEquals("nullable value must be a non-blank string.", errors.get("description").asText());
        assertEquals("nullable value must be a non-blank string.", errors.get("namespace").asText());
        assertEquals("value must be a non-blank string.",
                admin.post(400, "collection", map()).json().get("errors").get("name").asText());
        admin.post(400, "collection", map("name", "Neg", "parent_id", -3));
        assertEquals("Not found.", admin.post(404, "collection", map("name", "Orphan", "parent_id", 999999)).body());
        assertEquals(before, count("SELECT COUNT(*) FROM collection"));
        admin.get(400, "collection/abc");
        assertEquals("Not found.", admin.get(404, "collection/999999").body());
    }

    @Test
    void createReadAndTheSubtreeShape() {
        long a = collection(admin, "Sales Team", null);
        long b = collection(admin, "EMEA / Q1", a);
        JsonNode got = admin.get(200, "collection/" + b).json();
        assertEquals("EMEA / Q1", got.get("name").asText());
        assertEquals("emea_q1", got.get("slug").asText());
        assertEquals("/" + a + "/", got.get("location").asText());
        assertEquals("/" + a + "/", got.get("effective_location").asText());
        assertEquals(a, got.get("parent_id").asLong());
        assertTrue(got.get("can_write").asBoolean());
        assertFalse(got.get("is_personal").asBoolean());
        assertFalse(got.get("archived").asBoolean());
        assertEquals(21, got.get("entity_id").asText().length());
        JsonNode ancestors = got.get("effective_ancestors");
        assertEquals("root", ancestors.get(0).get("id").asText());
        assertEquals("Our analytics", ancestors.get(0).get("name").asText());
        assertEquals(a, ancestors.get(1).get("id").asLong());
        // the new collections copied Root's rows (All Users write) and then their parent's
        assertEquals(1, count("SELECT COUNT(*) FROM collection_permission WHERE collection_id = ? AND group_id = 1 AND perm = 'write'", b));
        // the list starts with the Root and carries can_write on each
        JsonNode list = admin.get(200, "collection").json();
        assertEquals("root", list.get(0).get("id").asText());
        assertTrue(ids(list).containsAll(List.of(a, b)));
        for (JsonNode c : list) {
            assertTrue(c.has("can_write"));
        }
    }

    @Test
    void ordinaryUsersNeedRightsAndGetTheirOwnPersonalCollection() {
        CollectionSupport.Person ann = CollectionSupport.person(api, admin, "Ann", "Archer");
        CollectionSupport.Person bob = CollectionSupport.person(api, admin, "Bob", null);
        long annPersonal = ann.api().get(200, "user/current").json().get("personal_collection_id").asLong();
        JsonNode own = ann.api().get(200, "collection/" + annPersonal).json();
        assertEquals("Ann Archer's Personal Collection", own.get("name").asText());
        assertEquals(ann.id(), own.get("personal_owner_id").asLong());
        assertTrue(own.get("is_personal").asBoolean());
        assertTrue(own.get("can_write").asBoolean());
        // somebody else's personal collection: 403, and never listed
        assertEquals("You don't have permissions to do that.", bob.api().get(403, "collection/" + annPersonal).body());
        assertFalse(ids(bob.api().get(200, "collection").json()).contains(annPersonal));
        assertFalse(ids(bob.api().get(200, "collection/tree").json()).contains(annPersonal));
        bob.api().get(403, "collection/" + annPersonal + "/items");
        bob.api().post(403, "collection", map("name", "Sneaky", "parent_id", annPersonal));
        // admins see every personal collection unless they exclude them
        assertTrue(ids(admin.get(200, "collection").json()).contains(annPersonal));
        assertFalse(ids(admin.get(200, "collection", "exclude-other-user-collections", "true").json()).contains(annPersonal));
        JsonNode personalOnly = admin.get(200, "collection", "personal-only", "true").json();
        assertTrue(ids(personalOnly).contains(annPersonal));
        for (JsonNode c : personalOnly) {
            assertFalse(c.get("personal_owner_id").isNull());
        }
        // a user without a last name: "Bob's Personal Collection"
        long bobPersonal = bob.api().get(200, "user/current").json().get("personal_collection_id").asLong();
        assertEquals("Bob's Personal Collection", bob.api().get(200, "collection/" + bobPersonal).json().get("name").asText());
        // one personal collection per user, however often asked
        assertEquals(1, count("SELECT COUNT(*) FROM collection WHERE personal_owner_id = ?", ann.id()));
        // personal collections cannot be moved or archived
        long shared = collection(admin, "Shared", null);
        assertEquals("You cannot move a Personal Collection.",
                admin.put(400, "collection/" + annPersonal, map("parent_id", shared)).body());
        assertEquals("You cannot archive a Personal Collection.",
                ann.api().put(400, "collection/" + annPersonal, map("archived", true)).body());
        // a collection inside a personal collection gets no graph rows and stays private
        long inside = collection(ann.api(), "Drafts", annPersonal);
        assertEquals(0, count("SELECT COUNT(*) FROM collection_permission WHERE collection_id = ?", inside));
        bob.api().get(403, "collection/" + inside);
        JsonNode insideView = ann.api().get(200, "collection/" + inside).json();
        assertTrue(insideView.get("is_personal").asBoolean());
        // content nested in a personal collection is the owner's alone, even when a graph row says otherwise
        long draft = CollectionSupport.card(server, dbId, "Draft card", inside, "question", null);
        ann.api().get(200, "card/" + draft);
        bob.api().get(403, "card/" + draft);
        CollectionSupport.sql(server, "INSERT INTO collection_permission (group_id, collection_id, perm) VALUES (1, ?, 'write')",
                inside);
        assertEquals("You don't have permissions to do that.", bob.api().get(403, "card/" + draft).body());
        bob.api().get(403, "collection/" + inside);
        ann.api().get(200, "card/" + draft);
    }

    @Test
    void rightsComeFromTheGraph() {
        CollectionSupport.Person carl = CollectionSupport.person(api, admin, "Carl", "Cole");
        long open = collection(admin, "Open", null);
        long locked = collection(admin, "Locked", null);
        CollectionSupport.grantAllUsers(admin, locked, "none");
        carl.api().get(403, "collection/" + locked);
        carl.api().put(403, "collection/" + locked, map("name", "Mine now"));
        carl.api().post(403, "collection", map("name", "Inside", "parent_id", locked));
        assertFalse(ids(carl.api().get(200, "collection").json()).contains(locked));
        CollectionSupport.grantAllUsers(admin, locked, "read");
        JsonNode read = carl.api().get(200, "collection/" + locked).json();
        assertFalse(read.get("can_write").asBoolean());
        carl.api().put(403, "collection/" + locked, map("name", "Mine now"));
        assertEquals("Locked", admin.get(200, "collection/" + locked).json().get("name").asText());
        JsonNode renamed = carl.api().put(200, "collection/" + open, map("name", "Opened", "description", "For all")).json();
        assertEquals("Opened", renamed.get("name").asText());
        assertEquals("opened", renamed.get("slug").asText());
        assertEquals("For all", renamed.get("description").asText());
        // official collections are for superusers
        carl.api().put(403, "collection/" + open, map("authority_level", "official"));
        carl.api().post(403, "collection", map("name", "Gold", "authority_level", "official"));
        assertEquals("official", admin.put(200, "collection/" + open, map("authority_level", "official")).json()
                .get("authority_level").asText());
        assertEquals(400, admin.call("PUT", "collection/" + open, map("authority_level", "gold")).status());
    }

    @Test
    void moveTakesTheWholeSubtreeAndRefusesCycles() {
        long a = collection(admin, "Move A", null);
        long b = collection(admin, "Move B", a);
        long c = collection(admin, "Move C", b);
        long target = collection(admin, "Target", null);
        assertEquals("You cannot move a Collection into itself or into one of its descendants.",
                admin.put(400, "collection/" + a, map("parent_id", c)).body());
        admin.put(400, "collection/" + a, map("parent_id", a));
        admin.put(400, "collection/" + a, map("parent_id", "x"));
        admin.put(404, "collection/" + a, map("parent_id", 999999));
        assertEquals("/", admin.get(200, "collection/" + a).json().get("location").asText());
        assertEquals("/" + a + "/" + b + "/", admin.get(200, "collection/" + c).json().get("location").asText());
        JsonNode moved = admin.put(200, "collection/" + a, map("parent_id", target)).json();
        assertEquals("/" + target + "/", moved.get("location").asText());
        assertEquals("/" + target + "/" + a + "/", admin.get(200, "collection/" + b).json().get("location").asText());
        assertEquals("/" + target + "/" + a + "/" + b + "/", admin.get(200, "collection/" + c).json().get("location").asText());
        // back to the top
        admin.put(200, "collection/" + b, map("parent_id", null));
        assertEquals("/" + b + "/", admin.get(200, "collection/" + c).json().get("location").asText());
        // moving needs write on the new parent
        CollectionSupport.Person dora = CollectionSupport.person(api, admin, "Dora", "Dale");
        long readOnly = collection(admin, "Read only", null);
        CollectionSupport.grantAllUsers(admin, readOnly, "read");
        dora.api().put(403, "collection/" + b, map("parent_id", readOnly));
        assertEquals("/", admin.get(200, "collection/" + b).json().get("location").asText());
    }

    @Test
    void archiveCascadesAndUnarchiveRestoresExactlyThatSet() {
        long a = collection(admin, "Arch A", null);
        long b = collection(admin, "Arch B", a);
        long c = collection(admin, "Arch C", b);
        long cardA = CollectionSupport.card(server, dbId, "Card in A", a, "question", null);
        long cardC = CollectionSupport.card(server, dbId, "Card in C", c, "model", null);
        long dash = CollectionSupport.dashboard(server, "Dash in B", b);
        long alreadyGone = CollectionSupport.card(server, dbId, "Archived before", b, "question", null);
        CollectionSupport.sql(server, "UPDATE report_card SET archived = TRUE, archived_directly = TRUE WHERE id = ?", alreadyGone);
        // C archived on its own first: archiving A later must not take it over
        admin.put(200, "collection/" + c, map("archived", true));
        JsonNode archived = admin.put(200, "collection/" + a, map("archived", true)).json();
        assertTrue(archived.get("archived").asBoolean());
        assertTrue(archived.get("archived_directly").asBoolean());
        JsonNode bView = admin.get(200, "collection/" + b).json();
        assertTrue(bView.get("archived").asBoolean());
        assertFalse(bView.get("archived_directly").asBoolean());
        assertEquals(archived.get("archive_operation_id").asText(), bView.get("archive_operation_id").asText());
        assertTrue((Boolean) AppDbSql.value(server, "SELECT archived FROM report_card WHERE id = ?", cardA));
        assertTrue((Boolean) AppDbSql.value(server, "SELECT archived FROM report_dashboard WHERE id = ?", dash));
        assertFalse(ids(admin.get(200, "collection").json()).contains(a));
        assertTrue(ids(admin.get(200, "collection", "archived", "true").json()).containsAll(List.of(a, b, c)));
        // B was archived with its parent: it comes back with it, not alone
        admin.put(400, "collection/" + b, map("archived", false));
        admin.put(200, "collection/" + a, map("archived", false));
        assertFalse(admin.get(200, "collection/" + b).json().get("archived").asBoolean());
        assertFalse((Boolean) AppDbSql.value(server, "SELECT archived FROM report_card WHERE id = ?", cardA));
        assertFalse((Boolean) AppDbSql.value(server, "SELECT archived FROM report_dashboard WHERE id = ?", dash));
        assertTrue((Boolean) AppDbSql.value(server, "SELECT archived FROM report_card WHERE id = ?", alreadyGone));
        assertTrue(admin.get(200, "collection/" + c).json().get("archived").asBoolean());
        assertTrue((Boolean) AppDbSql.value(server, "SELECT archived FROM report_card WHERE id = ?", cardC));
        admin.put(200, "collection/" + c, map("archived", false));
        assertFalse((Boolean) AppDbSql.value(server, "SELECT archived FROM report_card WHERE id = ?", cardC));
        admin.put(400, "collection/" + a, map("archived", "maybe"));
    }

    @Test
    void rootCollection() {
        JsonNode root = admin.get(200, "collection/root").json();
        assertEquals("root", root.get("id").asText());
        assertEquals("Our analytics", root.get("name").asText());
        assertTrue(root.get("namespace").isNull());
        assertTrue(root.get("can_write").asBoolean());
        assertEquals("Top folder", admin.get(200, "collection/root", "namespace", "snippets").json().get("name").asText());
        admin.get(400, "collection/root", "namespace", "");
        assertEquals(Map.of(), Map.of());
    }
}
