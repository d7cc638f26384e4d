package io.quarry.testing;

import io.quarry.boot.Quarry;
import io.quarry.driver.DetailField;
import io.quarry.driver.Drivers;
import io.quarry.driver.JdbcDriver;
import io.quarry.web.error.ApiException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * PostgreSQL databases for Quarry to connect to, created in the embedded PostgreSQL of {@link TestAppDb#postgres()}.
 * Until Quarry ships its own {@code postgres} driver, {@link #ensureDriver} installs a minimal one (host, port, dbname,
 * user, password) into a running instance; once the real driver exists it is used instead.
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

    /** Makes sure the running instance can connect to PostgreSQL databases. */
    @SuppressWarnings("unchecked")
    public static void ensureDriver(Quarry quarry) {
        if (quarry.drivers.find("postgres") != null) {
            return;
        }
        try {
            java.lang.reflect.Field field = Drivers.class.getDeclaredField("byEngine");
            field.setAccessible(true);
            ((Map<String, io.quarry.driver.Driver>) field.get(quarry.drivers)).put("postgres", new MinimalPostgresDriver());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot install the test PostgreSQL driver", e);
        }
    }

    /** Just enough of a PostgreSQL driver to run queries: a URL from host, port and database name. */
    private static final class MinimalPostgresDriver extends JdbcDriver {
        @Override
        public String engine() {
            return "postgres";
        }

        @Override
        public String displayName() {
            return "PostgreSQL";
        }

        @Override
        public List<DetailField> detailFields() {
            return List.of();
        }

        @Override
        public Set<String> systemSchemas() {
            return Set.of("information_schema", "pg_catalog", "pg_toast");
        }

        @Override
        public ConnectionSpec connectionSpec(Map<String, Object> details) {
            String host = text(details, "host");
            String dbname = text(details, "dbname");
            if (host == null || dbname == null || !dbname.matches("[A-Za-z0-9_]+")) {
                throw ApiException.invalidField("dbname", "value must be a non-blank string.");
            }
            Properties properties = new Properties();
            properties.setProperty("user", String.valueOf(details.get("user")));
            properties.setProperty("password", String.valueOf(details.get("password")));
            properties.setProperty("ApplicationName", "Quarry");
            return new ConnectionSpec("org.postgresql.Driver", "jdbc:postgresql://" + host + ":"
                    + Integer.parseInt(String.valueOf(details.get("port"))) + "/" + dbname, properties);
        }
    }
}
