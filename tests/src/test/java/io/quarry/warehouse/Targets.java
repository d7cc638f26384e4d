package io.quarry.warehouse;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** Target databases made by the tests themselves (SQLite and DuckDB files), and small helpers of the database ITs. */
final class Targets {
    private Targets() {
    }

    /** A new SQLite file: {@code customers} (PK) and {@code orders} (PK, FK → customers), a few rows. */
    static Path sqliteShop() throws Exception {
        Path file = Files.createTempDirectory("quarry-sqlite").resolve("shop.sqlite");
        try (Connection c = new org.sqlite.JDBC().connect("jdbc:sqlite:" + file, new Properties()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email VARCHAR(200), created_at DATETIME)");
            s.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL, "
                    + "placed_on DATE)");
            s.execute("INSERT INTO customers VALUES (1, 'Ada', 'ada@example.com', '2024-01-02 10:00:00'), (2, 'Grace', NULL, NULL)");
            s.execute("INSERT INTO orders VALUES (1, 1, 10.5, '2024-01-03'), (2, 2, 7.25, '2024-02-01')");
        }
        return file;
    }

    /** A new DuckDB file: {@code table} and {@code lines} (FK → it) in schema {@code main}, {@code targets} in {@code sales}. */
    static Path duckdbFile(String table) throws Exception {
        Path file = Files.createTempDirectory("quarry-duckdb").resolve("warehouse.duckdb");
        try (Connection c = new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:" + file, new Properties()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, label VARCHAR, price DECIMAL(10,2), seen TIMESTAMPTZ, "
                    + "ref UUID, doc JSON)");
            s.execute("INSERT INTO " + table + " VALUES (1, 'a', 1.50, TIMESTAMPTZ '2024-01-01 00:00:00+00', uuid(), '{}')");
            s.execute("CREATE TABLE lines (id INTEGER PRIMARY KEY, " + table + "_id INTEGER REFERENCES " + table + "(id))");
            s.execute("CREATE SCHEMA sales");
            s.execute("CREATE TABLE sales.targets (id INTEGER PRIMARY KEY, amount DOUBLE)");
        }
        return file;
    }

    /** A local port nothing listens on. */
    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** An ordinary (non-admin) user, created over HTTP with a password; returns their session. */
    static String plainUser(Api api, String admin, String email) {
        api.as(admin).post(200, "user", Map.of("first_name", "Rasta", "last_name", "Toucan", "email", email, "password", "Ra5ta-toucan-pw"));
        return Fixtures.login(api, email, "Ra5ta-toucan-pw");
    }

    /** The details column exactly as stored in the application database. */
    static String storedDetails(TestServer server, long id) throws Exception {
        try (Connection c = server.quarry().appDatabase.dataSource().getConnection();
             java.sql.PreparedStatement s = c.prepareStatement("SELECT details FROM metabase_database WHERE id = ?")) {
            s.setLong(1, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    static long countDatabases(TestServer server) throws Exception {
        try (Connection c = server.quarry().appDatabase.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM metabase_database")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Runs a sync of the database to its end (joining one already running). */
    static void sync(TestServer server, long id) throws Exception {
        server.quarry().sync.syncInBackground(id).get();
    }

    static List<Table> tables(TestServer server, long id) {
        return server.quarry().db.with(WarehouseMapper.class, m -> m.listTables(id, true));
    }

    static List<Field> fields(TestServer server, long id) {
        return server.quarry().db.with(WarehouseMapper.class, m -> m.listFieldsOfDatabase(id));
    }

    static String dbmsVersion(TestServer server, long id) {
        return server.quarry().databases.require(id).dbmsVersion;
    }

    static Field field(List<Field> fields, String name) {
        return fields.stream().filter(f -> f.name.equals(name)).findFirst().orElseThrow(() -> new AssertionError("no field " + name));
    }
}
