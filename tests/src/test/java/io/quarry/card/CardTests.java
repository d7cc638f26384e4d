package io.quarry.card;

import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Shared arrangements of the card tests: a server with a synced shop database, collections and grants. */
final class CardTests {
    final TestServer server;
    final Api anonymous;
    final Api admin;
    final Api user;
    final long dbId;
    final Path shop;

    CardTests(String... extraTargetSql) throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
        shop = TargetDatabases.h2Shop();
        if (extraTargetSql.length > 0) {
            TargetDatabases.h2Execute(shop, extraTargetSql);
        }
        dbId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + shop, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(dbId).get();
    }

    /** A top-level collection made directly in the application database; nobody but admins has rights on it. */
    long collection(String name) {
        try (Connection c = AppDbSql.connect(server);
             PreparedStatement s = c.prepareStatement("INSERT INTO collection (name, slug, location, created_at) "
                     + "VALUES (?, ?, '/', CURRENT_TIMESTAMP)", Statement.RETURN_GENERATED_KEYS)) {
            s.setString(1, name);
            s.setString(2, name.toLowerCase().replace(' ', '_'));
            s.executeUpdate();
            try (ResultSet keys = s.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Gives All Users {@code perm} (read | write) on a collection. */
    void grant(long collectionId, String perm) {
        execute("INSERT INTO collection_permission (group_id, collection_id, perm) VALUES (1, ?, ?)", collectionId, perm);
    }

    void execute(String sql, Object... params) {
        try (Connection c = AppDbSql.connect(server); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            s.executeUpdate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    long count(String sql, Object... params) {
        return AppDbSql.count(server, sql, params);
    }

    Map<String, Object> nativeCard(String name, String sql) {
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", name);
        card.put("display", "table");
        card.put("visualization_settings", Map.of());
        card.put("dataset_query", Map.of("database", dbId, "type", "native", "native", Map.of("query", sql)));
        return card;
    }

    Map<String, Object> tableCard(String name, long tableId) {
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", name);
        card.put("display", "table");
        card.put("visualization_settings", Map.of());
        card.put("dataset_query", Map.of("database", dbId, "type", "query", "query", Map.of("source-table", tableId)));
        return card;
    }

    Map<String, Object> with(Map<String, Object> card, Object... pairs) {
        Map<String, Object> copy = new LinkedHashMap<>(card);
        for (int i = 0; i < pairs.length; i += 2) {
            copy.put((String) pairs[i], pairs[i + 1]);
        }
        return copy;
    }

    long tableId(String name) {
        return count("SELECT id FROM metabase_table WHERE db_id = ? AND name = ?", dbId, name);
    }

    long fieldId(String table, String field) {
        return count("SELECT f.id FROM metabase_field f JOIN metabase_table t ON t.id = f.table_id WHERE t.db_id = ? AND t.name = ? "
                + "AND f.name = ?", dbId, table, field);
    }

    long create(Api as, Map<String, Object> card) {
        return as.post(200, "card", card).json().get("id").asLong();
    }

    static List<Object> list(Object... items) {
        return List.of(items);
    }

    void close() {
        server.close();
    }
}
