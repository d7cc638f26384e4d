package io.quarry.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Actions over HTTP against real target databases (an H2 file and a PostgreSQL database): implicit row actions change
 * exactly their row (read back with SQL), query actions bind their parameters, failing writes change nothing, rights
 * for admin / ordinary user / anonymous, bad input, archive, public links and their throttle.
 */
class ActionsIT {
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static Path shop;
    private static long h2Db;
    private static long customers;
    private static long writable;
    private static long readable;
    private static long model;
    private static long readOnlyModel;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(Map.of());
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        shop = TargetDatabases.h2Shop();
        h2Db = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + shop, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(h2Db).get();
        customers = tableId(h2Db, "CUSTOMERS");
        String email = "actor@example.com";
        admin.post(200, "user", Map.of("email", email, "first_name", "Ada", "last_name", "Actor", "password", "Sunny-day-77"));
        user = anonymous.as(Fixtures.login(anonymous, email, "Sunny-day-77"));
        writable = admin.post(200, "collection", Map.of("name", "Writable")).json().get("id").asLong();
        readable = admin.post(200, "collection", Map.of("name", "Readable")).json().get("id").asLong();
        long rev = admin.get(200, "collection/graph").json().get("revision").asLong();
        admin.put(200, "collection/graph", Map.of("revision", rev, "groups",
                Map.of("1", Map.of(String.valueOf(writable), "write", String.valueOf(readable), "read"))));
        model = model("Customers", h2Db, customers, writable);
        readOnlyModel = model("Customers (read only)", h2Db, customers, readable);
        admin.put(200, "database/" + h2Db, Map.of("settings", Map.of("database-enable-actions", true)));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long tableId(long db, String name) {
        for (JsonNode t : admin.get(200, "database/" + db + "/metadata").json().get("tables")) {
            if (t.get("name").asText().equalsIgnoreCase(name)) {
                return t.get("id").asLong();
            }
        }
        throw new AssertionError("no table " + name);
    }

    private static long model(String name, long db, long table, long collection) {
        return ActionFixtures.model(admin, name, db, table, collection);
    }

    private static long implicit(Api as, long modelId, String kind) {
        return ActionFixtures.implicit(as, modelId, kind);
    }

    private static Map<String, Object> params(Object... pairs) {
        return ActionFixtures.params(pairs);
    }

