package io.quarry.driver;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.driver.duckdb.DuckDbDriver;
import io.quarry.driver.h2.H2Driver;
import io.quarry.driver.sqlite.SqliteDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each engine's statement policy ({@link Driver#checkStatement}) on real connections: what reaches the database and
 * what never does. The HTTP tests (io.quarry.security.WarehouseDoorIT) check the same through Quarry.
 */
class EngineStatementPolicyTest {
    @TempDir
    Path dir;

    private Path h2File() throws SQLException {
        Path file = dir.resolve("shop");
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + file, "sa", "pw"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE T (ID INT PRIMARY KEY, V VARCHAR(10))");
            s.execute("INSERT INTO T VALUES (1, 'a')");
            s.execute("CREATE USER BOB PASSWORD 'bob'");
            s.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON SCHEMA PUBLIC TO BOB");
        }
        return file;
    }

    private static Connection open(Driver driver, Map<String, Object> details, boolean mayWrite) throws SQLException {
        Driver.ConnectionSpec spec = driver.connectionSpec(details, mayWrite);
        return Drivers.open(spec);
    }

    private static long count(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void h2RefusesSqlWrittenByAPersonAsAnAdministrator() throws Exception {
        Path file = h2File();
        H2Driver h2 = new H2Driver();
        try (Connection admin = open(h2, Map.of("db", file.toString(), "user", "sa", "password", "pw"), false)) {
            StatementRefused refused = assertThrows(StatementRefused.class,
                    () -> h2.checkStatement(admin, "SELECT 1", StatementKind.READ, true));
            assertEquals(H2Driver.ADMIN_REFUSED, refused.getMessage());
            // Quarry's own SQL (a compiled structured query) may run as one
            assertDoesNotThrow(() -> h2.checkStatement(admin, "SELECT \"ID\" FROM \"PUBLIC\".\"T\"", StatementKind.READ, false));
        }
    }

    @Test
    void h2ReadsAreOneSelectAndNothingElse() throws Exception {
        Path file = h2File();
        H2Driver h2 = new H2Driver();
        try (Connection bob = open(h2, Map.of("db", file.toString(), "user", "BOB", "password", "bob"), true)) {
            assertDoesNotThrow(() -> h2.checkStatement(bob, "WITH X AS (SELECT * FROM T) SELECT * FROM X WHERE ID = ?", StatementKind.READ, true));
            for (String sql : new String[]{"SELECT 1 AS X; EXECUTE IMMEDIATE 'CREATE ALIAS EXECX AS ''String e() { return \"\"; }'''",
                    "EXECUTE IMMEDIATE 'SELECT 1'", "SELECT 1; INSERT INTO T VALUES (2, 'b')", "INSERT INTO T VALUES (2, 'b')",
                    "CALL 1", "SET @X 1", "SELECT * FROM FINAL TABLE (INSERT INTO T VALUES (2, 'b'))",
                    "SELECT (SELECT COUNT(*) FROM OLD TABLE (DELETE FROM T)) FROM T", "EXPLAIN SELECT 1"}) {
                assertThrows(StatementRefused.class, () -> h2.checkStatement(bob, sql, StatementKind.READ, true), sql);
            }
            // a syntax error is the statement's own error, as executing it would report it
            SQLException syntax = assertThrows(SQLException.class, () -> h2.checkStatement(bob, "SELECT * FROM (SELECT 1) x) s; --",
                    StatementKind.READ, true));
            assertFalse(syntax instanceof StatementRefused);
            // nothing of any of it ran
            assertEquals(1, count(bob, "T"));
        }
    }

    @Test
    void h2ReadsOnAWritableFileRollBackWhateverTheyChange() throws Exception {
        Path file = h2File();
        H2Driver h2 = new H2Driver();
        try (Connection bob = open(h2, Map.of("db", file.toString(), "user", "BOB", "password", "bob"), true)) {
            h2.checkStatement(bob, "SELECT * FROM T", StatementKind.READ, true);
            assertFalse(bob.getAutoCommit(), "a read on a read-write file runs in a transaction the pool rolls back");
        }
        try (Connection readOnly = open(h2, Map.of("db", file.toString(), "user", "BOB", "password", "bob"), false)) {
            h2.checkStatement(readOnly, "SELECT * FROM T", StatementKind.READ, true);
            assertTrue(readOnly.getAutoCommit(), "opened read-only, H2 itself refuses writes");
            assertThrows(SQLException.class, () -> readOnly.createStatement().execute("INSERT INTO T VALUES (3, 'c')"));
        }
    }

    @Test
    void h2WritesAreOneStatementOfTheirKind() throws Exception {
        Path file = h2File();
        H2Driver h2 = new H2Driver();
        try (Connection bob = open(h2, Map.of("db", file.toString(), "user", "BOB", "password", "bob"), true)) {
            assertDoesNotThrow(() -> h2.checkStatement(bob, "UPDATE T SET V = ? WHERE ID = ?", StatementKind.WRITE_ROWS, true));
            assertDoesNotThrow(() -> h2.checkStatement(bob, "MERGE INTO T KEY(ID) VALUES (1, 'm')", StatementKind.WRITE_ROWS, true));
            for (String sql : new String[]{"DROP TABLE T", "CREATE ALIAS X FOR \"java.lang.System.getProperty\"",
                    "DELETE FROM T; DROP TABLE T", "RUNSCRIPT FROM '/tmp/x.sql'", "SELECT * FROM T"}) {
                assertThrows(StatementRefused.class, () -> h2.checkStatement(bob, sql, StatementKind.WRITE_ROWS, true), sql);
            }
            assertDoesNotThrow(() -> h2.checkStatement(bob, "CREATE TABLE U (A INT)", StatementKind.WRITE_TABLES, false));
            assertThrows(StatementRefused.class,
                    () -> h2.checkStatement(bob, "CREATE ALIAS X FOR \"java.lang.System.getProperty\"", StatementKind.WRITE_TABLES, false));
        }
    }

    @Test
    void duckDbReadsAreOneSelectAsItsOwnParserSays() throws Exception {
        Path file = dir.resolve("ducks.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT, v VARCHAR)");
            s.execute("INSERT INTO t VALUES (1, 'a')");
        }
        DuckDbDriver duckdb = new DuckDbDriver();
        // opened read-write (actions on): only the policy keeps reads from writing
        try (Connection c = open(duckdb, Map.of("db", file.toString()), true)) {
            assertDoesNotThrow(() -> duckdb.checkStatement(c, "FROM t WHERE id = ?", StatementKind.READ, true));
            for (String sql : new String[]{"SELECT 1; DELETE FROM t", "SELECT 1; SELECT 2", "DELETE FROM t", "ATTACH '" + dir + "/x.duckdb'",
                    "COPY t TO '" + dir + "/x.csv'", "INSTALL httpfs", "LOAD httpfs", "SET enable_external_access = true"}) {
                assertThrows(StatementRefused.class, () -> duckdb.checkStatement(c, sql, StatementKind.READ, true), sql);
            }
            assertThrows(StatementRefused.class, () -> duckdb.checkStatement(c, "DELETE FROM t; DROP TABLE t", StatementKind.WRITE_ROWS, true));
            assertThrows(StatementRefused.class, () -> duckdb.checkStatement(c, "ATTACH 'x'", StatementKind.WRITE_ROWS, true));
            // and files stay out of reach whatever runs
            assertThrows(SQLException.class, () -> c.createStatement().executeQuery("SELECT * FROM read_csv('/etc/passwd')"));
            assertEquals(1, count(c, "t"));
        }
        assertFalse(Files.exists(dir.resolve("x.duckdb")));
        assertFalse(Files.exists(dir.resolve("x.csv")));
    }

    @Test
    void sqliteReadsRunOnReadOnlyConnectionsAndWritesAreOneStatement() throws Exception {
        Path file = dir.resolve("s.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT, v TEXT)");
            s.execute("INSERT INTO t VALUES (1, 'a')");
        }
        SqliteDriver sqlite = new SqliteDriver();
        assertTrue(sqlite.opensReadOnlyBesideWriters());
        try (Connection c = open(sqlite, Map.of("db", file.toString()), false)) {
            assertThrows(StatementRefused.class, () -> sqlite.checkStatement(c, "SELECT 1; DELETE FROM t", StatementKind.READ, true));
            assertThrows(StatementRefused.class, () -> sqlite.checkStatement(c, "ATTACH '" + dir + "/x.sqlite' AS x", StatementKind.READ, true));
            assertThrows(SQLException.class, () -> c.createStatement().execute("DELETE FROM t"), "opened read-only");
            assertThrows(SQLException.class, () -> c.createStatement().execute("ATTACH '" + dir + "/x.sqlite' AS x"), "no attaching");
            assertEquals(1, count(c, "t"));
        }
        assertFalse(Files.exists(dir.resolve("x.sqlite")));
    }
}
