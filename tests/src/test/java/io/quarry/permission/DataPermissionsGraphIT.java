package io.quarry.permission;

import static io.quarry.permission.PermissionFixtures.revision;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GET/PUT /api/permissions/graph: shape, defaults, revisions, partial updates, refusals that write nothing. */
class DataPermissionsGraphIT {
    private static TestServer server;
    private static Api api;
    private static Api admin;
    private static Api ordinary;
    private static long db;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(Map.of());
        api = server.api();
        admin = api.as(Fixtures.setUp(api));
        ordinary = PermissionFixtures.user(api, admin);
        db = PermissionFixtures.addShop(server, admin, "Shop");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static JsonNode perms(JsonNode graph, long group, long database) {
        return graph.get("groups").path(String.valueOf(group)).path(String.valueOf(database));
    }

    private static long dataRevisions() {
        return AppDbSql.count(server, "SELECT COUNT(*) FROM permissions_revision WHERE graph = 'data'");
    }

    private static long rows() {
        return AppDbSql.count(server, "SELECT COUNT(*) FROM data_permission");
    }

    @Test
    void onlySuperusersReadAndWriteTheGraph() {
        api.get(401, "permissions/graph");
        api.put(401, "permissions/graph", Map.of("revision", 0, "groups", Map.of()));
        assertEquals("You don't have permissions to do that.", ordinary.get(403, "permissions/graph").body());
        ordinary.get(403, "permissions/graph/db/" + db);
        ordinary.get(403, "permissions/graph/group/1");
        ordinary.put(403, "permissions/graph", Map.of("revision", revision(admin), "groups", Map.of()));
    }

    @Test
    void newDatabasesAndGroupsGetMetabaseDefaults() throws Exception {
        JsonNode graph = admin.get(200, "permissions/graph").json();
        assertTrue(graph.get("revision").isIntegralNumber());
        JsonNode allUsers = perms(graph, 1, db);
        assertEquals("unrestricted", allUsers.get("view-data").asText());
        assertEquals("query-builder-and-native", allUsers.get("create-queries").asText());
        assertEquals("full", allUsers.get("download").get("schemas").asText());
        assertFalse(allUsers.has("details"), "least permissive values are left out");
        JsonNode admins = perms(graph, 2, db);
        assertEquals("unrestricted", admins.get("view-data").asText());
        assertEquals("query-builder-and-native", admins.get("create-queries").asText());
        assertEquals("all", admins.get("data-model").get("schemas").asText());
        assertEquals("yes", admins.get("details").asText());

        long group = PermissionFixtures.group(admin, "Fresh");
        JsonNode fresh = admin.get(200, "permissions/graph/group/" + group).json();
        assertEquals(1, fresh.get("groups").size(), "the group's graph holds that group only");
        assertEquals("unrestricted", perms(fresh, group, db).get("view-data").asText());
        assertEquals("query-builder-and-native", perms(fresh, group, db).get("create-queries").asText());

        // a group limited to the query builder everywhere keeps that limit on a database added later
        PermissionFixtures.grant(admin, group, db, "create-queries", "query-builder");
        long second = PermissionFixtures.addShop(server, admin, "Second shop");
        JsonNode byDb = admin.get(200, "permissions/graph/db/" + second).json();
        assertEquals("query-builder", perms(byDb, group, second).get("create-queries").asText());
        assertEquals("query-builder-and-native", perms(byDb, 1, second).get("create-queries").asText());
        assertEquals("yes", perms(byDb, 2, second).get("details").asText());
        for (var it = byDb.get("groups").fields(); it.hasNext(); ) {
            var entry = it.next();
            assertEquals(List.of(String.valueOf(second)), iterate(entry.getValue()), "the database's graph holds that database only");
        }
        admin.get(404, "permissions/graph/db/999999");
        admin.get(404, "permissions/graph/group/999999");
        assertTrue(admin.get(400, "permissions/graph/db/abc").json().get("errors").has("db-id"));
    }