    private static List<String> h2Rows(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + shop, "sa", "secret-pw");
             Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            return rows(rows);
        }
    }

    private static List<String> rows(ResultSet rows) throws Exception {
        List<String> out = new ArrayList<>();
        int n = rows.getMetaData().getColumnCount();
        while (rows.next()) {
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                row.add(String.valueOf(rows.getObject(i)));
            }
            out.add(String.join("|", row));
        }
        return out;
    }

    @Test
    void actionsNeedTheDatabaseSwitch() throws Exception {
        Path other = TargetDatabases.h2Shop();
        long db = admin.post(200, "database", Map.of("engine", "h2", "name", "Switched off",
                "details", Map.of("db", "file:" + other, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(db).get();
        long off = model("Off", db, tableId(db, "CUSTOMERS"), writable);
        JsonNode refused = admin.post(400, "action", Map.of("name", "x", "type", "implicit", "kind", "row/create", "model_id", off)).json();
        assertEquals("Actions are not enabled.", refused.get("message").asText());
        assertEquals(db, refused.get("database-id").asLong());
        assertEquals(0, admin.get(200, "action", "model-id", off).json().size(), "nothing stored");
        // an action made while enabled stops running when the switch goes off
        admin.put(200, "database/" + db, Map.of("settings", Map.of("database-enable-actions", true)));
        long create = implicit(admin, off, "row/create");
        admin.put(200, "database/" + db, Map.of("settings", Map.of("database-enable-actions", false)));
        assertEquals("Actions are not enabled.", admin.post(400, "action/" + create + "/execute",
                params("id", 9, "name", "Nope")).json().get("message").asText());
    }

    @Test
    void implicitActionsChangeExactlyTheirRow() throws Exception {
        long create = implicit(admin, model, "row/create");
        long update = implicit(admin, model, "row/update");
        long delete = implicit(admin, model, "row/delete");
        JsonNode created = admin.get(200, "action/" + create).json();
        assertEquals("implicit", created.get("type").asText());
        assertEquals("row/create", created.get("kind").asText());
        assertEquals(model, created.get("model_id").asLong());
        assertEquals("Crowberto", created.get("creator").get("first_name").asText());
        List<String> ids = new ArrayList<>();
        created.get("parameters").forEach(p -> ids.add(p.get("id").asText()));
        assertEquals(List.of("id", "name", "email", "created_at"), ids);

        // an ordinary user with read access runs them; the row is there, as sent
        JsonNode row = user.post(200, "action/" + create + "/execute", params("id", 10, "name", "Hedy", "email", "hedy@example.com"))
                .json().get("created-row");
        assertEquals("Hedy", row.get("NAME").asText());
        assertEquals(List.of("10|Hedy|hedy@example.com"), h2Rows("SELECT ID, NAME, EMAIL FROM CUSTOMERS WHERE ID = 10"));

        assertEquals("[1]", user.post(200, "action/" + update + "/execute", params("id", "10", "name", "Hedy L."))
                .json().get("rows-updated").toString());
        assertEquals(List.of("1|Ada", "2|Grace", "10|Hedy L."), h2Rows("SELECT ID, NAME FROM CUSTOMERS ORDER BY ID"));

        JsonNode prefill = user.get(200, "action/" + update + "/execute", "parameters", "{\"id\": 10}").json();
        assertEquals("Hedy L.", prefill.get("name").asText());
        assertEquals("hedy@example.com", prefill.get("email").asText());
        assertEquals("Values can only be fetched for actions that require a Primary Key.",
                user.get(400, "action/" + create + "/execute", "parameters", "{\"id\": 10}").body());

        assertEquals("[1]", user.post(200, "action/" + delete + "/execute", params("id", 10)).json().get("rows-deleted").toString());
        assertEquals(List.of("1", "2"), h2Rows("SELECT ID FROM CUSTOMERS ORDER BY ID"));
    }

    @Test
    void failingOrBadImplicitRunsChangeNothing() throws Exception {
        long create = implicit(admin, model, "row/create");
        long update = implicit(admin, model, "row/update");
        long delete = implicit(admin, model, "row/delete");
        List<String> before = h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID");

        JsonNode notNull = admin.post(400, "action/" + create + "/execute", params("id", 20, "email", "no-name@example.com")).json();
        assertTrue(notNull.get("message").asText().contains("NAME"), notNull.toString());
        JsonNode duplicate = admin.post(400, "action/" + create + "/execute", params("id", 1, "name", "Again")).json();
        assertTrue(duplicate.get("message").asText().toLowerCase().contains("primary key")
                || duplicate.get("message").asText().toLowerCase().contains("unique"), duplicate.toString());
        assertEquals("id", admin.post(400, "action/" + create + "/execute", params("id", "abc", "name", "X"))
                .json().get("errors").fieldNames().next());
        assertTrue(admin.post(400, "action/" + create + "/execute", params("nickname", "X")).body()
                .startsWith("No destination parameter found for #{\"nickname\"}"));
        assertEquals("Implicit parameters must be provided.", admin.post(400, "action/" + create + "/execute", null).body());
        assertEquals("Missing primary key parameter: \"id\"", admin.post(400, "action/" + update + "/execute", params("name", "X")).body());
        assertEquals("Sorry, the row you're trying to delete doesn't exist",
                admin.post(400, "action/" + delete + "/execute", params("id", 99)).body());
        assertEquals("Sorry, the row you're trying to update doesn't exist",
                admin.post(400, "action/" + update + "/execute", params("id", 99, "name", "Ghost")).body());
        assertEquals(before, h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID"));
    }

    /** What curl and browsers send: no body/type, an empty form, form fields, malformed JSON, JSON with a charset. */
    @Test
    void plainClientBodiesAreReadLikeJson() throws Exception {
        long create = implicit(admin, model, "row/create");
        long update = implicit(admin, model, "row/update");
        List<String> before = h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID");
        String none = "Implicit parameters must be provided.";
        assertEquals(none, admin.post(400, "action/" + create + "/execute", null).body());
        assertEquals(none, admin.postForm(400, "action/" + create + "/execute", Map.of()).body());
        assertTrue(admin.postForm(400, "action/" + create + "/execute", Map.of("parameters", "{\"id\":1}"))
                .json().get("errors").has("parameters"));
        assertEquals(400, admin.call("POST", "action/" + create + "/execute", "{nope").status());
        assertEquals(none, admin.withHeader("Content-Type", "application/json; charset=utf-8")
                .post(400, "action/" + create + "/execute", null).body());
        assertEquals(before, h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID"));

        admin.put(204, "setting/enable-public-sharing", Map.of("value", true));
        String uuid = admin.post(200, "action/" + update + "/public_link", null).json().get("uuid").asText();
        assertEquals(uuid, admin.postForm(200, "action/" + update + "/public_link", Map.of()).json().get("uuid").asText());
        String path = "public/action/" + uuid + "/execute";
        assertEquals("Missing primary key parameter: \"id\"", anonymous.post(400, path, null).body());
        assertEquals("Missing primary key parameter: \"id\"", anonymous.postForm(400, path, Map.of()).body());
        assertTrue(anonymous.postForm(400, path, Map.of("parameters", "x")).json().get("errors").has("parameters"));
        admin.delete(204, "action/" + update + "/public_link");
        assertEquals(before, h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID"));
    }

    private static Map<String, Object> rowsOf(Map<?, ?>... rows) {
        return Map.of("parameters", List.of(rows));
    }

    @Test
    void bulkActionsChangeExactlyTheirRowsInOneGo() throws Exception {
        long create = implicit(admin, model, "bulk/create");
        long update = implicit(admin, model, "bulk/update");
        long delete = implicit(admin, model, "bulk/delete");
        assertEquals("bulk/update", admin.get(200, "action/" + update).json().get("kind").asText());
        List<String> before = h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID");

        JsonNode created = user.post(200, "action/" + create + "/execute", rowsOf(
                Map.of("id", 30, "name", "Hedy", "email", "hedy@example.com"), Map.of("id", 31, "name", "Joan"),
                Map.of("id", 32, "name", "Radia"))).json().get("created-rows");
        assertEquals(3, created.size());
        assertEquals("Joan", created.get(1).get("NAME").asText());
        assertEquals(List.of("30|Hedy|hedy@example.com", "31|Joan|null", "32|Radia|null"),
                h2Rows("SELECT ID, NAME, EMAIL FROM CUSTOMERS WHERE ID >= 30 ORDER BY ID"));

        assertEquals(2, user.post(200, "action/" + update + "/execute", rowsOf(
                Map.of("id", 30, "name", "Hedy L."), Map.of("id", "32", "email", "radia@example.com")))
                .json().get("rows-updated").asInt());
        assertEquals(List.of("30|Hedy L.|hedy@example.com", "31|Joan|null", "32|Radia|radia@example.com"),
                h2Rows("SELECT ID, NAME, EMAIL FROM CUSTOMERS WHERE ID >= 30 ORDER BY ID"));

        assertTrue(user.post(200, "action/" + delete + "/execute", rowsOf(Map.of("id", 30), Map.of("id", 32)))
                .json().get("success").asBoolean());
        assertEquals(List.of("31|Joan"), h2Rows("SELECT ID, NAME FROM CUSTOMERS WHERE ID >= 30 ORDER BY ID"));
        user.post(200, "action/" + delete + "/execute", Map.of("rows", List.of(Map.of("id", 31)))); // Metabase's "rows" key
        assertEquals(before, h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID"));
        anonymous.post(401, "action/" + delete + "/execute", rowsOf(Map.of("id", 1)));
        assertEquals(before, h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID"));
    }

    @Test
    void aBulkActionWithOneBadRowChangesNothing() throws Exception {
        long create = implicit(admin, model, "bulk/create");
        long update = implicit(admin, model, "bulk/update");
        long delete = implicit(admin, model, "bulk/delete");
        List<String> before = h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID");

        // the second row breaks a constraint after the first was inserted: both gone
        JsonNode duplicate = admin.post(400, "action/" + create + "/execute", rowsOf(
                Map.of("id", 40, "name", "Fine"), Map.of("id", 1, "name", "Again"))).json();
        assertTrue(duplicate.get("message").asText().toLowerCase().contains("primary key")
                || duplicate.get("message").asText().toLowerCase().contains("unique"), duplicate.toString());
        assertTrue(admin.post(400, "action/" + create + "/execute", rowsOf(
                Map.of("id", 41, "name", "Fine"), Map.of("id", 42, "email", "no-name@example.com"))).json()
                .get("message").asText().contains("NAME"));
        assertEquals("Row 1: Sorry, the row you're trying to update doesn't exist", admin.post(400, "action/" + update + "/execute",
                rowsOf(Map.of("id", 1, "name", "Changed"), Map.of("id", 99, "name", "Ghost"))).body());
        assertEquals("Row 1: Missing primary key parameter: \"id\"", admin.post(400, "action/" + update + "/execute",
                rowsOf(Map.of("id", 1, "name", "Changed"), Map.of("name", "No key"))).body());
        // customer 1 has orders: the database refuses its delete, and the delete of 2 before it is rolled back
        assertTrue(admin.post(400, "action/" + delete + "/execute", rowsOf(Map.of("id", 2), Map.of("id", 1))).json()
                .get("message").asText().contains("Referential integrity"));
        assertEquals(before, h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID"));

        admin.post(200, "action/" + create + "/execute", rowsOf(Map.of("id", 43, "name", "A"), Map.of("id", 44, "name", "B")));
        List<String> withTwo = h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID");
        assertEquals("Row 2: Sorry, the row you're trying to delete doesn't exist", admin.post(400, "action/" + delete + "/execute",
                rowsOf(Map.of("id", 43), Map.of("id", 44), Map.of("id", 99))).body());
        assertEquals(withTwo, h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID"));
        admin.post(200, "action/" + delete + "/execute", rowsOf(Map.of("id", 43), Map.of("id", 44)));
        assertEquals(before, h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID"));
    }

    @Test
    void badBulkInputIsA400NamingTheField() throws Exception {
        long create = implicit(admin, model, "bulk/create");
        long update = implicit(admin, model, "bulk/update");
        long rowCreate = implicit(admin, model, "row/create");
        List<String> before = h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID");
        // not a list, an empty list, no body, a list of non-maps
        for (Object body : new Object[] {Map.of("parameters", Map.of("id", 50, "name", "X")), Map.of("parameters", List.of()),
                Map.of("parameters", "rows"), Map.of("parameters", List.of(1, 2)), Map.of()}) {
            JsonNode answer = admin.post(400, "action/" + create + "/execute", body).json();
            assertTrue(answer.get("errors").has("parameters"), answer.toString());
        }
        assertEquals(400, admin.post(400, "action/" + create + "/execute", null).status());
        // a value of the wrong type names its column; nothing of the good rows stays
        assertEquals("id", admin.post(400, "action/" + update + "/execute",
                rowsOf(Map.of("id", 1, "name", "Changed"), Map.of("id", "abc", "name", "X"))).json().get("errors").fieldNames().next());
        assertTrue(admin.post(400, "action/" + create + "/execute", rowsOf(Map.of("id", 51, "nickname", "X"))).body()
                .startsWith("Row 0: No destination parameter found for #{\"nickname\"}"));
        // a list of rows to a row action
        assertTrue(admin.post(400, "action/" + rowCreate + "/execute", rowsOf(Map.of("id", 52, "name", "X"))).json()
                .get("errors").has("parameters"));
        assertTrue(admin.post(400, "action/" + rowCreate + "/execute", Map.of("rows", "x")).json().get("errors").has("parameters"));
        assertTrue(admin.post(400, "action/" + create + "/execute", Map.of("rows", Map.of("id", 53))).json().get("errors").has("parameters"));
        assertEquals(before, h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID"));
    }

    @Test
    void queryActionsBindTheirParameters() throws Exception {
        Map<String, Object> tags = new LinkedHashMap<>();
        tags.put("email", ActionFixtures.requiredTag("email", "Email", "text"));
        tags.put("id", ActionFixtures.requiredTag("id", "Id", "number"));
        JsonNode action = admin.post(200, "action", ActionFixtures.queryAction("Change e-mail", model, h2Db,
                "UPDATE CUSTOMERS SET EMAIL = {{email}} WHERE ID = {{id}}", tags)).json();
        long id = action.get("id").asLong();
        assertEquals(h2Db, action.get("database_id").asLong());
        assertEquals(2, action.get("parameters").size());

        String hostile = "x'; DROP TABLE CUSTOMERS; --";
        assertEquals(1, user.post(200, "action/" + id + "/execute", params("tag-email", hostile, "tag-id", 2))
                .json().get("rows-affected").asInt());
        assertEquals(List.of("2|" + hostile), h2Rows("SELECT ID, EMAIL FROM CUSTOMERS WHERE ID = 2"), "stored as a value");
        // a value that is not a number where the tag wants one is refused, not spliced into the SQL
        user.post(400, "action/" + id + "/execute", params("tag-email", "z", "tag-id", "2 OR 1=1"));
        assertEquals(List.of("1|ada@example.com", "2|" + hostile), h2Rows("SELECT ID, EMAIL FROM CUSTOMERS WHERE ID IN (1, 2) ORDER BY ID"));
        assertEquals(List.of("1|ada@example.com"), h2Rows("SELECT ID, EMAIL FROM CUSTOMERS WHERE ID = 1"));
    }

    @Test
    void aFailingQueryActionIsA400WithTheDatabasesMessageAndChangesNothing() throws Exception {
        long id = admin.post(200, "action", ActionFixtures.queryAction("Insert two", model, h2Db,
                "INSERT INTO CUSTOMERS (ID, NAME) VALUES (30, {{name}}), (1, {{name}})",
                Map.of("name", Map.of("id", "n", "name", "name", "type", "text")))).json().get("id").asLong();
        List<String> before = h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID");
        JsonNode failed = admin.post(400, "action/" + id + "/execute", params("n", "Twice")).json();
        assertTrue(failed.get("message").asText().startsWith("Error executing Action: "), failed.toString());
        assertEquals(before, h2Rows("SELECT * FROM CUSTOMERS ORDER BY ID"), "the first row of the statement is not kept");
        assertTrue(admin.post(400, "action/" + id + "/execute", params("nope", 1)).body()
                .startsWith("No destination parameter found for #{\"nope\"}. Found: #{\"n\"}"));
    }

    @Test
    void rightsForAdminUserAndAnonymous() {
        long onReadable = implicit(admin, readOnlyModel, "row/update");
        // an ordinary user writes actions only on models they may write
        user.post(403, "action", Map.of("name", "x", "type", "implicit", "kind", "row/create", "model_id", readOnlyModel));
        long own = implicit(user, model, "row/delete");
        user.put(403, "action/" + onReadable, Map.of("name", "renamed"));
        user.delete(403, "action/" + onReadable);
        // but reads and runs the ones of models they may read
        assertEquals("row/update", user.get(200, "action/" + onReadable).json().get("kind").asText());
        assertTrue(user.get(200, "action", "model-id", readOnlyModel).json().size() >= 1);
        user.post(400, "action/" + onReadable + "/execute", params("id", 99, "name", "Ghost"));
        // anonymous: nothing
        anonymous.get(401, "action");
        anonymous.get(401, "action/" + own);
        anonymous.post(401, "action/" + own + "/execute", params("id", 1));
        anonymous.post(401, "action", Map.of("name", "x", "type", "implicit", "kind", "row/create", "model_id", model));
        // a model nobody but admins may read
        long hidden = admin.post(200, "collection", Map.of("name", "Hidden")).json().get("id").asLong();
        long rev = admin.get(200, "collection/graph").json().get("revision").asLong();
        admin.put(200, "collection/graph", Map.of("revision", rev, "groups", Map.of("1", Map.of(String.valueOf(hidden), "none"))));
        long secret = implicit(admin, model("Secret", h2Db, customers, hidden), "row/delete");
        user.get(403, "action/" + secret);
        user.post(403, "action/" + secret + "/execute", params("id", 1));
        assertFalse(user.get(200, "action").json().findValuesAsText("id").contains(String.valueOf(secret)));
        assertTrue(admin.get(200, "action").json().findValuesAsText("id").contains(String.valueOf(secret)));
        admin.delete(204, "action/" + own);
        admin.get(404, "action/" + own);
    }

    @Test
    void badInputIsA400NamingTheFieldAndStoresNothing() {
        int before = admin.get(200, "action").json().size();
        assertTrue(admin.post(400, "action", Map.of("type", "implicit", "kind", "row/create", "model_id", model))
                .json().get("errors").has("name"));
        assertTrue(admin.post(400, "action", Map.of("name", "x", "type", "bogus", "model_id", model)).json().get("errors").has("type"));
        assertTrue(admin.post(400, "action", Map.of("name", "x", "type", "implicit", "kind", "row/upsert", "model_id", model))
                .json().get("errors").has("kind"));
        assertTrue(admin.post(400, "action", Map.of("name", "x", "type", "implicit", "kind", "row/create")).json().get("errors").has("model_id"));
        admin.post(404, "action", Map.of("name", "x", "type", "implicit", "kind", "row/create", "model_id", 987654));
        long question = admin.post(200, "card", Map.of("name", "Q", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", h2Db, "type", "query", "query", Map.of("source-table", customers))))
                .json().get("id").asLong();
        assertTrue(admin.post(400, "action", Map.of("name", "x", "type", "implicit", "kind", "row/create", "model_id", question))
                .json().get("errors").has("model_id"));
        assertEquals("Must provide a database_id for query actions", admin.post(400, "action", Map.of("name", "x", "type", "query",
                "model_id", model, "dataset_query", Map.of("type", "native", "native", Map.of("query", "SELECT 1")))).body());
        // the server's default host strategy (external-only) refuses a loopback URL when the action is saved
        assertEquals("URLs referring to hosts that supply internal hosting metadata are prohibited.", admin.post(400, "action",
                Map.of("name", "x", "type", "http", "model_id", model, "template", Map.of("method", "GET", "url", "http://127.0.0.1:9/")))
                .json().get("errors").get("template").asText());
        assertTrue(admin.post(400, "action", Map.of("name", "x", "type", "http", "model_id", model,
                "template", Map.of("method", "GET", "url", "http://example.com/", "extra", 1))).json().get("errors").has("template"));
        assertTrue(admin.post(400, "action", Map.of("name", "x", "type", "http", "model_id", model,
                "template", Map.of("method", "GET", "url", "http://example.com/"), "response_handle", "body.id"))
                .json().get("errors").has("response_handle"));
        long filtered = admin.post(200, "card", Map.of("name", "Filtered", "type", "model", "display", "table",
                "visualization_settings", Map.of(), "collection_id", writable, "dataset_query", Map.of("database", h2Db, "type", "query",
                        "query", Map.of("source-table", customers, "limit", 1)))).json().get("id").asLong();
        assertEquals("Implicit actions are not supported for models with clauses.", admin.post(400, "action", Map.of("name", "x",
                "type", "implicit", "kind", "row/create", "model_id", filtered)).body());
        assertEquals(before, admin.get(200, "action").json().size(), "nothing stored");
        // clients post with no body or an empty form
        long update = implicit(admin, model, "row/update");
        assertEquals(400, admin.call("POST", "action/" + update + "/execute", null).status());
        admin.get(400, "action/" + update + "/execute");
        admin.get(400, "action/" + update + "/execute", "parameters", "not json");
        admin.put(400, "action/" + update, Map.of("archived", "maybe"));
        admin.put(400, "action/" + update, Map.of("name", " "));
    }

    @Test
    void anHttpActionToARefusedAddressIsRefusedWhenRun() throws Exception {
        java.util.concurrent.atomic.AtomicInteger hits = new java.util.concurrent.atomic.AtomicInteger();
        com.sun.net.httpserver.HttpServer receiver = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/", exchange -> {
            hits.incrementAndGet();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        try {
            // the host is a parameter: nothing to check when saved, the guard refuses the filled-in URL when run
            long port = admin.post(200, "action", Map.of("name", "Call", "type", "http", "model_id", model,
                    "template", Map.of("method", "POST", "url", "http://127.0.0.1:{{port}}/hook", "body", "{\"a\": 1}")))
                    .json().get("id").asLong();
            assertEquals("URLs referring to hosts that supply internal hosting metadata are prohibited.", user.post(400,
                    "action/" + port + "/execute", params("port", receiver.getAddress().getPort())).body());
            long host = admin.post(200, "action", Map.of("name", "Call", "type", "http", "model_id", model,
                    "template", Map.of("method", "GET", "url", "http://{{host}}/latest/meta-data"))).json().get("id").asLong();
            assertEquals("URLs referring to hosts that supply internal hosting metadata are prohibited.", user.post(400,
                    "action/" + host + "/execute", params("host", "169.254.169.254")).body());
            assertEquals("URLs referring to hosts that supply internal hosting metadata are prohibited.", user.post(400,
                    "action/" + host + "/execute", params("host", "localhost")).body());
            assertEquals(0, hits.get(), "nothing was sent");
        } finally {
            receiver.stop(0);
        }
    }

    @Test
    void archivingHidesAndStopsAnAction() {
        long delete = implicit(admin, model, "row/delete");
        assertTrue(admin.put(200, "action/" + delete, Map.of("archived", true)).json().get("archived").asBoolean());
        assertFalse(admin.get(200, "action", "model-id", model).json().findValuesAsText("id").contains(String.valueOf(delete)));
        admin.post(404, "action/" + delete + "/execute", params("id", 1));
        // Metabase: an archived action is not found (GET and the pre-fill) until it is unarchived
        assertEquals("Not found.", admin.get(404, "action/" + delete).body());
        user.get(404, "action/" + delete);
        admin.get(404, "action/" + delete + "/execute", "parameters", "{\"id\":1}");
        assertFalse(admin.put(200, "action/" + delete, Map.of("archived", false, "name", "Delete customer"))
                .json().get("archived").asBoolean());
        assertEquals("Delete customer", admin.get(200, "action/" + delete).json().get("name").asText());
        assertTrue(admin.get(200, "action", "model-id", model).json().findValuesAsText("id").contains(String.valueOf(delete)));
    }

    @Test
    void publicLinksRunForStrangersWithinTheThrottle() throws Exception {
        long update = implicit(admin, model, "row/update");
        admin.put(204, "setting/enable-public-sharing", Map.of("value", true));
        user.post(403, "action/" + update + "/public_link", null);
        String uuid = admin.post(200, "action/" + update + "/public_link", null).json().get("uuid").asText();
        assertEquals(uuid, admin.post(200, "action/" + update + "/public_link", null).json().get("uuid").asText());
        JsonNode listed = admin.get(200, "action/public").json();
        assertTrue(listed.findValuesAsText("public_uuid").contains(uuid));
        user.get(403, "action/public");

        JsonNode shown = anonymous.get(200, "public/action/" + uuid).json();
        assertEquals("row/update", shown.get("name").asText());
        assertFalse(shown.has("creator_id"));
        assertEquals("[1]", anonymous.post(200, "public/action/" + uuid + "/execute", params("id", 1, "email", "public@example.com"))
                .json().get("rows-updated").toString());
        assertEquals(List.of("public@example.com"), h2Rows("SELECT EMAIL FROM CUSTOMERS WHERE ID = 1"));

        int throttled = 0;
        String retryAfter = null;
        for (int i = 0; i < 15; i++) {
            Api.Res res = anonymous.call("POST", "public/action/" + uuid + "/execute", params("id", 1, "email", "burst" + i + "@example.com"));
            if (res.status() == 429) {
                throttled++;
                retryAfter = res.header("Retry-After");
            } else {
                assertEquals(200, res.status(), res.body());
            }
        }
        assertTrue(throttled >= 5, "15 runs within a second: at most 10 pass, got " + throttled + " refused");
        assertNotNull(retryAfter);
        assertTrue(Integer.parseInt(retryAfter) >= 1);

        admin.delete(204, "action/" + update + "/public_link");
        anonymous.get(404, "public/action/" + uuid);
        Thread.sleep(Integer.parseInt(retryAfter) * 1000L + 100); // the throttle counts before anything else
        anonymous.post(404, "public/action/" + uuid + "/execute", params("id", 1));
        admin.delete(404, "action/" + update + "/public_link");
    }

    @Test
    void implicitActionsOnPostgres() throws Exception {
        String name = PostgresTargets.create("actions");
        PostgresTargets.execute(name, "CREATE TABLE people (id SERIAL PRIMARY KEY, name TEXT NOT NULL, born DATE)",
                "INSERT INTO people (name, born) VALUES ('Ada', '1815-12-10')");
        long db = admin.post(200, "database", Map.of("engine", "postgres", "name", "PG actions",
                "details", PostgresTargets.details(name))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(db).get();
        admin.put(200, "database/" + db, Map.of("settings", Map.of("database-enable-actions", true)));
        long people = model("People", db, tableId(db, "people"), writable);
        long create = implicit(admin, people, "row/create");
        long update = implicit(admin, people, "row/update");
        long delete = implicit(admin, people, "row/delete");

        JsonNode row = user.post(200, "action/" + create + "/execute", params("name", "Grace", "born", "1906-12-09"))
                .json().get("created-row");
        long id = row.get("id").asLong();
        assertEquals("Grace", row.get("name").asText());
        assertEquals("[1]", user.post(200, "action/" + update + "/execute", params("id", id, "born", "1906-12-10"))
                .json().get("rows-updated").toString());
        Map<String, String> byName = new HashMap<>();
        try (Connection c = PostgresTargets.connect(name); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT name, born FROM people ORDER BY id")) {
            while (rows.next()) {
                byName.put(rows.getString(1), rows.getString(2));
            }
        }
        assertEquals(Map.of("Ada", "1815-12-10", "Grace", "1906-12-10"), byName);
        JsonNode bad = user.post(400, "action/" + create + "/execute", params("born", "1900-01-01")).json();
        assertTrue(bad.get("message").asText().contains("null value"), bad.toString());
        assertEquals("born", user.post(400, "action/" + update + "/execute", params("id", id, "born", "yesterday"))
                .json().get("errors").fieldNames().next());
        assertEquals("[1]", user.post(200, "action/" + delete + "/execute", params("id", id)).json().get("rows-deleted").toString());
        try (Connection c = PostgresTargets.connect(name); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT count(*) FROM people")) {
            rows.next();
            assertEquals(1, rows.getInt(1));
        }

        long bulkCreate = implicit(admin, people, "bulk/create");
        long bulkUpdate = implicit(admin, people, "bulk/update");
        long bulkDelete = implicit(admin, people, "bulk/delete");
        JsonNode made = user.post(200, "action/" + bulkCreate + "/execute", rowsOf(Map.of("name", "Hedy", "born", "1914-11-09"),
                Map.of("name", "Joan"))).json().get("created-rows");
        long hedy = made.get(0).get("id").asLong();
        long joan = made.get(1).get("id").asLong();
        assertEquals(List.of("Ada|1815-12-10", "Hedy|1914-11-09", "Joan|null"), pgRows(name, "SELECT name, born FROM people ORDER BY id"));
        // a NOT NULL violation in the second row: the first row's insert is rolled back with it
        assertTrue(user.post(400, "action/" + bulkCreate + "/execute", rowsOf(Map.of("name", "Fine"), Map.of("born", "1900-01-01")))
                .json().get("message").asText().contains("null value"));
        assertEquals(2, user.post(200, "action/" + bulkUpdate + "/execute", rowsOf(Map.of("id", hedy, "name", "Hedy L."),
                Map.of("id", joan, "born", "1937-04-27"))).json().get("rows-updated").asInt());
        assertEquals("Row 1: Sorry, the row you're trying to update doesn't exist", user.post(400, "action/" + bulkUpdate + "/execute",
                rowsOf(Map.of("id", hedy, "name", "Lost"), Map.of("id", 9999, "name", "Ghost"))).body());
        assertEquals("Row 1: Sorry, the row you're trying to delete doesn't exist", user.post(400, "action/" + bulkDelete + "/execute",
                rowsOf(Map.of("id", hedy), Map.of("id", 9999))).body());
        assertEquals(List.of("Ada|1815-12-10", "Hedy L.|1914-11-09", "Joan|1937-04-27"), pgRows(name, "SELECT name, born FROM people ORDER BY id"));
        assertTrue(user.post(200, "action/" + bulkDelete + "/execute", rowsOf(Map.of("id", hedy), Map.of("id", joan)))
                .json().get("success").asBoolean());
        assertEquals(List.of("Ada|1815-12-10"), pgRows(name, "SELECT name, born FROM people ORDER BY id"));
    }

    private static List<String> pgRows(String database, String sql) throws Exception {
        try (Connection c = PostgresTargets.connect(database); Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            return rows(rows);
        }
    }
}
