package io.quarry.snippet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/native-query-snippet} over HTTP: name rules with Metabase's messages, unique names, collections of the
 * snippets namespace and their rights, archiving, and snippets expanding in native queries on the Sample Database with
 * the numbers plain SQL gives.
 */
class SnippetIT {
    private static final String NAME_RULE = "snippet names cannot include } or start with spaces";
    private static final String DENIED = "You don't have permissions to do that.";

    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static Path sample;
    private static long sampleId;

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
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** A collection made directly in the application database (no rows in the permission graph: admins only). */
    private static long collection(String name, String namespace) throws Exception {
        try (Connection c = AppDbSql.connect(server); PreparedStatement s = c.prepareStatement(
                "INSERT INTO collection (name, slug, location, namespace, created_at) VALUES (?, ?, '/', ?, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
            s.setString(1, name);
            s.setString(2, name.toLowerCase().replace(' ', '_'));
            s.setString(3, namespace);
            s.setObject(4, OffsetDateTime.now());
            s.executeUpdate();
            try (ResultSet keys = s.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    private static void sql(String statement, Object... params) throws Exception {
        try (Connection c = AppDbSql.connect(server); PreparedStatement s = c.prepareStatement(statement)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            s.executeUpdate();
        }
    }

    private static long snippets() {
        return AppDbSql.count(server, "SELECT COUNT(*) FROM native_query_snippet");
    }

    private static JsonNode create(Api api, String name, String content) {
        return api.post(200, "native-query-snippet", Map.of("name", name, "content", content)).json();
    }

    private static long reference(String sql) throws Exception {
        try (Connection c = SampleDatabase.connect(sample); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Api.Res nativeQuery(Api api, int status, String sql, Map<String, Object> tags) {
        Map<String, Object> nativePart = new LinkedHashMap<>();
        nativePart.put("query", sql);
        nativePart.put("template-tags", tags);
        return api.post(status, "dataset", Map.of("database", sampleId, "type", "native", "native", nativePart));
    }

    private static long firstValue(Api.Res res) {
        JsonNode result = res.json();
        assertEquals("completed", result.get("status").asText(), result.toString());
        return result.get("data").get("rows").get(0).get(0).asLong();
    }

    @Test
    void anonymousCallersAreTurnedAway() {
        long id = create(admin, "anon check", "1 = 1").get("id").asLong();
        assertEquals("Unauthenticated", anonymous.get(401, "native-query-snippet").body());
        assertEquals("Unauthenticated", anonymous.get(401, "native-query-snippet/" + id).body());
        assertEquals("Unauthenticated", anonymous.post(401, "native-query-snippet", Map.of("name", "x", "content", "1")).body());
        assertEquals("Unauthenticated", anonymous.put(401, "native-query-snippet/" + id, Map.of("name", "y")).body());
        assertEquals("anon check", admin.get(200, "native-query-snippet/" + id).json().get("name").asText());
    }

    @Test
    void creationValidatesEveryFieldWithMetabasesMessages() throws Exception {
        long before = snippets();
        JsonNode errors = admin.post(400, "native-query-snippet", Map.of()).json().get("errors");
        assertEquals("value must be a string.", errors.get("content").asText());
        assertEquals(NAME_RULE, errors.get("name").asText());

        for (String bad : new String[] {"a}b", " leading", "\tTab", "}"}) {
            JsonNode body = admin.post(400, "native-query-snippet", Map.of("name", bad, "content", "1 = 1")).json();
            assertEquals(NAME_RULE, body.get("errors").get("name").asText(), bad);
            assertTrue(body.get("specific-errors").get("name").get(0).asText().startsWith(NAME_RULE), body.toString());
        }
        Map<String, Object> bad = new HashMap<>();
        bad.put("name", 12);
        bad.put("content", 7);
        bad.put("description", false);
        bad.put("collection_id", -1);
        errors = admin.post(400, "native-query-snippet", bad).json().get("errors");
        assertEquals(NAME_RULE, errors.get("name").asText());
        assertEquals("value must be a string.", errors.get("content").asText());
        assertEquals("nullable value must be a string.", errors.get("description").asText());
        assertEquals("nullable value must be an integer greater than zero.", errors.get("collection_id").asText());

        long normal = collection("Cards only", null);
        assertEquals("A NativeQuerySnippet can only go in Collections in the :snippets namespace.",
                admin.post(400, "native-query-snippet", Map.of("name", "misplaced", "content", "1 = 1", "collection_id", normal))
                        .json().get("errors").get("collection_id").asText());
        assertEquals("Collection does not exist.", admin.post(404, "native-query-snippet",
                Map.of("name", "nowhere", "content", "1 = 1", "collection_id", 987654)).json().get("errors").get("collection_id").asText());
        assertEquals(before, snippets());
    }

    @Test
    void namesAreUnique() {
        JsonNode first = create(admin, "unique name", "1 = 1");
        long before = snippets();
        assertEquals("A snippet with that name already exists. Please pick a different name.",
                admin.post(400, "native-query-snippet", Map.of("name", "unique name", "content", "2 = 2")).body());
        assertEquals(before, snippets());
        long other = create(admin, "another name", "3 = 3").get("id").asLong();
        assertEquals("A snippet with that name already exists. Please pick a different name.",
                admin.put(400, "native-query-snippet/" + other, Map.of("name", "unique name")).body());
        assertEquals("another name", admin.get(200, "native-query-snippet/" + other).json().get("name").asText());
        // keeping one's own name is no clash
        assertEquals("unique name", admin.put(200, "native-query-snippet/" + first.get("id").asLong(),
                Map.of("name", "unique name", "content", "4 = 4")).json().get("name").asText());
    }

    @Test
    void createReadUpdateAndArchive() {
        JsonNode created = admin.post(200, "native-query-snippet", Map.of("name", "active orders", "content", "QUANTITY > 0",
                "description", "Orders with items")).json();
        long id = created.get("id").asLong();
        assertEquals("QUANTITY > 0", created.get("content").asText());
        assertEquals("Orders with items", created.get("description").asText());
        assertTrue(created.get("collection_id").isNull());
        assertFalse(created.get("archived").asBoolean());
        assertEquals("Crowberto Corv", created.get("creator").get("common_name").asText());
        assertEquals(21, created.get("entity_id").asText().length());

        assertEquals("nullable " + NAME_RULE, admin.put(400, "native-query-snippet/" + id, Map.of("name", " x"))
                .json().get("errors").get("name").asText());
        assertEquals("nullable value must be a boolean.", admin.put(400, "native-query-snippet/" + id, Map.of("archived", "perhaps"))
                .json().get("errors").get("archived").asText());
        assertEquals("nullable value must be a string.", admin.put(400, "native-query-snippet/" + id, Map.of("content", 5))
                .json().get("errors").get("content").asText());
        assertEquals("value must be an integer greater than zero.", admin.put(400, "native-query-snippet/0", Map.of("content", "x"))
                .json().get("errors").get("id").asText());
        admin.put(404, "native-query-snippet/999999", Map.of("content", "x"));
        assertEquals("Not found.", admin.get(404, "native-query-snippet/999999").body());
        assertEquals("QUANTITY > 0", admin.get(200, "native-query-snippet/" + id).json().get("content").asText());

        Map<String, Object> change = new HashMap<>();
        change.put("content", "QUANTITY >= 1");
        change.put("name", null);
        change.put("description", null);
        JsonNode updated = admin.put(200, "native-query-snippet/" + id, change).json();
        assertEquals("QUANTITY >= 1", updated.get("content").asText());
        assertEquals("active orders", updated.get("name").asText());
        assertTrue(updated.get("description").isNull());

        admin.put(200, "native-query-snippet/" + id, Map.of("archived", true));
        assertFalse(listed(admin, id, null));
        assertTrue(listed(admin, id, "true"));
        assertFalse(listed(admin, id, "false"));
        admin.get(400, "native-query-snippet", "archived", "yes");
        admin.put(200, "native-query-snippet/" + id, Map.of("archived", false));
        assertTrue(listed(admin, id, null));
    }

    private static boolean listed(Api api, long id, String archived) {
        JsonNode list = archived == null ? api.get(200, "native-query-snippet").json()
                : api.get(200, "native-query-snippet", "archived", archived).json();
        for (JsonNode s : list) {
            if (s.get("id").asLong() == id) {
                return true;
            }
        }
        return false;
    }

    @Test
    void snippetCollectionsGiveTheirRights() throws Exception {
        long folder = collection("Shared SQL", "snippets");
        JsonNode inFolder = admin.post(200, "native-query-snippet", Map.of("name", "foldered", "content", "1 = 1",
                "collection_id", folder)).json();
        long id = inFolder.get("id").asLong();
        assertEquals(folder, inFolder.get("collection_id").asLong());

        // no rights on the folder: invisible, unreadable, unwritable
        assertFalse(listed(user, id, null));
        assertEquals(DENIED, user.get(403, "native-query-snippet/" + id).body());
        assertEquals(DENIED, user.put(403, "native-query-snippet/" + id, Map.of("content", "2 = 2")).body());
        long before = snippets();
        assertEquals(DENIED, user.post(403, "native-query-snippet", Map.of("name", "user in folder", "content", "1 = 1",
                "collection_id", folder)).body());
        assertEquals(before, snippets());
        // nor move one of theirs there
        long own = create(user, "users own", "5 = 5").get("id").asLong();
        assertEquals(DENIED, user.put(403, "native-query-snippet/" + own, Map.of("collection_id", folder)).body());
        assertTrue(admin.get(200, "native-query-snippet/" + own).json().get("collection_id").isNull());

        // read rights: visible and readable, still not writable
        sql("INSERT INTO collection_permission (group_id, collection_id, perm) VALUES (1, ?, 'read')", folder);
        assertTrue(listed(user, id, null));
        assertEquals("foldered", user.get(200, "native-query-snippet/" + id).json().get("name").asText());
        assertEquals(DENIED, user.put(403, "native-query-snippet/" + id, Map.of("content", "2 = 2")).body());
        assertEquals("1 = 1", admin.get(200, "native-query-snippet/" + id).json().get("content").asText());

        // write rights
        sql("UPDATE collection_permission SET perm = 'write' WHERE group_id = 1 AND collection_id = ?", folder);
        assertEquals("2 = 2", user.put(200, "native-query-snippet/" + id, Map.of("content", "2 = 2")).json().get("content").asText());
        assertEquals(folder, user.put(200, "native-query-snippet/" + own, Map.of("collection_id", folder)).json().get("collection_id").asLong());
        // moving into a collection of the default namespace
        long cards = collection("Not for snippets", null);
        assertEquals("A NativeQuerySnippet can only go in Collections in the :snippets namespace.",
                admin.put(400, "native-query-snippet/" + id, Map.of("collection_id", cards)).json().get("errors").get("collection_id").asText());
        assertEquals(folder, admin.get(200, "native-query-snippet/" + id).json().get("collection_id").asLong());
    }

    @Test
    void theSnippetsRootFollowsTheGraph() throws Exception {
        long rootSnippet = create(user, "root level by user", "6 = 6").get("id").asLong();
        assertTrue(listed(user, rootSnippet, null));
        try {
            sql("DELETE FROM collection_permission WHERE group_id = 1 AND collection_id IS NULL AND namespace = 'snippets'");
            assertFalse(listed(user, rootSnippet, null));
            assertEquals(DENIED, user.get(403, "native-query-snippet/" + rootSnippet).body());
            long before = snippets();
            assertEquals(DENIED, user.post(403, "native-query-snippet", Map.of("name", "no root", "content", "1")).body());
            assertEquals(before, snippets());
            assertTrue(listed(admin, rootSnippet, null));
        } finally {
            sql("INSERT INTO collection_permission (group_id, collection_id, namespace, perm) VALUES (1, NULL, 'snippets', 'write')");
        }
        assertTrue(listed(user, rootSnippet, null));
    }

    @Test
    void nativeQueriesExpandSnippets() throws Exception {
        long gizmo = create(admin, "gizmo filter", "CATEGORY = 'Gizmo'").get("id").asLong();
        create(admin, "cheap gizmos", "{{snippet: gizmo filter}} AND PRICE < 50");
        long expected = reference("SELECT COUNT(*) FROM PUBLIC.PRODUCTS WHERE CATEGORY = 'Gizmo'");
        long cheap = reference("SELECT COUNT(*) FROM PUBLIC.PRODUCTS WHERE CATEGORY = 'Gizmo' AND PRICE < 50");
        assertTrue(expected > cheap && cheap > 0);

        Map<String, Object> tags = Map.of("snippet: gizmo filter", Map.of("id", "a1", "name", "snippet: gizmo filter",
                "display-name", "Snippet: gizmo filter", "type", "snippet", "snippet-name", "gizmo filter", "snippet-id", gizmo));
        assertEquals(expected, firstValue(nativeQuery(admin, 202, "SELECT COUNT(*) FROM PRODUCTS WHERE {{snippet: gizmo filter}}", tags)));
        // without a template-tags entry, by name; as an ordinary user too
        assertEquals(expected, firstValue(nativeQuery(user, 202, "SELECT COUNT(*) FROM PRODUCTS WHERE {{snippet: gizmo filter}}", Map.of())));
        // a snippet inside a snippet
        assertEquals(cheap, firstValue(nativeQuery(admin, 202, "SELECT COUNT(*) FROM PRODUCTS WHERE {{snippet: cheap gizmos}}", Map.of())));
        // the content is the snippet's current content
        admin.put(200, "native-query-snippet/" + gizmo, Map.of("content", "CATEGORY = 'Widget'"));
        assertEquals(reference("SELECT COUNT(*) FROM PUBLIC.PRODUCTS WHERE CATEGORY = 'Widget'"),
                firstValue(nativeQuery(admin, 202, "SELECT COUNT(*) FROM PRODUCTS WHERE {{snippet: gizmo filter}}", Map.of())));
        // archived snippets still expand in saved queries, as Metabase
        admin.put(200, "native-query-snippet/" + gizmo, Map.of("archived", true, "content", "CATEGORY = 'Gizmo'"));
        assertEquals(expected, firstValue(nativeQuery(admin, 202, "SELECT COUNT(*) FROM PRODUCTS WHERE {{snippet: gizmo filter}}", Map.of())));

        JsonNode missing = nativeQuery(admin, 400, "SELECT COUNT(*) FROM PRODUCTS WHERE {{snippet: no such}}", Map.of()).json();
        assertEquals("failed", missing.get("status").asText());
        assertEquals("Snippet \"no such\" not found.", missing.get("error").asText());
    }
}
