package io.quarry.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.ThroughQuarry;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.MariaDbServer;
import io.quarry.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Actions on the engines beyond H2 and PostgreSQL: a MariaDB server (MySQL engine), a DuckDB file and a SQLite file.
 * On each, over HTTP: implicit row and bulk actions and a query action change exactly their rows (read back with SQL),
 * a failing write changes nothing, a column name with a space goes through the dialect's quoting, and the files are
 * read-only (a native write fails) while actions are off.
 */
class ActionsEnginesIT {
    private static TestServer server;
    private static Api admin;
    private static long collection;

    /** Reads the target table with SQL, outside the HTTP API. */
    private interface Reader {
        List<String> rows(String sql) throws Exception;
    }

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of());
        Api anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        collection = admin.post(200, "collection", Map.of("name", "Actions")).json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void mariaDb() throws Exception {
        MariaDbServer mariadb = MariaDbServer.get();
        String name = "actions_" + ProcessHandle.current().pid();
        mariadb.createDatabase(name);
        try (Connection c = mariadb.connect(name); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE people (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL, born DATE, "
                    + "`Nick Name` VARCHAR(50))");
            s.execute("INSERT INTO people (name, born) VALUES ('Ada', '1815-12-10')");
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("host", "127.0.0.1");
        details.put("port", mariadb.port());
        details.put("dbname", name);
        details.put("user", "root");
        long db = connect("mysql", details);
        exercise(db, false, sql -> {
            try (Connection c = mariadb.connect(name)) {
                return rows(c, sql);
            }
        });
    }

    @Test
    void duckDb() throws Exception {
        Path file = Files.createTempDirectory("quarry-duckdb-actions").resolve("people.duckdb");
        try (Connection c = new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:" + file, new Properties()); Statement s = c.createStatement()) {
            s.execute("CREATE SEQUENCE people_ids START 1");
            s.execute("CREATE TABLE people (id BIGINT PRIMARY KEY DEFAULT nextval('people_ids'), name VARCHAR NOT NULL, born DATE, "
                    + "\"Nick Name\" VARCHAR)");
            s.execute("INSERT INTO people (name, born) VALUES ('Ada', DATE '1815-12-10')");
        }
        long db = connect("duckdb", Map.of("db", file.toString()));
        // DuckDB lets one process open a file with one configuration: read it through Quarry's own pool
        exercise(db, true, sql -> ThroughQuarry.rows(server.quarry(), db, sql));
    }

    @Test
    void sqlite() throws Exception {
        Path file = Files.createTempDirectory("quarry-sqlite-actions").resolve("people.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born DATE, \"Nick Name\" TEXT)");
            s.execute("INSERT INTO people (name, born) VALUES ('Ada', '1815-12-10')");
        }
        long db = connect("sqlite", Map.of("db", file.toString()));
        exercise(db, true, sql -> {
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
                return rows(c, sql);
            }
        });
    }

    private static long connect(String engine, Map<String, Object> details) throws Exception {
        long db = admin.post(200, "database", Map.of("engine", engine, "name", engine + " actions", "details", details))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(db).get();
        return db;
    }

    private static void exercise(long db, boolean file, Reader reader) throws Exception {
        long table = tableId(db, "people");
        long model = model(db, table);
        String all = "SELECT id, name, born, " + (file ? "\"Nick Name\"" : "`Nick Name`") + " FROM people ORDER BY id";
        if (file) {
            assertReadOnly(db, reader);
        }
        admin.post(400, "action", Map.of("name", "x", "type", "implicit", "kind", "row/create", "model_id", model));
        admin.put(200, "database/" + db, Map.of("settings", Map.of("database-enable-actions", true)));

        long create = implicit(model, "row/create");
        long update = implicit(model, "row/update");
        long delete = implicit(model, "row/delete");
        JsonNode row = admin.post(200, "action/" + create + "/execute",
                params("name", "Grace", "born", "1906-12-09", "nick_name", "Amazing")).json().get("created-row");
        long grace = row.get("id").asLong();
        assertEquals(2, grace, row.toString());
        assertEquals("Grace", row.get("name").asText(), row.toString());
        assertEquals("Amazing", row.get("Nick Name").asText(), row.toString());
        assertEquals("[1]", admin.post(200, "action/" + update + "/execute", params("id", grace, "nick_name", "Grace H."))
                .json().get("rows-updated").toString());
        assertEquals(List.of("1|Ada|1815-12-10|null", "2|Grace|1906-12-09|Grace H."), reader.rows(all));

        // failing writes change nothing: a NOT NULL column left out, a row that is not there
        List<String> before = reader.rows(all);
        assertTrue(admin.post(400, "action/" + create + "/execute", params("born", "1900-01-01")).json().get("message")
                .asText().toLowerCase(Locale.ROOT).contains("name"));
        assertEquals("Sorry, the row you're trying to update doesn't exist",
                admin.post(400, "action/" + update + "/execute", params("id", 999, "name", "Ghost")).body());
        assertEquals(before, reader.rows(all));

        // bulk: all rows in one transaction; a bad second row rolls back the first
        long bulkCreate = implicit(model, "bulk/create");
        JsonNode made = admin.post(200, "action/" + bulkCreate + "/execute",
                Map.of("parameters", List.of(Map.of("name", "Hedy"), Map.of("name", "Joan", "born", "1937-04-27")))).json().get("created-rows");
        assertEquals(List.of("Hedy", "Joan"), List.of(made.get(0).get("name").asText(), made.get(1).get("name").asText()));
        long hedy = made.get(0).get("id").asLong();
        long joan = made.get(1).get("id").asLong();
        admin.post(400, "action/" + bulkCreate + "/execute",
                Map.of("parameters", List.of(Map.of("name", "Fine"), Map.of("born", "1900-01-01"))));
        assertEquals(List.of("1|Ada|1815-12-10|null", "2|Grace|1906-12-09|Grace H.", hedy + "|Hedy|null|null",
                joan + "|Joan|1937-04-27|null"), reader.rows(all));

        // a query action binds its values
        Map<String, Object> tags = new LinkedHashMap<>();
        tags.put("name", ActionFixtures.requiredTag("name", "Name", "text"));
        tags.put("id", ActionFixtures.requiredTag("id", "Id", "number"));
        long rename = admin.post(200, "action", ActionFixtures.queryAction("Rename", model, db,
                "UPDATE people SET name = {{name}} WHERE id = {{id}}", tags)).json().get("id").asLong();
        String hostile = "x'; DROP TABLE people; --";
        assertEquals(1, admin.post(200, "action/" + rename + "/execute", params("tag-name", hostile, "tag-id", hedy))
                .json().get("rows-affected").asInt());
        assertEquals(List.of(hedy + "|" + hostile), reader.rows("SELECT id, name FROM people WHERE id = " + hedy));

        assertEquals("[1]", admin.post(200, "action/" + delete + "/execute", params("id", joan)).json().get("rows-deleted").toString());
        assertEquals(List.of("1|Ada", "2|Grace", hedy + "|" + hostile), reader.rows("SELECT id, name FROM people ORDER BY id"));

        // switched off: actions are refused and a file is read-only again
        admin.put(200, "database/" + db, Map.of("settings", Map.of("database-enable-actions", false)));
        assertEquals("Actions are not enabled.", admin.post(400, "action/" + delete + "/execute", params("id", hedy))
                .json().get("message").asText());
        if (file) {
            assertReadOnly(db, reader);
        }
        assertEquals(List.of("1|Ada", "2|Grace", hedy + "|" + hostile), reader.rows("SELECT id, name FROM people ORDER BY id"));
    }

    /**
     * A native write (one that returns rows, so that it runs as a query on every driver) is refused, by the engine's
     * statement policy or by the read-only file, and leaves no row behind.
     */
    private static void assertReadOnly(long db, Reader reader) throws Exception {
        String refused = admin.call("POST", "dataset", Map.of("database", db, "type", "native",
                "native", Map.of("query", "INSERT INTO people (name) VALUES ('Intruder') RETURNING id"))).body().toLowerCase(Locale.ROOT);
        assertTrue(refused.contains("read-only") || refused.contains("readonly") || refused.contains("read only")
                || refused.contains("\"state\":\"42501\""), refused);
        assertEquals(List.of(), reader.rows("SELECT id FROM people WHERE name = 'Intruder'"));
    }

    private static long tableId(long db, String name) {
        for (JsonNode t : admin.get(200, "database/" + db + "/metadata").json().get("tables")) {
            if (t.get("name").asText().equalsIgnoreCase(name)) {
                return t.get("id").asLong();
            }
        }
        throw new AssertionError("no table " + name);
    }

    private static long model(long db, long table) {
        return ActionFixtures.model(admin, "People", db, table, collection);
    }

    private static long implicit(long modelId, String kind) {
        return ActionFixtures.implicit(admin, modelId, kind);
    }

    private static Map<String, Object> params(Object... pairs) {
        return ActionFixtures.params(pairs);
    }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            int n = rows.getMetaData().getColumnCount();
            while (rows.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(String.valueOf(rows.getObject(i)));
                }
                out.add(String.join("|", row));
            }
        }
        return out;
    }
}
