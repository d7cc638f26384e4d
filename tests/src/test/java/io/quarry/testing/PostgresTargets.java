package io.quarry.testing;

import io.quarry.boot.Quarry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * PostgreSQL databases for Quarry to connect to, created in the embedded PostgreSQL of {@link TestAppDb#postgres()}.
 */
public final class PostgresTargets {
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private PostgresTargets() {
    }

    /** Creates a new, empty database and returns its name. */
    public static String create(String prefix) {
        String name = prefix + "_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
        try (Connection c = TestAppDb.postgres().getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return name;
    }

    public static int port() {
        return TestAppDb.postgres().getPort();
    }

    public static String jdbcUrl(String database) {
        return "jdbc:postgresql://localhost:" + port() + "/" + database;
    }

    /** A connection as the superuser, for arranging data and watching {@code pg_stat_activity}. */
    public static Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), "postgres", "postgres");
    }

    public static void execute(String database, String... statements) throws SQLException {
        try (Connection c = connect(database); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /** The details of {@code POST /api/database} for a database of the embedded server. */
    public static Map<String, Object> details(String database) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("host", "localhost");
        details.put("port", port());
        details.put("dbname", database);
        details.put("user", "postgres");
        details.put("password", "postgres");
        return details;
    }

    /** Fails unless the running instance has its PostgreSQL driver (tests must run against the real one). */
    public static void ensureDriver(Quarry quarry) {
        if (quarry.drivers.find("postgres") == null) {
            throw new IllegalStateException("This Quarry has no postgres engine");
        }
    }
}
