package io.quarry.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.driver.duckdb.DuckDbDriver;
import io.quarry.driver.sqlite.SqliteDriver;
import io.quarry.web.error.ApiException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SQLite and DuckDB: plain file paths only, never a new file, failures explained, types by name. */
class FileDriversTest {
    private static final SqliteDriver SQLITE = new SqliteDriver();
    private static final DuckDbDriver DUCKDB = new DuckDbDriver();

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {":memory:", ":resource:org/evil/db.sqlite", "file:x.db?mode=memory&cache=shared", "x.db?vfs=unix-none",
            "x.db;threads=2", "md:my_db", "motherduck:my_db", "jdbc:duckdb:md:x", "http://evil/x.db", "s3://bucket/x.db", "a#b", " "})
    void onlyPlainPathsAreAccepted(String db) {
        for (FileDriver driver : new FileDriver[]{SQLITE, DUCKDB}) {
            ApiException e = assertThrows(ApiException.class, () -> driver.connectionSpec(Map.of("db", db)), db);
            assertTrue(((Map<?, ?>) e.body().get("errors")).containsKey("db"), db);
        }
    }

    @Test
    void pathsAreMadeAbsolute() {
        assertEquals("jdbc:sqlite:" + dir.resolve("shop.sqlite"), SQLITE.connectionSpec(Map.of("db", dir + "/a/../shop.sqlite")).url());
        assertEquals("jdbc:sqlite:" + dir.resolve("shop.sqlite"), SQLITE.connectionSpec(Map.of("db", "jdbc:sqlite:" + dir + "/shop.sqlite")).url());
        assertEquals("jdbc:duckdb:" + dir.resolve("shop.duckdb"), DUCKDB.connectionSpec(Map.of("db", "file:" + dir + "/shop.duckdb")).url());
        assertEquals("jdbc:sqlite:" + Path.of("rel.sqlite").toAbsolutePath(), SQLITE.connectionSpec(Map.of("db", "rel.sqlite")).url());
    }

    @Test
    void aMissingFileIsAnErrorAndIsNotCreated() {
        for (FileDriver driver : new FileDriver[]{SQLITE, DUCKDB}) {
            Path missing = dir.resolve("missing." + driver.engine());
            Map<String, Object> details = Map.of("db", missing.toString());
            SQLException failure = assertThrows(SQLException.class, () -> Drivers.open(driver.connectionSpec(details)));
            assertEquals(Map.of("message", "Database cannot be found.", "db", "check your connection string"),
                    driver.explainConnectionFailure(failure, details), driver.engine());
            assertFalse(Files.exists(missing), driver.engine() + " created " + missing);
        }
    }

    @Test
    void aFileThatIsNotADatabaseIsExplained() throws Exception {
        Path junk = dir.resolve("junk.db");
        Files.writeString(junk, "this is not a database file, not even close, it is only some text");
        ConnectionTester tester = new ConnectionTester(Drivers.standard(), () -> 5_000);
        for (String engine : new String[]{"sqlite", "duckdb"}) {
            ConnectionTester.Failure failure = tester.test(engine, Map.of("db", junk.toString()));
            assertEquals(Map.of("db", "check your connection string"), failure.errors(), engine);
            assertEquals("The file is not a database of this kind.", failure.message(), engine);
        }
    }

    @Test
    void duckDbFilesAreReadOnlyAndSeeNothingElse() throws Exception {
        Path file = dir.resolve("shop.duckdb");
        try (Connection c = new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:" + file, new Properties()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INTEGER)");
            s.execute("INSERT INTO t VALUES (1), (2)");
        }
        Files.writeString(dir.resolve("secret.csv"), "a,b\n1,2\n");
        try (Connection c = Drivers.open(DUCKDB.connectionSpec(Map.of("db", file.toString()))); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
                rs.next();
                assertEquals(2, rs.getInt(1));
            }
            assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM read_csv('" + dir.resolve("secret.csv") + "')"));
        }
        try (Connection c = Drivers.open(DUCKDB.connectionSpec(Map.of("db", file.toString()))); Statement s = c.createStatement()) {
            assertThrows(SQLException.class, () -> s.execute("INSERT INTO t VALUES (3)"), "read-only");
        }
        try (Connection c = Drivers.open(DUCKDB.connectionSpec(Map.of("db", file.toString()))); Statement s = c.createStatement()) {
            assertThrows(SQLException.class, () -> s.execute("SET enable_external_access = true"), "the configuration is locked");
        }
        try (Connection c = Drivers.open(DUCKDB.connectionSpec(Map.of("db", file.toString()))); Statement s = c.createStatement()) {
            assertThrows(SQLException.class, () -> s.execute("ATTACH '" + dir.resolve("other.duckdb") + "' AS other"));
        }
        assertFalse(Files.exists(dir.resolve("other.duckdb")));
    }

    @Test
    void sqliteExtensionsAndAttachStayOff() throws Exception {
        Path file = dir.resolve("shop.sqlite");
        try (Connection c = new org.sqlite.JDBC().connect("jdbc:sqlite:" + file, new Properties()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
        }
        try (Connection c = Drivers.open(SQLITE.connectionSpec(Map.of("db", file.toString()))); Statement s = c.createStatement()) {
            assertThrows(SQLException.class, () -> s.executeQuery("SELECT load_extension('/tmp/evil.so')"));
            assertThrows(SQLException.class, () -> s.execute("ATTACH DATABASE '" + dir.resolve("new.sqlite") + "' AS other"));
        }
        assertFalse(Files.exists(dir.resolve("new.sqlite")), "ATTACH could not create a file");
    }

    @Test
    void sqliteFilesAreReadOnlyUnlessQuarryMayWrite() throws Exception {
        Path file = dir.resolve("rw.sqlite");
        try (Connection c = new org.sqlite.JDBC().connect("jdbc:sqlite:" + file, new Properties()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
        }
        try (Connection c = Drivers.open(SQLITE.connectionSpec(Map.of("db", file.toString()), false)); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.execute("INSERT INTO t VALUES (1)"));
            assertTrue(e.getMessage().contains("readonly"), e.getMessage());
        }
        assertEquals(SQLITE.connectionSpec(Map.of("db", file.toString())), SQLITE.connectionSpec(Map.of("db", file.toString()), false));
        try (Connection c = Drivers.open(SQLITE.connectionSpec(Map.of("db", file.toString()), true)); Statement s = c.createStatement()) {
            assertEquals(1, s.executeUpdate("INSERT INTO t VALUES (1)"));
            assertThrows(SQLException.class, () -> s.execute("ATTACH DATABASE '" + dir.resolve("new.sqlite") + "' AS other"));
        }
        assertFalse(Files.exists(dir.resolve("new.sqlite")), "ATTACH could not create a file");
        assertThrows(SQLException.class, () -> Drivers.open(SQLITE.connectionSpec(Map.of("db", dir.resolve("missing.sqlite").toString()), true)));
        assertFalse(Files.exists(dir.resolve("missing.sqlite")), "a writable open never creates the file");
    }

    @Test
    void sqliteTypesComeFromDeclaredNames() {
        assertEquals("type/Integer", SQLITE.baseType(Types.INTEGER, "INTEGER"));
        assertEquals("type/BigInteger", SQLITE.baseType(Types.INTEGER, "BIGINT"));
        assertEquals("type/Text", SQLITE.baseType(Types.VARCHAR, "VARCHAR(200)"));
        assertEquals("type/Text", SQLITE.baseType(Types.VARCHAR, "TEXT"));
        assertEquals("type/DateTime", SQLITE.baseType(Types.VARCHAR, "DATETIME"));
        assertEquals("type/DateTime", SQLITE.baseType(Types.VARCHAR, "timestamp"));
        assertEquals("type/Date", SQLITE.baseType(Types.VARCHAR, "DATE"));
        assertEquals("type/Boolean", SQLITE.baseType(Types.INTEGER, "BOOLEAN"));
        assertEquals("type/Float", SQLITE.baseType(Types.FLOAT, "REAL"));
        assertEquals("type/Float", SQLITE.baseType(Types.FLOAT, "DOUBLE PRECISION"));
        assertEquals("type/Decimal", SQLITE.baseType(Types.FLOAT, "NUMERIC(10,2)"));
        assertEquals("type/*", SQLITE.baseType(Types.VARCHAR, ""));
        assertEquals("type/*", SQLITE.baseType(Types.VARCHAR, "BLOB"));
        assertEquals("type/JSON", SQLITE.baseType(Types.VARCHAR, "JSON"));
        assertTrue(SQLITE.systemSchemas().isEmpty());
        assertFalse(SQLITE.supports(Feature.STANDARD_DEVIATION_AGGREGATIONS));
    }

    @Test
    void duckDbTypesComeFromTypeNames() {
        assertEquals("type/DateTimeWithLocalTZ", DUCKDB.baseType(Types.TIMESTAMP_WITH_TIMEZONE, "TIMESTAMP WITH TIME ZONE"));
        assertEquals("type/UUID", DUCKDB.baseType(Types.OTHER, "UUID"));
        assertEquals("type/JSON", DUCKDB.baseType(Types.OTHER, "JSON"));
        assertEquals("type/BigInteger", DUCKDB.baseType(Types.OTHER, "HUGEINT"));
        assertEquals("type/Array", DUCKDB.baseType(Types.OTHER, "INTEGER[]"));
        assertEquals("type/Structured", DUCKDB.baseType(Types.STRUCT, "STRUCT(a INTEGER)"));
        assertEquals("type/Decimal", DUCKDB.baseType(Types.DECIMAL, "DECIMAL(10,2)"));
        assertEquals("type/Text", DUCKDB.baseType(Types.VARCHAR, "VARCHAR"));
        assertEquals("type/Integer", DUCKDB.baseType(Types.INTEGER, "INTEGER"));
        assertEquals("type/*", DUCKDB.baseType(Types.BLOB, "BLOB"));
        assertTrue(DUCKDB.supports(Feature.SCHEMAS));
        assertNull(null);
    }
}