    private static List<String> iterate(JsonNode object) {
        List<String> keys = new java.util.ArrayList<>();
        object.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void partialUpdatesChangeOnlyWhatWasSentAndRecordARevision() {
        long group = PermissionFixtures.group(admin, "Partial");
        long before = revision(admin);
        long revisions = dataRevisions();
        JsonNode answer = admin.put(200, "permissions/graph", Map.of("revision", before,
                "groups", Map.of(String.valueOf(group), Map.of(String.valueOf(db), Map.of("create-queries", "query-builder"))))).json();
        assertTrue(answer.get("revision").asLong() > before);
        assertEquals(List.of(String.valueOf(group)), iterate(answer.get("groups")), "the answer holds the groups sent");
        JsonNode changed = perms(answer, group, db);
        assertEquals("query-builder", changed.get("create-queries").asText());
        assertEquals("unrestricted", changed.get("view-data").asText(), "view-data was not sent and stays");
        assertEquals(revisions + 1, dataRevisions());
        JsonNode graph = admin.get(200, "permissions/graph").json();
        assertEquals(answer.get("revision").asLong(), graph.get("revision").asLong());
        assertEquals("query-builder-and-native", perms(graph, 1, db).get("create-queries").asText(), "other groups untouched");

        // blocking clears querying: both disappear from the graph (absent = least permissive)
        JsonNode blocked = PermissionFixtures.grant(admin, group, db, "view-data", "blocked");
        assertTrue(perms(blocked, group, db).isMissingNode(), blocked.toString());
        // granting queries again unblocks the data
        JsonNode regranted = PermissionFixtures.grant(admin, group, db, "create-queries", "query-builder-and-native");
        assertEquals("unrestricted", perms(regranted, group, db).get("view-data").asText());

        JsonNode skipped = admin.put(200, "permissions/graph?skip-graph=true", Map.of("revision", revision(admin),
                "groups", Map.of(String.valueOf(group), Map.of(String.valueOf(db), Map.of("details", "yes"))))).json();
        assertEquals(List.of("revision"), iterate(skipped));
        assertEquals("yes", perms(admin.get(200, "permissions/graph").json(), group, db).get("details").asText());
    }

    @Test
    void staleRevisionIsAConflictUnlessForced() {
        long group = PermissionFixtures.group(admin, "Stale");
        long current = revision(admin);
        long revisions = dataRevisions();
        Map<String, Object> change = Map.of(String.valueOf(group), Map.of(String.valueOf(db), Map.of("create-queries", "no")));
        String body = admin.put(409, "permissions/graph", Map.of("revision", current - 1, "groups", change)).body();
        assertEquals(DataPermissionGraph.STALE, body);
        assertEquals(revisions, dataRevisions());
        assertEquals("query-builder-and-native", perms(admin.get(200, "permissions/graph").json(), group, db).get("create-queries").asText());
        admin.put(200, "permissions/graph?force=true", Map.of("revision", current - 1, "groups", change));
        assertFalse(perms(admin.get(200, "permissions/graph").json(), group, db).has("create-queries"));
    }

    @Test
    void administratorsCannotBeChangedButMaySendTheirGraphBack() {
        long rows = rows();
        long current = revision(admin);
        String refused = admin.put(400, "permissions/graph", Map.of("revision", current,
                "groups", Map.of("2", Map.of(String.valueOf(db), Map.of("create-queries", "no"))))).body();
        assertEquals(DataPermissionGraph.ADMIN_FIXED, refused);
        assertEquals(current, revision(admin), "a refused change records no revision");
        assertEquals(rows, rows());
        JsonNode adminGraph = admin.get(200, "permissions/graph/group/2").json().get("groups");
        admin.put(200, "permissions/graph", Map.of("revision", current, "groups", adminGraph));
    }

    @Test
    void invalidGraphsAnswer400AndWriteNothing() {
        long group = PermissionFixtures.group(admin, "Invalid");
        long current = revision(admin);
        long revisions = dataRevisions();
        JsonNode before = admin.get(200, "permissions/graph").json().get("groups");

        Map<String, Object> dbPerms = new LinkedHashMap<>();
        dbPerms.put("view-data", "nope");
        dbPerms.put("create-queries", "query-builder"); // valid, but the whole request must fail
        dbPerms.put("colour", "blue");
        Map<String, Object> groups = new LinkedHashMap<>();
        groups.put(String.valueOf(group), Map.of(String.valueOf(db), dbPerms, "999999", Map.of("view-data", "unrestricted")));
        groups.put("not-a-group", Map.of());
        JsonNode bad = admin.put(400, "permissions/graph", Map.of("revision", current, "groups", groups)).json();
        assertEquals(DataPermissionGraph.INVALID, bad.get("errors").get("groups").asText());
        String specifics = bad.get("specific-errors").get("groups").toString();
        assertTrue(specifics.contains("view-data"), specifics);
        assertTrue(specifics.contains("colour"), specifics);
        assertTrue(specifics.contains("999999"), specifics);
        assertTrue(specifics.contains("not-a-group"), specifics);

        JsonNode noRevision = admin.put(400, "permissions/graph", Map.of("groups", Map.of())).json();
        assertEquals("value must be an integer.", noRevision.get("errors").get("revision").asText());
        JsonNode noGroups = admin.put(400, "permissions/graph", Map.of("revision", current, "groups", "all")).json();
        assertEquals("Value must be a map.", noGroups.get("errors").get("groups").asText());
        admin.put(400, "permissions/graph", List.of(1, 2));
        JsonNode nested = admin.put(400, "permissions/graph", Map.of("revision", current, "groups",
                Map.of(String.valueOf(group), Map.of(String.valueOf(db), Map.of("view-data", Map.of("PUBLIC", "blocked")))))).json();
        assertEquals(DataPermissionGraph.INVALID, nested.get("errors").get("groups").asText());

        assertEquals(current, revision(admin));
        assertEquals(revisions, dataRevisions());
        assertEquals(before, admin.get(200, "permissions/graph").json().get("groups"));
    }
}
