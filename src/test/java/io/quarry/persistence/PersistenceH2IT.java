package io.quarry.persistence;

import io.quarry.testing.TargetDatabases;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;

/** Model persistence with an H2 file as the target database. */
class PersistenceH2IT extends PersistenceContract {
    private Path shop;

    @BeforeAll
    void startServer() throws Exception {
        shop = TargetDatabases.h2Shop();
        start();
    }

    @Override
    protected Map<String, Object> target() {
        return Map.of("engine", "h2", "name", "Shop", "details", Map.of("db", "file:" + shop, "user", "sa", "password", "secret-pw"));
    }

    @Override
    protected Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:h2:file:" + shop, "sa", "secret-pw");
    }

    @Override
    protected java.util.List<String> eventsTable() {
        return java.util.List.of("CREATE TABLE EVENTS (ID BIGINT PRIMARY KEY, KIND VARCHAR(20))",
                "INSERT INTO EVENTS SELECT X, 'kind ' || MOD(X, 7) FROM SYSTEM_RANGE(1, 200000)");
    }

    @Override
    protected String folded(String identifier) {
        return identifier.toUpperCase(Locale.ROOT);
    }
}
