package io.quarry.persistence;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import io.quarry.testing.ThroughQuarry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Model persistence with a DuckDB file as the target. Quarry opens the file read-only, and read-write while
 * persistence is on for it (the cache schema lives in the file). DuckDB lets one process hold a file with one
 * configuration, so the test looks at the file through Quarry's own pool, opened as for persistence.
 */
class PersistenceDuckDbIT extends PersistenceContract {
    private Path file;

    @BeforeAll
    void startServer() throws Exception {
        file = Files.createTempDirectory("quarry-duckdb-persist").resolve("shop.duckdb");
        try (Connection c = new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:" + file, new Properties()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE CUSTOMERS (ID BIGINT PRIMARY KEY, NAME VARCHAR NOT NULL, EMAIL VARCHAR, CREATED_AT TIMESTAMP)");
            s.execute("CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY, CUSTOMER_ID BIGINT REFERENCES CUSTOMERS(ID), TOTAL DOUBLE, "
                    + "CATEGORY VARCHAR)");
            s.execute("INSERT INTO CUSTOMERS VALUES (1, 'Ada', 'ada@example.com', TIMESTAMP '2024-01-02 10:00:00'), "
                    + "(2, 'Grace', 'grace@example.com', TIMESTAMP '2024-02-03 11:00:00')");
            s.execute("INSERT INTO ORDERS VALUES (1, 1, 10.5, 'Gizmo'), (2, 1, 20.0, 'Widget'), (3, 2, 7.25, 'Gizmo')");
        }
        start();
    }

    @Override
    protected Map<String, Object> target() {
        return Map.of("engine", "duckdb", "name", "Shop", "details", Map.of("db", file.toString()));
    }

    /** DuckDB lets one process open a file in one configuration: the file is read through Quarry's own door. */
    @Override
    protected Connection connect() {
        throw new UnsupportedOperationException("DuckDB files are read through Quarry (ThroughQuarry)");
    }

    @Override
    protected long rowsIn(String table) throws SQLException {
        return ThroughQuarry.count(server.quarry(), databaseId, "SELECT COUNT(*) FROM " + quote(schema()) + "." + quote(table));
    }

    @Override
    protected boolean tableExists(String table) throws SQLException {
        var quarry = server.quarry();
        return quarry.warehouses.read(quarry.databases.require(databaseId), session -> {
            try (java.sql.ResultSet rs = session.metadata().getTables(null, schema(), table, null)) {
                return rs.next();
            }
        });
    }

    @Override
    protected void execute(String sql) throws SQLException {
        ThroughQuarry.execute(server.quarry(), databaseId, sql);
    }

    @Override
    protected String folded(String identifier) {
        return identifier.toUpperCase(Locale.ROOT);
    }

    @Override
    protected List<String> eventsTable() {
        return List.of("CREATE TABLE EVENTS (ID BIGINT PRIMARY KEY, KIND VARCHAR)",
                "INSERT INTO EVENTS SELECT i, 'kind ' || (i % 7) FROM range(1, 200001) t(i)");
    }

    @Test
    @Order(7)
    void theFileIsReadOnlyWhilePersistenceIsOff() throws Exception {
        admin.post(204, "persist/enable", null);
        admin.post(204, "database/" + databaseId + "/unpersist", null);
        String refused = admin.call("POST", "dataset", Map.of("database", databaseId, "type", "native",
                "native", Map.of("query", "CREATE TABLE written (x INT)"))).body();
        try {
            // refused by DuckDB's statement policy (one SELECT) before the read-only file would refuse it
            assertTrue(refused.contains("may only read data"), refused);
            assertFalse(tableExists("WRITTEN"));
        } finally {
            admin.post(204, "database/" + databaseId + "/persist", null);
        }
    }
}
