package io.quarry.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/segment} over HTTP on the Sample Database: who may read and write, validation with Metabase's messages
 * (and nothing written on failure), revisions with their messages, reverting, archiving, related entities, and
 * {@code ["segment", id]} in structured queries returning the same numbers as the plain filter.
 */
class SegmentIT {
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static Path sample;
    private static long sampleId;
    private static long products;
    private static long orders;
    private static long category;
    private static long price;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
        sample = SampleDatabase.ensure(Path.of("target", "mbql-sample").toAbsolutePath());
        sampleId = admin.post(200, "database", Map.of("engine", "h2", "name", "Sample Database", "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password", SampleDatabase.PASSWORD)))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(sampleId).get();
        products = AppDbSql.count(server, "SELECT id FROM metabase_table WHERE db_id = ? AND name = 'PRODUCTS'", sampleId);
        orders = AppDbSql.count(server, "SELECT id FROM metabase_table WHERE db_id = ? AND name = 'ORDERS'", sampleId);
        category = AppDbSql.count(server, "SELECT id FROM metabase_field WHERE table_id = ? AND name = 'CATEGORY'", products);
        price = AppDbSql.count(server, "SELECT id FROM metabase_field WHERE table_id = ? AND name = 'PRICE'", products);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long reference(String sql) throws Exception {
        try (Connection c = SampleDatabase.connect(sample); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<Object> field(long id) {
        return java.util.Arrays.asList("field", id, null);
    }

    private static Map<String, Object> definition(String value) {
        return Map.of("source-table", products, "filter", List.of("=", field(category), value));
    }

    private static long create(String name, String value) {
        return admin.post(200, "segment", Map.of("name", name, "table_id", products, "definition", definition(value)))
                .json().get("id").asLong();
    }

    /** COUNT(*) of PRODUCTS through POST /api/dataset with this filter. */
    private static long count(Api api, Object filter) {
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("source-table", products);
        query.put("aggregation", List.of(List.of("count")));
        if (filter != null) {
            query.put("filter", filter);
        }
        JsonNode result = api.post(202, "dataset", Map.of("database", sampleId, "type", "query", "query", query)).json();
        assertEquals("completed", result.get("status").asText(), result.toString());
        return result.get("data").get("rows").get(0).get(0).asLong();
    }

    private static long segments() {
        return AppDbSql.count(server, "SELECT COUNT(*) FROM segment");
    }

    private static long revisionRows(long id) {
        return AppDbSql.count(server, "SELECT COUNT(*) FROM revision WHERE model = 'Segment' AND model_id = ?", id);
    }

    @Test
    void anonymousCallersAreTurnedAway() {
        long id = create("Anonymous check", "Gizmo");
        assertEquals("Unauthenticated", anonymous.get(401, "segment").body());
        assertEquals("Unauthenticated", anonymous.get(401, "segment/" + id).body());
        assertEquals("Unauthenticated", anonymous.post(401, "segment", Map.of("name", "x", "table_id", products,
                "definition", definition("Gizmo"))).body());
        assertEquals("Unauthenticated", anonymous.put(401, "segment/" + id, Map.of("name", "y", "revision_message", "m")).body());
        assertEquals("Unauthenticated", anonymous.delete(401, "segment/" + id, "revision_message", "m").body());
        assertEquals("Unauthenticated", anonymous.get(401, "segment/" + id + "/revisions").body());
        assertEquals("Unauthenticated", anonymous.post(401, "segment/" + id + "/revert", Map.of("revision_id", 1)).body());
        assertEquals("Unauthenticated", anonymous.get(401, "segment/" + id + "/related").body());
    }

    @Test
    void ordinaryUsersReadButDoNotWrite() {
        long id = create("Read only for users", "Widget");
        long revisionId = admin.get(200, "segment/" + id + "/revisions").json().get(0).get("id").asLong();
        assertEquals("Read only for users", user.get(200, "segment/" + id).json().get("name").asText());
        boolean listed = false;
        for (JsonNode s : user.get(200, "segment").json()) {
            listed |= s.get("id").asLong() == id;
        }
        assertTrue(listed);
        assertEquals(1, user.get(200, "segment/" + id + "/revisions").json().size());
        assertEquals(products, user.get(200, "segment/" + id + "/related").json().get("table").get("id").asLong());
        long before = segments();
        String denied = "You don't have permissions to do that.";
        assertEquals(denied, user.post(403, "segment", Map.of("name", "Mine", "table_id", products, "definition", definition("Gizmo"))).body());
        assertEquals(before, segments());
        assertEquals(denied, user.put(403, "segment/" + id, Map.of("name", "Renamed", "revision_message", "mine now")).body());
        assertEquals(denied, user.delete(403, "segment/" + id, "revision_message", "gone").body());
        assertEquals(denied, user.post(403, "segment/" + id + "/revert", Map.of("revision_id", revisionId)).body());
        JsonNode after = admin.get(200, "segment/" + id).json();
        assertEquals("Read only for users", after.get("name").asText());
        assertFalse(after.get("archived").asBoolean());
        assertEquals(1, revisionRows(id));
    }

    /**
     * Reading a segment needs data access to its table: on a second database where All Users are blocked, a user with
     * only All Users gets 403 on every read endpoint and never sees the segment listed; a user whose group may query
     * the database still reads it, as do admins.
     */
    @Test
    void readingNeedsDataAccessToTheSegmentsTable() throws Exception {
        long shop = admin.post(200, "database", Map.of("engine", "h2", "name", "Guarded shop", "details",
                Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(shop).get();
        long shopOrders = AppDbSql.count(server, "SELECT id FROM metabase_table WHERE db_id = ? AND name = 'ORDERS'", shop);
        long id = admin.post(200, "segment", Map.of("name", "Guarded orders", "table_id", shopOrders,
                "definition", Map.of("source-table", shopOrders))).json().get("id").asLong();
        long readers = admin.post(200, "permissions/group", Map.of("name", "Segment readers")).json().get("id").asLong();
        graph(1, shop, Map.of("view-data", "blocked"));
        graph(readers, shop, Map.of("view-data", "unrestricted", "create-queries", "query-builder"));
        Api blocked = signedIn("segment-blocked@example.com");
        Api reader = signedIn("segment-reader@example.com", readers);

        String denied = "You don't have permissions to do that.";
        assertEquals(denied, blocked.get(403, "segment/" + id).body());
        assertEquals(denied, blocked.get(403, "segment/" + id + "/revisions").body());
        assertEquals(denied, blocked.get(403, "segment/" + id + "/related").body());
        blocked.get(404, "segment/999999");
        assertTrue(listedIds(blocked).stream().noneMatch(listed -> listed == id), "a blocked user's list leaves the segment out");
        for (JsonNode listed : blocked.get(200, "segment").json()) {
            assertTrue(listed.get("table_id").asLong() != shopOrders, "no segment of the blocked database is listed");
        }

        assertEquals("Guarded orders", reader.get(200, "segment/" + id).json().get("name").asText());
        assertEquals(1, reader.get(200, "segment/" + id + "/revisions").json().size());
        assertEquals(shopOrders, reader.get(200, "segment/" + id + "/related").json().get("table").get("id").asLong());
        assertTrue(listedIds(reader).contains(id));
        assertTrue(listedIds(admin).contains(id));
        assertTrue(listedIds(user).size() < listedIds(admin).size(), "the API-key user in All Users only is blocked too");

        // once All Users may query the database again, everyone reads the segment
        graph(1, shop, Map.of("view-data", "unrestricted", "create-queries", "query-builder"));
        assertEquals("Guarded orders", blocked.get(200, "segment/" + id).json().get("name").asText());
        assertTrue(listedIds(blocked).contains(id));
    }

    private static List<Long> listedIds(Api api) {
        List<Long> ids = new java.util.ArrayList<>();
        api.get(200, "segment").json().forEach(s -> ids.add(s.get("id").asLong()));
        return ids;
    }

    /** Sets one group's permissions on one database through PUT /api/permissions/graph. */
    private static void graph(long group, long database, Map<String, Object> perms) {
        long revision = admin.get(200, "permissions/graph").json().get("revision").asLong();
        admin.put(200, "permissions/graph", Map.of("revision", revision,
                "groups", Map.of(String.valueOf(group), Map.of(String.valueOf(database), perms))));
    }

    /** A new signed-in user in All Users and the given groups. */
    private static Api signedIn(String email, long... groups) {
        List<Map<String, Object>> memberships = new java.util.ArrayList<>();
        memberships.add(Map.of("id", 1));
        for (long g : groups) {
            memberships.add(Map.of("id", g));
        }
        admin.post(200, "user", Map.of("email", email, "first_name", "Seg", "last_name", "Ment", "password", "Sunny-day-77",
                "user_group_memberships", memberships));
        return anonymous.as(Fixtures.login(anonymous, email, "Sunny-day-77"));
    }

    @Test
    void creationValidatesEveryFieldAndWritesNothingOnFailure() {
        long before = segments();
        JsonNode errors = admin.post(400, "segment", Map.of()).json().get("errors");
        assertEquals("value must be a non-blank string.", errors.get("name").asText());
        assertEquals("value must be an integer greater than zero.", errors.get("table_id").asText());
        assertEquals("Value must be a map.", errors.get("definition").asText());

        Map<String, Object> bad = new HashMap<>();
        bad.put("name", "  ");
        bad.put("table_id", "abc");
        bad.put("definition", "filter");
        bad.put("description", 5);
        errors = admin.post(400, "segment", bad).json().get("errors");
        assertEquals("value must be a non-blank string.", errors.get("name").asText());
        assertEquals("value must be an integer greater than zero.", errors.get("table_id").asText());
        assertEquals("Value must be a map.", errors.get("definition").asText());
        assertEquals("nullable value must be a string.", errors.get("description").asText());

        assertEquals("value must be an integer greater than zero.", admin.post(400, "segment", Map.of("name", "n", "table_id", -3,
                "definition", definition("Gizmo"))).json().get("errors").get("table_id").asText());
        assertEquals("Table does not exist.", admin.post(400, "segment", Map.of("name", "n", "table_id", 987654,
                "definition", Map.of("filter", List.of("=", field(category), "Gizmo")))).json()
                .get("errors").get("table_id").asText());
        assertEquals("The definition's source-table must be the segment's table.", admin.post(400, "segment", Map.of("name", "n",
                "table_id", products, "definition", Map.of("source-table", orders))).json().get("errors").get("definition").asText());
        assertEquals("The definition's filter must be an MBQL filter clause.", admin.post(400, "segment", Map.of("name", "n",
                "table_id", products, "definition", Map.of("filter", "CATEGORY = 'Gizmo'"))).json().get("errors").get("definition").asText());
        assertEquals(before, segments());
        assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM revision WHERE model = 'Segment' AND model_id NOT IN (SELECT id FROM segment)"));
    }

    @Test
    void aSegmentFilterCountsWhatThePlainFilterCounts() throws Exception {
        long gizmo = create("Gizmo products", "Gizmo");
        JsonNode segment = admin.get(200, "segment/" + gizmo).json();
        assertEquals("Gizmo products", segment.get("name").asText());
        assertEquals(products, segment.get("table_id").asLong());
        assertEquals(products, segment.get("definition").get("source-table").asLong());
        assertEquals("Crowberto Corv", segment.get("creator").get("common_name").asText());
        assertEquals(Fixtures.ADMIN_EMAIL, segment.get("creator").get("email").asText());
        assertFalse(segment.get("archived").asBoolean());
        assertTrue(segment.get("entity_id").asText().length() == 21);

        long expected = reference("SELECT COUNT(*) FROM PUBLIC.PRODUCTS WHERE CATEGORY = 'Gizmo'");
        assertTrue(expected > 0);
        assertEquals(expected, count(admin, List.of("=", field(category), "Gizmo")));
        assertEquals(expected, count(admin, List.of("segment", gizmo)));
        assertEquals(expected, count(user, List.of("segment", gizmo)));
        // combined with another filter
        long cheap = reference("SELECT COUNT(*) FROM PUBLIC.PRODUCTS WHERE CATEGORY = 'Gizmo' AND PRICE < 50");
        assertEquals(cheap, count(admin, List.of("and", List.of("segment", gizmo), List.of("<", field(price), 50))));

        JsonNode missing = admin.post(400, "dataset", Map.of("database", sampleId, "type", "query", "query",
                Map.of("source-table", products, "filter", List.of("segment", 99999)))).json();
        assertEquals("failed", missing.get("status").asText());
        assertEquals("Segment 99999 not found.", missing.get("error").asText());

        boolean described = false;
        for (JsonNode s : admin.get(200, "segment").json()) {
            if (s.get("id").asLong() == gizmo) {
                assertEquals("Filtered by Category is Gizmo", s.get("definition_description").asText());
                described = true;
            }
        }
        assertTrue(described);
    }

    @Test
    void changesAreRevisionedAndCanBeReverted() throws Exception {
        long id = create("Revisioned", "Gizmo");
        long gizmos = reference("SELECT COUNT(*) FROM PUBLIC.PRODUCTS WHERE CATEGORY = 'Gizmo'");
        long widgets = reference("SELECT COUNT(*) FROM PUBLIC.PRODUCTS WHERE CATEGORY = 'Widget'");

        // revision_message is required: nothing changes without it
        assertEquals("value must be a non-blank string.",
                admin.put(400, "segment/" + id, Map.of("name", "No message")).json().get("errors").get("revision_message").asText());
        assertEquals("value must be a non-blank string.", admin.put(400, "segment/" + id,
                Map.of("name", "Blank message", "revision_message", " ")).json().get("errors").get("revision_message").asText());
        JsonNode errors = admin.put(400, "segment/" + id, Map.of("name", "", "definition", 7, "archived", "maybe",
                "revision_message", "bad")).json().get("errors");
        assertEquals("nullable value must be a non-blank string.", errors.get("name").asText());
        assertEquals("nullable Value must be a map.", errors.get("definition").asText());
        assertEquals("nullable value must be a boolean.", errors.get("archived").asText());
        assertEquals("Revisioned", admin.get(200, "segment/" + id).json().get("name").asText());
        assertEquals(1, revisionRows(id));

        JsonNode renamed = admin.put(200, "segment/" + id, Map.of("name", "Widgets", "definition", definition("Widget"),
                "revision_message", "Widgets now")).json();
        assertEquals("Widgets", renamed.get("name").asText());
        assertEquals(widgets, count(admin, List.of("segment", id)));

        JsonNode history = admin.get(200, "segment/" + id + "/revisions").json();
        assertEquals(2, history.size());
        JsonNode latest = history.get(0);
        assertEquals("Widgets now", latest.get("message").asText());
        assertFalse(latest.get("is_creation").asBoolean());
        assertFalse(latest.get("is_reversion").asBoolean());
        assertEquals("renamed this Segment from \"Revisioned\" to \"Widgets\".", latest.get("description").asText());
        assertEquals("Revisioned", latest.get("diff").get("name").get("before").asText());
        assertEquals("Widgets", latest.get("diff").get("name").get("after").asText());
        assertEquals("Gizmo", latest.get("diff").get("definition").get("before").get("filter").get(2).asText());
        assertEquals("Widget", latest.get("diff").get("definition").get("after").get("filter").get(2).asText());
        assertEquals("Crowberto", latest.get("user").get("first_name").asText());
        assertEquals("Crowberto Corv", latest.get("user").get("common_name").asText());
        assertTrue(latest.has("timestamp"));
        JsonNode creation = history.get(1);
        assertTrue(creation.get("is_creation").asBoolean());
        assertEquals("created this.", creation.get("description").asText());
        assertEquals("Revisioned", creation.get("diff").get("name").get("after").asText());

        // the same values again: no new revision, as Metabase
        admin.put(200, "segment/" + id, Map.of("name", "Widgets", "revision_message", "again"));
        assertEquals(2, revisionRows(id));

        // reverting: bad input, someone else's revision, unknown ids
        assertEquals("value must be an integer greater than zero.", admin.post(400, "segment/" + id + "/revert", Map.of())
                .json().get("errors").get("revision_id").asText());
        assertEquals("value must be an integer greater than zero.", admin.post(400, "segment/" + id + "/revert",
                Map.of("revision_id", "first")).json().get("errors").get("revision_id").asText());
        long other = create("Other", "Doohickey");
        long otherRevision = admin.get(200, "segment/" + other + "/revisions").json().get(0).get("id").asLong();
        admin.post(404, "segment/" + id + "/revert", Map.of("revision_id", otherRevision));
        admin.post(404, "segment/" + id + "/revert", Map.of("revision_id", 999999));
        admin.post(404, "segment/999999/revert", Map.of("revision_id", creation.get("id").asLong()));
        assertEquals("Widgets", admin.get(200, "segment/" + id).json().get("name").asText());
        assertEquals(2, revisionRows(id));

        JsonNode reverted = admin.post(200, "segment/" + id + "/revert", Map.of("revision_id", creation.get("id").asLong())).json();
        assertTrue(reverted.get("is_reversion").asBoolean());
        assertEquals("reverted to an earlier version.", reverted.get("description").asText());
        JsonNode back = admin.get(200, "segment/" + id).json();
        assertEquals("Revisioned", back.get("name").asText());
        assertEquals("Gizmo", back.get("definition").get("filter").get(2).asText());
        assertEquals(gizmos, count(admin, List.of("segment", id)));
        assertEquals(3, admin.get(200, "segment/" + id + "/revisions").json().size());
    }

    @Test
    void archivingThroughPutAndTheDeprecatedDelete() {
        long id = create("To archive", "Gadget");
        assertEquals("value must be a non-blank string.",
                admin.delete(400, "segment/" + id).json().get("errors").get("revision_message").asText());
        assertFalse(admin.get(200, "segment/" + id).json().get("archived").asBoolean());
        admin.delete(404, "segment/999999", "revision_message", "gone");
        admin.delete(400, "segment/abc", "revision_message", "gone");

        assertEquals(204, admin.delete(204, "segment/" + id, "revision_message", "not needed").status());
        assertTrue(admin.get(200, "segment/" + id).json().get("archived").asBoolean());
        for (JsonNode s : admin.get(200, "segment").json()) {
            assertFalse(s.get("id").asLong() == id, "archived segments are not listed");
        }
        JsonNode latest = admin.get(200, "segment/" + id + "/revisions").json().get(0);
        assertEquals("not needed", latest.get("message").asText());
        assertEquals("trashed this Segment.", latest.get("description").asText());

        JsonNode restored = admin.put(200, "segment/" + id, Map.of("archived", false, "revision_message", "needed after all")).json();
        assertFalse(restored.get("archived").asBoolean());
        assertEquals("untrashed this Segment.", admin.get(200, "segment/" + id + "/revisions").json().get(0).get("description").asText());

        // clearing description with null; other nulls leave fields alone
        Map<String, Object> body = new HashMap<>();
        body.put("description", "All gadgets");
        body.put("caveats", "Only some");
        body.put("revision_message", "described");
        admin.put(200, "segment/" + id, body);
        body = new HashMap<>();
        body.put("description", null);
        body.put("name", null);
        body.put("revision_message", "cleared");
        JsonNode cleared = admin.put(200, "segment/" + id, body).json();
        assertTrue(cleared.get("description").isNull());
        assertEquals("Only some", cleared.get("caveats").asText());
        assertEquals("To archive", cleared.get("name").asText());
    }

    @Test
    void unknownSegmentsAreNotFound() {
        assertEquals("Not found.", admin.get(404, "segment/999999").body());
        admin.get(404, "segment/999999/revisions");
        admin.get(404, "segment/999999/related");
        admin.put(404, "segment/999999", Map.of("name", "x", "revision_message", "m"));
        assertTrue(admin.get(400, "segment/0").body().contains("id"));
    }

    @Test
    void relatedListsTheTableAndItsOtherSegments() {
        long a = create("Related A", "Gizmo");
        long b = create("Related B", "Widget");
        JsonNode related = admin.get(200, "segment/" + a + "/related").json();
        assertEquals(products, related.get("table").get("id").asLong());
        assertEquals("PRODUCTS", related.get("table").get("name").asText());
        assertTrue(related.get("metrics").isArray());
        boolean hasB = false;
        for (JsonNode s : related.get("segments")) {
            assertFalse(s.get("id").asLong() == a, "not itself");
            hasB |= s.get("id").asLong() == b;
        }
        assertTrue(hasB);
        assertTrue(related.get("linked-from").isArray());
    }
}
