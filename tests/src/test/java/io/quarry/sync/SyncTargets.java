package io.quarry.sync;

import io.quarry.testing.TargetDatabases;
import io.quarry.boot.Quarry;
import io.quarry.driver.DetailField;
import io.quarry.driver.Driver;
import io.quarry.driver.Drivers;
import io.quarry.driver.JdbcDriver;
import io.quarry.testing.TestAppDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Target databases for sync tests: a "rich shop" (customers with emails, states, cities, coordinates, URLs; products
 * with categories, prices, long descriptions; orders with statuses, quantities, discounts, JSON notes) built with the
 * same portable SQL in an H2 file or in a new database of the embedded PostgreSQL.
 */
final class SyncTargets {
    static final List<String> CATEGORIES = List.of("Doohickey", "Gadget", "Gizmo", "Widget");
    static final List<String> STATUSES = List.of("paid", "pending", "refunded");
    private static final List<String> STATES = List.of("CA", "NY", "TX", "WA", "OR", "FL", "IL", "MA", "CO", "AZ", "GA", "NC");
    private static final List<String> CITIES = List.of("Springfield", "Riverside", "Fairview", "Franklin", "Greenville",
            "Bristol", "Clinton", "Salem", "Madison", "Georgetown");
    private static final List<String> SOURCES = List.of("Affiliate", "Facebook", "Google", "Organic", "Twitter");
    private static final AtomicInteger COUNTER = new AtomicInteger();
    static final int CUSTOMERS = 300;
    static final int PRODUCTS = 40;
    static final int ORDERS = 600;

    private SyncTargets() {
    }

