package io.quarry.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** Small real databases for Quarry to connect to in tests. */
public final class TargetDatabases {
    /**
     * The user Quarry connects to test H2 files as: no administrator (SQL a person wrote never runs as one: an H2
     * administrator reaches the host through SQL), with the rights of an analyst who may also change rows and, for
     * persisted models and uploads, create tables ({@code ALTER ANY SCHEMA}, which is no admin right).
     */
    public static final String H2_USER = "ANALYST";
    public static final String H2_PASSWORD = "analyst-pw";

    private TargetDatabases() {
    }

    /** The details Quarry connects to a test H2 file with, as {@link #H2_USER}. */
    public static java.util.Map<String, Object> h2Details(Path file) {
        return java.util.Map.of("db", "file:" + file, "user", H2_USER, "password", H2_PASSWORD);
    }

    /** Creates {@link #H2_USER} in an H2 database the connection administers. */
    public static void addAnalyst(Statement s) throws SQLException {
        s.execute("CREATE USER IF NOT EXISTS " + H2_USER + " PASSWORD '" + H2_PASSWORD + "'");
        s.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON SCHEMA PUBLIC TO " + H2_USER);
        s.execute("GRANT ALTER ANY SCHEMA TO " + H2_USER);
    }

    /**
     * A new H2 file with a tiny shop: {@code CUSTOMERS} (PK) and {@code ORDERS} (PK, FK → CUSTOMERS), a few rows.
     * Returns the path to pass as the {@code db} detail.
     */
    public static Path h2Shop() {
        try {
            // DriverManager scans for drivers once per JVM; if a deployed WAR's class loader did that scan, the test
            // class path's H2 driver was never registered: load it here
            Class.forName("org.h2.Driver");
            Path dir = Files.createTempDirectory("quarry-target");
            Path file = dir.resolve("shop");
            try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + file, "sa", "secret-pw");
                 Statement s = c.createStatement()) {
                s.execute("CREATE TABLE CUSTOMERS (ID BIGINT PRIMARY KEY, NAME VARCHAR(100) NOT NULL, EMAIL VARCHAR(200), "
                        + "CREATED_AT TIMESTAMP)");
                s.execute("CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY, CUSTOMER_ID BIGINT REFERENCES CUSTOMERS(ID), "
                        + "TOTAL DOUBLE PRECISION, CATEGORY VARCHAR(50))");
                s.execute("COMMENT ON TABLE CUSTOMERS IS 'People who buy things'");
                s.execute("INSERT INTO CUSTOMERS VALUES (1, 'Ada', 'ada@example.com', TIMESTAMP '2024-01-02 10:00:00'), "
                        + "(2, 'Grace', 'grace@example.com', TIMESTAMP '2024-02-03 11:00:00')");
                s.execute("INSERT INTO ORDERS VALUES (1, 1, 10.5, 'Gizmo'), (2, 1, 20.0, 'Widget'), (3, 2, 7.25, 'Gizmo')");
                addAnalyst(s);
            }
            return file;
        } catch (Exception e) {
            throw new IllegalStateException("Could not build the H2 target database", e);
        }
    }

    /**
     * Runs DDL/DML against an H2 target file as its administrator (to change its schema between syncs), creating the
     * file and {@link #H2_USER} when missing. H2 opens a file once per process, in the mode of its first connection:
     * the running test servers' pools on the file close first (Quarry opens query connections read-only), and reopen
     * on their next use.
     */
    public static void h2Execute(Path file, String... statements) throws SQLException {
        closePoolsOn(file);
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + file, "sa", "secret-pw"); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
            addAnalyst(s);
        }
    }

    /** Closes the pools every running test server holds on the H2 file. */
    private static void closePoolsOn(Path file) {
        String path = file.toString();
        for (TestServer server : TestServer.running()) {
            io.quarry.boot.Quarry quarry;
            try {
                quarry = server.quarry();
            } catch (RuntimeException stopped) {
                continue;
            }
            for (io.quarry.warehouse.Database database : quarry.databases.list()) {
                Object db = database.details == null ? null : database.details.get("db");
                if ("h2".equals(database.engine) && db != null && String.valueOf(db).replaceFirst("^file:", "").replaceFirst(";.*$", "").equals(path)) {
                    quarry.warehouses.forget(database.id);
                }
            }
        }
    }
}
