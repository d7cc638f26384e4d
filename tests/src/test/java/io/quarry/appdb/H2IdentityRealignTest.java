package io.quarry.appdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.core.AppConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The state an unclean stop of the embedded H2 file can leave (a committed row above its identity column's next value,
 * seen in CrashDurabilityIT) is repaired when the application database opens: the next id is above every stored one.
 */
class H2IdentityRealignTest {
    @Test
    void anIdentityBehindItsRowsContinuesAfterTheHighestStoredId() throws Exception {
        Path dir = Files.createTempDirectory("quarry-identity");
        AppConfig config = new AppConfig(Map.of("MB_DB_TYPE", "h2", "MB_DB_FILE", dir.resolve("quarry.db").toString())::get);
        new AppDatabase(config, List.of()).close();

        String url = "jdbc:h2:file:" + dir.resolve("quarry.db").toAbsolutePath() + ";DB_CLOSE_ON_EXIT=FALSE";
        Class.forName("org.h2.Driver");
        long base;
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            base = identityBase(s);
            // a row the sequence has not reached yet, as after a crash
            s.execute("INSERT INTO collection (id, entity_id, name, slug, location, archived, is_sample, created_at) "
                    + "VALUES (" + (base + 40) + ", 'abcdefghijklmnopqrstu', 'ahead', 'ahead', '/', FALSE, FALSE, CURRENT_TIMESTAMP)");
        }

        new AppDatabase(config, List.of()).close();

        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            assertEquals(base + 41, identityBase(s), "the next collection id follows the highest stored one");
            s.execute("INSERT INTO collection (entity_id, name, slug, location, archived, is_sample, created_at) "
                    + "VALUES ('bcdefghijklmnopqrstuv', 'next', 'next', '/', FALSE, FALSE, CURRENT_TIMESTAMP)");
            try (ResultSet max = s.executeQuery("SELECT MAX(id) FROM collection")) {
                assertTrue(max.next());
                assertEquals(base + 41, max.getLong(1));
            }
        }
        new AppDatabase(config, List.of()).close();
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            assertEquals(base + 42, identityBase(s), "an identity already ahead is left alone");
        }
    }

    private static long identityBase(Statement s) throws Exception {
        try (ResultSet r = s.executeQuery("SELECT IDENTITY_BASE FROM INFORMATION_SCHEMA.COLUMNS "
                + "WHERE TABLE_NAME = 'COLLECTION' AND COLUMN_NAME = 'ID'")) {
            assertTrue(r.next(), "collection.id is an identity column");
            return r.getLong(1);
        }
    }
}
