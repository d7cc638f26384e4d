package io.quarry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.PostgresTargets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Model persistence with a PostgreSQL database as the target, and a connection user without the right to create the
 * cache schema.
 */
class PersistencePostgresIT extends PersistenceContract {
    private String database;

    @BeforeAll
    void startServer() throws Exception {
        database = PostgresTargets.create("persist");
        PostgresTargets.execute(database,
                "CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(200), created_at TIMESTAMP)",
                "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id BIGINT REFERENCES customers(id), total DOUBLE PRECISION, "
                        + "category VARCHAR(50))",
                "INSERT INTO customers VALUES (1, 'Ada', 'ada@example.com', TIMESTAMP '2024-01-02 10:00:00'), "
                        + "(2, 'Grace', 'grace@example.com', TIMESTAMP '2024-02-03 11:00:00')",
                "INSERT INTO orders VALUES (1, 1, 10.5, 'Gizmo'), (2, 1, 20.0, 'Widget'), (3, 2, 7.25, 'Gizmo')");
        start();
    }

    @Override
    protected Map<String, Object> target() {
        return Map.of("engine", "postgres", "name", "Shop", "details", PostgresTargets.details(database));
    }

    @Override
    protected Connection connect() throws SQLException {
        return PostgresTargets.connect(database);
    }

    @Override
    protected String folded(String identifier) {
        return identifier.toLowerCase(Locale.ROOT);
    }

    @Override
    protected List<String> eventsTable() {
        return List.of("CREATE TABLE events (id BIGINT PRIMARY KEY, kind TEXT)",
                "INSERT INTO events SELECT g, 'kind ' || (g % 7) FROM generate_series(1, 200000) g");
    }

    @Test
    @Order(7)
    void aUserWhoCannotCreateTheSchemaIsToldWhichPrivilegeIsMissing() throws Exception {
        String role = "reader_" + ProcessHandle.current().pid();
        PostgresTargets.execute(database,
                "DROP ROLE IF EXISTS " + role,
                "CREATE ROLE " + role + " LOGIN PASSWORD 'reader-pw'",
                "REVOKE CREATE ON DATABASE " + database + " FROM PUBLIC",
                "GRANT CONNECT ON DATABASE " + database + " TO " + role,
                "GRANT USAGE ON SCHEMA public TO " + role,
                "GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + role);
        Map<String, Object> details = new LinkedHashMap<>(PostgresTargets.details(database));
        details.put("user", role);
        details.put("password", "reader-pw");
        long readerDb = admin.post(200, "database", Map.of("engine", "postgres", "name", "Read only shop", "details", details))
                .json().get("id").asLong();
        admin.post(204, "persist/enable", null);
        String refusal = admin.post(400, "database/" + readerDb + "/persist", null).body();
        assertTrue(refusal.contains("CREATE privilege"), refusal);
        assertTrue(refusal.contains("metabase_cache_"), refusal);
        assertFalse(admin.get(200, "database/" + readerDb).json().path("settings").has("persist-models-enabled"),
                "nothing changes on a refusal");
        // the same user, allowed to create schemas, may persist
        PostgresTargets.execute(database, "GRANT CREATE ON DATABASE " + database + " TO " + role);
        admin.post(204, "persist/database/" + readerDb + "/persist", null);
        assertTrue(admin.get(200, "database/" + readerDb).json().get("settings").get("persist-models-enabled").asBoolean());
        admin.post(204, "persist/database/" + readerDb + "/unpersist", null);
        assertEquals(204, admin.call("POST", "database/" + readerDb + "/unpersist", null).status());
        long model = admin.post(200, "card", Map.of("name", "Reader orders", "display", "table", "type", "model",
                "visualization_settings", Map.of(), "dataset_query", Map.of("database", readerDb, "type", "native",
                        "native", Map.of("query", "SELECT * FROM orders")))).json().get("id").asLong();
        assertTrue(admin.post(400, "card/" + model + "/persist", null).body().contains("Persisting models not enabled for database"));
    }
}
