package io.quarry.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.driver.h2.H2Driver;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue #25, items 1 to 3, as an attacker sends them over HTTP, each checked by its effect in the database (no alias,
 * no row, no table), with the legitimate use beside it still working: SQL on H2 connected as its administrator; SQL
 * hidden from a query-builder-only user in a structured query's source or join, or in a card it uses; query actions
 * that would define a Java function; DuckDB and SQLite SQL aimed at the host's files.
 */
class WarehouseDoorIT {
    private static final String PASSWORD = "Sunny-day-77";
    private static final AtomicInteger SEQ = new AtomicInteger();
    private static final String ALIAS_ATTACK = "SELECT 1 AS x; EXECUTE IMMEDIATE 'CREATE ALIAS EXECX AS ''String e(String c) throws "
            + "Exception { return new String(Runtime.getRuntime().exec(c).getInputStream().readAllBytes()); }'''";

    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    /** An H2 file connected as its administrator ({@code sa}), as H2 files are commonly connected. */
    private static Path adminFile;
    private static long adminDb;
    /** An H2 file connected as an ordinary user, with a SECRETS table. */
    private static Path shopFile;
    private static long shopDb;
    private static long ordersTable;
    /** Query-builder rights on the shop, no SQL. */
    private static Api viewer;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        adminFile = TargetDatabases.h2Shop();
        adminDb = addH2("As admin", adminFile, "sa", "secret-pw");
        shopFile = TargetDatabases.h2Shop();
        TargetDatabases.h2Execute(shopFile, "CREATE TABLE SECRETS (ID INT PRIMARY KEY, V VARCHAR(20))",
                "INSERT INTO SECRETS VALUES (1, 'hunter2')");
        shopDb = addH2("Shop", shopFile, TargetDatabases.H2_USER, TargetDatabases.H2_PASSWORD);
        ordersTable = tableId(shopDb, "ORDERS");
        long builders = admin.post(200, "permissions/group", Map.of("name", "Builders " + SEQ.incrementAndGet())).json().get("id").asLong();
        long revision = admin.get(200, "permissions/graph").json().get("revision").asLong();
        admin.put(200, "permissions/graph", Map.of("revision", revision, "groups", Map.of(
                "1", Map.of(String.valueOf(shopDb), Map.of("view-data", "unrestricted", "create-queries", "no")),
                String.valueOf(builders), Map.of(String.valueOf(shopDb), Map.of("view-data", "unrestricted", "create-queries", "query-builder")))));
        viewer = user(builders);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long addH2(String name, Path file, String user, String password) throws Exception {
        long id = admin.post(200, "database", Map.of("engine", "h2", "name", name,
                "details", Map.of("db", "file:" + file, "user", user, "password", password))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(id).get();
        return id;
    }

    private static long tableId(long db, String name) {
        for (JsonNode t : admin.get(200, "database/" + db + "/metadata").json().get("tables")) {
            if (t.get("name").asText().equals(name)) {
                return t.get("id").asLong();
            }
        }
        throw new AssertionError("no table " + name);
    }

    private static Api user(long group) {
        String email = "door-" + SEQ.incrementAndGet() + "@example.com";
        admin.post(200, "user", Map.of("email", email, "first_name", "D", "last_name", "U" + SEQ.get(), "password", PASSWORD,
                "user_group_memberships", List.of(Map.of("id", 1), Map.of("id", group))));
        return anonymous.as(Fixtures.login(anonymous, email, PASSWORD));
    }

    private static Map<String, Object> nativeQuery(long db, String sql) {
        return Map.of("database", db, "type", "native", "native", Map.of("query", sql));
    }

    /** What H2 itself holds, read as its administrator beside Quarry (the same in-process database). */
    private static long h2Count(Path file, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + file + ";IFEXISTS=TRUE", "sa", "secret-pw");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long aliases(Path file) throws SQLException {
        return h2Count(file, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.ROUTINES WHERE ROUTINE_NAME LIKE 'EXEC%' OR ROUTINE_NAME = 'X'");
    }

    @Test
    void sqlOnAnH2FileConnectedAsItsAdministratorIsRefused() throws Exception {
        for (String sql : List.of(ALIAS_ATTACK, "SELECT FILE_READ('/etc/hostname')", "SELECT 1", "SELECT * FROM ORDERS")) {
            JsonNode refused = admin.post(400, "dataset", nativeQuery(adminDb, sql)).json();
            assertEquals(H2Driver.ADMIN_REFUSED, refused.get("error").asText(), sql);
        }
        // a SQL question saved earlier, a card referring to one and a structured query with a native source: refused too
        JsonNode card = admin.post(200, "card", Map.of("name", "Admin SQL", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", nativeQuery(adminDb, "SELECT 1 AS X"))).json();
        assertEquals(H2Driver.ADMIN_REFUSED, admin.post(400, "card/" + card.get("id").asLong() + "/query", null).json().get("error").asText());
        assertEquals(H2Driver.ADMIN_REFUSED, admin.post(400, "dataset", Map.of("database", adminDb, "type", "query",
                "query", Map.of("source-query", Map.of("native", "SELECT 1 AS X")))).json().get("error").asText());
        assertEquals(0, aliases(adminFile), "no function was defined");
        // a structured query is Quarry's own SQL: it runs
        long orders = tableId(adminDb, "ORDERS");
        assertEquals(3, admin.post(202, "dataset", Map.of("database", adminDb, "type", "query",
                "query", Map.of("source-table", orders, "aggregation", List.of(List.of("count"))))).json()
                .get("data").get("rows").get(0).get(0).asInt());
    }

    @Test
    void sqlOfAnOrdinaryUserMayOnlyRead() throws Exception {
        for (String sql : List.of(ALIAS_ATTACK, "SELECT 1; INSERT INTO SECRETS VALUES (2, 'planted')", "INSERT INTO SECRETS VALUES (3, 'x')",
                "SELECT * FROM FINAL TABLE (INSERT INTO SECRETS VALUES (4, 'delta'))", "SELECT FILE_READ('/etc/hostname')",
                "DROP TABLE SECRETS", "EXECUTE IMMEDIATE 'DELETE FROM SECRETS'", "CALL FILE_WRITE('x', '/tmp/quarry-owned')")) {
            JsonNode refused = admin.post(400, "dataset", nativeQuery(shopDb, sql)).json();
            assertEquals("failed", refused.get("status").asText(), sql);
        }
        // the wrapping parenthesis of a native source closed inside its text
        admin.post(400, "dataset", Map.of("database", shopDb, "type", "query", "query",
                Map.of("source-query", Map.of("native", "SELECT 1 AS X) s; INSERT INTO SECRETS VALUES (5, 'p'); SELECT * FROM (SELECT 1"))));
        assertEquals(0, aliases(shopFile));
        assertEquals(1, h2Count(shopFile, "SELECT COUNT(*) FROM SECRETS"), "no row was written");
        assertFalse(Files.exists(Path.of("/tmp/quarry-owned")));
        // reading works, with parameters and card references
        JsonNode read = admin.post(202, "dataset", Map.of("database", shopDb, "type", "native", "native", Map.of(
                "query", "SELECT V FROM SECRETS WHERE ID = {{id}}", "template-tags", Map.of("id", Map.of("name", "id", "type", "number"))),
                "parameters", List.of(Map.of("type", "number", "value", 1, "target", List.of("variable", List.of("template-tag", "id")))))).json();
        assertEquals("[[\"hunter2\"]]", read.get("data").get("rows").toString());
        assertEquals(2, admin.post(202, "dataset", nativeQuery(shopDb, "WITH C AS (SELECT * FROM CUSTOMERS) SELECT * FROM C"))
                .json().get("row_count").asInt());
    }

    @Test
    void sqlInsideAStructuredQueryNeedsSqlRights() throws Exception {
        Map<String, Object> nativeSource = Map.of("database", shopDb, "type", "query",
                "query", Map.of("source-query", Map.of("native", "SELECT * FROM SECRETS")));
        Map<String, Object> nativeJoin = Map.of("database", shopDb, "type", "query", "query", Map.of("source-table", ordersTable,
                "joins", List.of(Map.of("alias", "S", "source-query", Map.of("native", "SELECT * FROM SECRETS"),
                        "condition", List.of("=", 1, 1), "fields", "none"))));
        long nativeCard = admin.post(200, "card", Map.of("name", "Secrets", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", nativeQuery(shopDb, "SELECT * FROM SECRETS"))).json().get("id").asLong();
        Map<String, Object> overNativeCard = Map.of("database", shopDb, "type", "query",
                "query", Map.of("source-table", "card__" + nativeCard));
        Map<String, Object> mbql5 = Map.of("lib/type", "mbql/query", "database", shopDb,
                "stages", List.of(Map.of("lib/type", "mbql.stage/native", "native", "SELECT * FROM SECRETS"),
                        Map.of("lib/type", "mbql.stage/mbql")));
        long cardsBefore = admin.get(200, "card").json().size();
        for (Map<String, Object> query : List.of(nativeSource, nativeJoin, overNativeCard, mbql5)) {
            JsonNode refused = viewer.post(403, "dataset", query).json();
            assertEquals("You do not have permissions to run this query.", refused.get("error").asText(), query.toString());
            viewer.post(403, "dataset/csv", Map.of("query", query));
            // nor saved as a question, to run with its own rights later
            Map<String, Object> card = new LinkedHashMap<>();
            card.put("name", "Sneaky " + UUID.randomUUID());
            card.put("display", "table");
            card.put("visualization_settings", Map.of());
            card.put("dataset_query", query);
            viewer.post(403, "card", card);
            // the same queries run for a user with SQL rights
            Api.Res ran = admin.call("POST", "dataset", query);
            assertEquals(202, ran.status(), query + " " + ran.body());
        }
        assertEquals(cardsBefore, admin.get(200, "card").json().size(), "no card was saved");
        // and a structured query of the viewer's own still runs
        assertEquals(3, viewer.post(202, "dataset", Map.of("database", shopDb, "type", "query",
                "query", Map.of("source-table", ordersTable))).json().get("row_count").asInt());
    }

    @Test
    void queryActionsCannotDefineJavaFunctionsAndWritesStillWork() throws Exception {
        Path file = TargetDatabases.h2Shop();
        long db = addH2("Actions", file, TargetDatabases.H2_USER, TargetDatabases.H2_PASSWORD);
        admin.put(200, "database/" + db, Map.of("settings", Map.of("database-enable-actions", true)));
        long model = admin.post(200, "card", Map.of("name", "Customers", "type", "model", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", db, "type", "query", "query", Map.of("source-table", tableId(db, "CUSTOMERS")))))
                .json().get("id").asLong();
        admin.put(204, "setting/enable-public-sharing", Map.of("value", true));
        for (String sql : List.of("CREATE ALIAS X FOR \"java.lang.System.getProperty\"", "DELETE FROM ORDERS; " + ALIAS_ATTACK.substring(13),
                "RUNSCRIPT FROM '/etc/hostname'", "SELECT FILE_READ('/etc/hostname')")) {
            long action = admin.post(200, "action", queryAction("Bad " + UUID.randomUUID(), model, db, sql)).json().get("id").asLong();
            JsonNode refused = admin.post(400, "action/" + action + "/execute", Map.of("parameters", Map.of())).json();
            assertTrue(refused.get("message").asText().startsWith("Error executing Action: "), refused.toString());
            String uuid = admin.post(200, "action/" + action + "/public_link", null).json().get("uuid").asText();
            anonymous.post(400, "public/action/" + uuid + "/execute", Map.of("parameters", Map.of()));
        }
        assertEquals(0, aliases(file));
        assertEquals(3, h2Count(file, "SELECT COUNT(*) FROM ORDERS"), "nothing was deleted");
        // a query action that changes rows works
        long rename = admin.post(200, "action", queryAction("Rename", model, db, "UPDATE CUSTOMERS SET NAME = 'Countess' WHERE ID = 1"))
                .json().get("id").asLong();
        assertEquals(1, admin.post(200, "action/" + rename + "/execute", Map.of("parameters", Map.of())).json().get("rows-affected").asInt());
        assertEquals(1, h2Count(file, "SELECT COUNT(*) FROM CUSTOMERS WHERE NAME = 'Countess'"));
        // and an implicit one
        long create = admin.post(200, "action", Map.of("name", "New", "type", "implicit", "kind", "row/create", "model_id", model))
                .json().get("id").asLong();
        admin.post(200, "action/" + create + "/execute", Map.of("parameters", Map.of("id", 9, "name", "Lin")));
        assertEquals(1, h2Count(file, "SELECT COUNT(*) FROM CUSTOMERS WHERE NAME = 'Lin'"));
        // actions switched off: Quarry writes nothing there any more, and the file is opened read-only again
        admin.put(200, "database/" + db, Map.of("settings", Map.of("database-enable-actions", false)));
        admin.post(400, "action/" + rename + "/execute", Map.of("parameters", Map.of()));
        assertEquals(3, admin.post(202, "dataset", nativeQuery(db, "SELECT * FROM CUSTOMERS")).json().get("row_count").asInt());
    }

    private static Map<String, Object> queryAction(String name, long model, long db, String sql) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("type", "query");
        body.put("model_id", model);
        body.put("database_id", db);
        body.put("dataset_query", Map.of("type", "native", "database", db, "native", Map.of("query", sql, "template-tags", Map.of())));
        return body;
    }

    @Test
    void duckDbAndSqliteSqlReachesNoFileButItsOwn() throws Exception {
        Path dir = Files.createTempDirectory("quarry-door");
        Path duck = dir.resolve("ducks.duckdb");
        try (Connection c = new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:" + duck, new java.util.Properties());
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE birds (id INT, name VARCHAR)");
            s.execute("INSERT INTO birds VALUES (1, 'toucan')");
        }
        Path lite = dir.resolve("birds.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + lite); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE birds (id INT, name TEXT)");
            s.execute("INSERT INTO birds VALUES (1, 'toucan')");
        }
        long duckDb = admin.post(200, "database", Map.of("engine", "duckdb", "name", "Ducks", "details", Map.of("db", duck.toString())))
                .json().get("id").asLong();
        long liteDb = admin.post(200, "database", Map.of("engine", "sqlite", "name", "Lite", "details", Map.of("db", lite.toString())))
                .json().get("id").asLong();
        for (String sql : List.of("SELECT * FROM read_csv('/etc/passwd')", "ATTACH '" + dir.resolve("x.duckdb") + "' AS x",
                "COPY birds TO '" + dir.resolve("out.csv") + "'", "INSTALL httpfs", "SELECT 1; DELETE FROM birds",
                "SET enable_external_access = true", "SELECT * FROM query('DELETE FROM birds')")) {
            assertEquals("failed", admin.post(400, "dataset", nativeQuery(duckDb, sql)).json().get("status").asText(), sql);
        }
        for (String sql : List.of("ATTACH DATABASE '" + dir.resolve("x.sqlite") + "' AS x", "SELECT load_extension('/tmp/x.so')",
                "SELECT 1; DELETE FROM birds", "DELETE FROM birds")) {
            assertEquals("failed", admin.post(400, "dataset", nativeQuery(liteDb, sql)).json().get("status").asText(), sql);
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("birds.sqlite", "ducks.duckdb"), files.map(p -> p.getFileName().toString())
                    .filter(n -> !n.endsWith(".wal")).sorted().toList(), "no file was created");
        }
        assertEquals("[[1,\"toucan\"]]", admin.post(202, "dataset", nativeQuery(duckDb, "SELECT * FROM birds")).json()
                .get("data").get("rows").toString());
        assertEquals("[[1,\"toucan\"]]", admin.post(202, "dataset", nativeQuery(liteDb, "SELECT * FROM birds")).json()
                .get("data").get("rows").toString());
    }
}