    /** A new H2 file holding the rich shop; the path is the {@code db} detail (user sa or {@link TargetDatabases#H2_USER}). */
    static Path h2RichShop() throws Exception {
        Path file = Files.createTempDirectory("quarry-sync-target").resolve("richshop");
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + file, "sa", "secret-pw")) {
            fill(c);
            try (Statement s = c.createStatement()) {
                TargetDatabases.addAnalyst(s);
            }
        }
        return file;
    }

    /** A new database in the embedded PostgreSQL holding the rich shop; returns the connection details. */
    static Map<String, Object> postgresRichShop() throws Exception {
        String name = "sync_target_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
        try (Connection c = TestAppDb.postgres().getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        Map<String, Object> details = postgresDetails(name);
        try (Connection c = postgresConnection(details)) {
            fill(c);
        }
        return details;
    }

    static Map<String, Object> postgresDetails(String database) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("host", "localhost");
        details.put("port", TestAppDb.postgres().getPort());
        details.put("dbname", database);
        details.put("user", "postgres");
        details.put("password", "postgres");
        return details;
    }

    static Connection postgresConnection(Map<String, Object> details) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        p.setProperty("password", "postgres");
        return new org.postgresql.Driver().connect("jdbc:postgresql://localhost:" + details.get("port") + "/" + details.get("dbname"), p);
    }

    /** Creates and fills the rich shop's tables: deterministic data from a fixed seed. */
    static void fill(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR(100), email VARCHAR(200), state VARCHAR(2), "
                    + "city VARCHAR(50), latitude DOUBLE PRECISION, longitude DOUBLE PRECISION, zip_code VARCHAR(5), "
                    + "homepage_url VARCHAR(200), avatar_url VARCHAR(200), source VARCHAR(20), birthdate DATE, "
                    + "created_at TIMESTAMP)");
            s.execute("CREATE TABLE products (id BIGINT PRIMARY KEY, title VARCHAR(100), category VARCHAR(20), "
                    + "vendor VARCHAR(100), price DOUBLE PRECISION, rating DOUBLE PRECISION, description VARCHAR(2000), "
                    + "created_at TIMESTAMP)");
            s.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id BIGINT REFERENCES customers(id), "
                    + "product_id BIGINT REFERENCES products(id), quantity INTEGER, discount DOUBLE PRECISION, "
                    + "total DOUBLE PRECISION, status VARCHAR(20), notes VARCHAR(200), created_at TIMESTAMP)");
        }
        Random random = new Random(20_261_121L);
        LocalDateTime start = LocalDateTime.of(2022, 1, 1, 9, 0);
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int i = 1; i <= CUSTOMERS; i++) {
                insert.setLong(1, i);
                insert.setString(2, "Customer " + i);
                insert.setString(3, "customer" + i + "@example.com");
                insert.setString(4, STATES.get(random.nextInt(STATES.size())));
                insert.setString(5, CITIES.get(random.nextInt(CITIES.size())));
                insert.setDouble(6, 25 + random.nextDouble() * 20);
                insert.setDouble(7, -120 + random.nextDouble() * 45);
                insert.setString(8, String.format("%05d", 10_000 + random.nextInt(89_999)));
                insert.setString(9, "https://example.com/customers/" + i);
                insert.setString(10, "https://images.example.com/avatars/" + i + ".png");
                insert.setString(11, SOURCES.get(random.nextInt(SOURCES.size())));
                insert.setDate(12, Date.valueOf(LocalDate.of(1950, 1, 1).plusDays(random.nextInt(20_000))));
                insert.setTimestamp(13, Timestamp.valueOf(start.plusMinutes(random.nextInt(1_000_000))));
                insert.addBatch();
            }
            insert.executeBatch();
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO products VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int i = 1; i <= PRODUCTS; i++) {
                insert.setLong(1, i);
                insert.setString(2, "Product " + i);
                insert.setString(3, CATEGORIES.get(i % CATEGORIES.size()));
                insert.setString(4, "Vendor " + (i % 7) + " Inc.");
                insert.setDouble(5, Math.round(random.nextDouble() * 10_000) / 100.0);
                insert.setDouble(6, Math.round(random.nextDouble() * 50) / 10.0);
                insert.setString(7, "A remarkably sturdy product that does exactly what it says on the box, number " + i + ".");
                insert.setTimestamp(8, Timestamp.valueOf(start.plusDays(i)));
                insert.addBatch();
            }
            insert.executeBatch();
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int i = 1; i <= ORDERS; i++) {
                insert.setLong(1, i);
                insert.setLong(2, 1 + random.nextInt(CUSTOMERS));
                insert.setLong(3, 1 + random.nextInt(PRODUCTS));
                insert.setInt(4, 1 + random.nextInt(8));
                if (i % 10 == 0) {
                    insert.setDouble(5, 1 + random.nextInt(9));
                } else {
                    insert.setNull(5, Types.DOUBLE);
                }
                insert.setDouble(6, Math.round(random.nextDouble() * 50_000) / 100.0);
                insert.setString(7, STATUSES.get(random.nextInt(STATUSES.size())));
                insert.setString(8, "{\"gift\": " + (i % 2 == 0) + ", \"channel\": \"web\"}");
                insert.setTimestamp(9, Timestamp.valueOf(start.plusMinutes(i * 37L)));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /**
     * Makes sure the running Quarry knows the {@code postgres} engine. The engines branch brings the real driver; until
     * it is merged, a minimal test driver (host/port/dbname/user/password) is put into the registry.
     */
    static void ensurePostgresEngine(Quarry quarry) throws Exception {
        if (quarry.drivers.find("postgres") != null) {
            return;
        }
        java.lang.reflect.Field registry = Drivers.class.getDeclaredField("byEngine");
        registry.setAccessible(true);
        @SuppressWarnings("unchecked")
        Map<String, Driver> byEngine = (Map<String, Driver>) registry.get(quarry.drivers);
        byEngine.put("postgres", new TestPostgresDriver());
    }

    /** Just enough of a PostgreSQL engine for sync tests. */
    static final class TestPostgresDriver extends JdbcDriver {
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
        public ConnectionSpec connectionSpec(Map<String, Object> details) {
            Properties p = new Properties();
            p.setProperty("user", String.valueOf(details.get("user")));
            p.setProperty("password", String.valueOf(details.get("password")));
            return new ConnectionSpec("org.postgresql.Driver", "jdbc:postgresql://" + details.get("host") + ":" + details.get("port")
                    + "/" + details.get("dbname"), p);
        }

        @Override
        public Set<String> systemSchemas() {
            return Set.of("information_schema", "pg_catalog", "pg_toast");
        }
    }
}
