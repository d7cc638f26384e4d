package io.quarry.persistence;

import io.quarry.testing.MariaDbServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;

/** Model persistence with the MySQL engine against a real MariaDB server: its cache schema is a database of its own. */
class PersistenceMariaDbIT extends PersistenceContract {
    private MariaDbServer mariadb;
    private String database;

    @BeforeAll
    void startServer() throws Exception {
        mariadb = MariaDbServer.get();
        database = "persist_" + ProcessHandle.current().pid();
        mariadb.createDatabase(database);
        try (Connection c = mariadb.connect(database); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE CUSTOMERS (ID BIGINT PRIMARY KEY, NAME VARCHAR(100) NOT NULL, EMAIL VARCHAR(200), CREATED_AT DATETIME)");
            s.execute("CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY, CUSTOMER_ID BIGINT REFERENCES CUSTOMERS(ID), TOTAL DOUBLE, "
                    + "CATEGORY VARCHAR(50))");
            s.execute("INSERT INTO CUSTOMERS VALUES (1, 'Ada', 'ada@example.com', '2024-01-02 10:00:00'), "
                    + "(2, 'Grace', 'grace@example.com', '2024-02-03 11:00:00')");
            s.execute("INSERT INTO ORDERS VALUES (1, 1, 10.5, 'Gizmo'), (2, 1, 20.0, 'Widget'), (3, 2, 7.25, 'Gizmo')");
        }
        start();
    }

    @Override
    protected Map<String, Object> target() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("host", "127.0.0.1");
        details.put("port", mariadb.port());
        details.put("dbname", database);
        details.put("user", "root");
        return Map.of("engine", "mysql", "name", "Shop", "details", details);
    }

    @Override
    protected Connection connect() throws SQLException {
        return mariadb.connect(database);
    }

    @Override
    protected String quote(String identifier) {
        return "`" + identifier + "`";
    }

    @Override
    protected java.util.List<String> eventsTable() {
        return java.util.List.of("CREATE TABLE EVENTS (ID BIGINT PRIMARY KEY, KIND VARCHAR(20))",
                "SET STATEMENT max_recursive_iterations = 300000 FOR INSERT INTO EVENTS WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 200000) "
                        + "SELECT n, CONCAT('kind ', n % 7) FROM s");
    }

    @Override
    protected String folded(String identifier) {
        return identifier.toUpperCase(Locale.ROOT);
    }
}
