package io.quarry.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fresh, empty application database for one test server: an H2 file in a new directory, or — when the build runs
 * the PostgreSQL pass ({@code -Dquarry.test.appdb=postgres}) — a new database in one embedded PostgreSQL server
 * started once per test JVM.
 */
public final class TestAppDb {
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static EmbeddedPostgres postgres;

    private TestAppDb() {
    }

    public static boolean isPostgres() {
        return "postgres".equals(System.getProperty("quarry.test.appdb"));
    }

    /** Configuration (MB_DB_* keys) for a brand-new application database. */
    public static Map<String, String> fresh() {
        Map<String, String> config = new LinkedHashMap<>();
        if (isPostgres()) {
            String name = "quarry_test_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
            EmbeddedPostgres pg = postgres();
            ensurePostgresDriverRegistered();
            try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + name);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            config.put("MB_DB_TYPE", "postgres");
            config.putAll(sharedPostgres(name));
        } else {
            try {
                Path dir = Files.createTempDirectory("quarry-appdb");
                config.put("MB_DB_TYPE", "h2");
                config.put("MB_DB_FILE", dir.resolve("quarry.db").toString());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return config;
    }

    /** Connection settings for an existing database in the shared PostgreSQL (for two instances on one database). */
    public static Map<String, String> sharedPostgres(String database) {
        return Map.of(
                "MB_DB_CONNECTION_URI", "postgres://localhost:" + postgres().getPort() + "/" + database,
                "MB_DB_USER", "postgres",
                "MB_DB_PASS", "postgres");
    }

    /**
     * A stopping test server deregisters the JDBC drivers its class loader registered (right for a real container);
     * in tests that loader is this one, so the PostgreSQL driver is put back before the next database is made.
     */
    private static void ensurePostgresDriverRegistered() {
        for (java.sql.Driver driver : java.util.Collections.list(java.sql.DriverManager.getDrivers())) {
            if (driver instanceof org.postgresql.Driver) {
                return;
            }
        }
        try {
            java.sql.DriverManager.registerDriver(new org.postgresql.Driver());
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public static synchronized EmbeddedPostgres postgres() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("Could not start the embedded PostgreSQL", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException ignored) {
                    // the JVM is exiting
                }
            }));
        }
        return postgres;
    }
}
