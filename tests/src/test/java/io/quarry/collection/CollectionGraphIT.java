package io.quarry.collection;

import static io.quarry.collection.CollectionSupport.collection;
import static io.quarry.collection.CollectionSupport.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GET/PUT /api/collection/graph: shape, revisions, partial updates, 409, admin group, validation, skip_graph. */
class CollectionGraphIT {
    private static TestServer server;
    private static Api api;
    private static Api admin;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        api = server.api();
        admin = api.as(Fixtures.setUp(api));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long revision() {
        return admin.get(200, "collection/graph").json().get("revision").asLong();
    }

    @Test
    void shapeAndPartialUpdates() {
        long x = collection(admin, "Graph X", null);
        long y = collection(admin, "Graph Y", null);
        JsonNode graph = admin.get(200, "collection/graph").json();
        assertEquals("write", graph.get("groups").get("1").get("root").asText());
        assertEquals("write", graph.get("groups").get("1").get(String.valueOf(x)).asText());
        assertEquals("write", graph.get("groups").get("2").get("root").asText());
        assertEquals("write", graph.get("groups").get("2").get(String.valueOf(y)).asText());
        long rev = graph.get("revision").asLong();
        JsonNode after = admin.put(200, "collection/graph", map("revision", rev, "groups",
                map("1", map(String.valueOf(x), "read", String.valueOf(y), "none")))).json();
        assertTrue(after.get("revision").asLong() > rev);
        assertEquals("read", after.get("groups").get("1").get(String.valueOf(x)).asText());
        assertFalse(after.get("groups").get("1").has(String.valueOf(y)), "none is omitted");
        assertEquals("write", after.get("groups").get("1").get("root").asText(), "parts not sent stay");
        assertEquals(1, AppDbSql.count(server, "SELECT COUNT(*) FROM permissions_revision WHERE graph = 'collection' AND id = ?",
                after.get("revision").asLong()));
        // skip_graph answers only the revision
        JsonNode skipped = admin.put(200, "collection/graph", map("revision", after.get("revision").asLong(), "skip_graph", true,
                "groups", map("1", map(String.valueOf(y), "read")))).json();
        assertEquals(1, skipped.size());
        assertEquals(revision(), skipped.get("revision").asLong());
        // personal collections never appear
        CollectionSupport.Person gus = CollectionSupport.person(api, admin, "Gus", "Gray");
        long personal = gus.api().get(200, "user/current").json().get("personal_collection_id").asLong();
        assertFalse(admin.get(200, "collection/graph").json().get("groups").get("2").has(String.valueOf(personal)));
    }

    @Test
    void staleRevisionsBadInputAndTheAdminGroupChangeNothing() {
        long z = collection(admin, "Graph Z", null);
        long rev = revision();
        long rows = AppDbSql.count(server, "SELECT COUNT(*) FROM collection_permission");
        assertEquals(CollectionGraph.STALE, admin.put(409, "collection/graph", map("revision", rev - 1, "groups",
                map("1", map(String.valueOf(z), "none")))).body());
        admin.put(409, "collection/graph", map("groups", map("1", map(String.valueOf(z), "none"))));
        assertTrue(admin.put(400, "collection/graph", map("revision", "x", "groups", map())).json().get("errors").has("revision"));
        assertEquals("Value must be a map.", admin.put(400, "collection/graph", map("revision", rev)).json()
                .get("errors").get("groups").asText());
        assertTrue(admin.put(400, "collection/graph", map("revision", rev, "groups", map("1", map("999999", "read"))))
                .json().get("errors").has("groups"));
        admin.put(400, "collection/graph", map("revision", rev, "groups", map("1", map(String.valueOf(z), "admin"))));
        admin.put(400, "collection/graph", map("revision", rev, "groups", map("4242", map("root", "read"))));
        admin.put(400, "collection/graph", map("revision", rev, "groups", map("2", map("root", "read"))));
        // sending the admin group as it is (as clients do with the whole graph) is fine
        admin.put(200, "collection/graph", map("revision", rev, "groups", map("2", map("root", "write"))));
        assertEquals(rev, revision(), "nothing changed, no new revision");
        assertEquals(rows, AppDbSql.count(server, "SELECT COUNT(*) FROM collection_permission"));
        // superusers only
        CollectionSupport.Person hal = CollectionSupport.person(api, admin, "Hal", "Hill");
        assertEquals("You don't have permissions to do that.", hal.api().get(403, "collection/graph").body());
        hal.api().put(403, "collection/graph", map("revision", rev, "groups", map("1", map("root", "none"))));
        api.get(401, "collection/graph");
        // the snippets namespace has its own Root row
        JsonNode snippets = admin.get(200, "collection/graph", "namespace", "snippets").json();
        assertEquals("write", snippets.get("groups").get("1").get("root").asText());
        assertFalse(snippets.get("groups").get("1").has(String.valueOf(z)));
    }
}
