package io.quarry.collection;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Shared steps of the collection tests. */
final class CollectionSupport {
    static final String PASSWORD = "Sunny-day-77";
    private static final AtomicInteger SEQ = new AtomicInteger();

    private CollectionSupport() {
    }

    /** A map that keeps its order and accepts null values (to send JSON null). */
    static Map<String, Object> map(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }

    record Person(long id, String email, Api api) {
    }

    /** A new ordinary user (All Users only), signed in. */
    static Person person(Api anonymous, Api admin, String first, String last) {
        String email = "c" + SEQ.incrementAndGet() + "-" + System.nanoTime() + "@example.com";
        Map<String, Object> body = map("email", email, "first_name", first, "last_name", last, "password", PASSWORD);
        long id = admin.post(200, "user", body).json().get("id").asLong();
        return new Person(id, email, anonymous.as(Fixtures.login(anonymous, email, PASSWORD)));
    }

    static long collection(Api api, String name, Long parentId) {
        Map<String, Object> body = map("name", name);
        if (parentId != null) {
            body.put("parent_id", parentId);
        }
        return api.post(200, "collection", body).json().get("id").asLong();
    }

    /** A database to hang cards on (an H2 file; not synced, cards inserted by SQL need only its id). */
    static long database(Api admin) throws Exception {
        return admin.post(200, "database", Map.of("engine", "h2", "name", "Shop " + SEQ.incrementAndGet(),
                "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD)))
                .json().get("id").asLong();
    }

    /** Inserts a card straight into report_card; type question | model | metric. */
    static long card(TestServer server, long databaseId, String name, Long collectionId, String type, Integer position) {
        String sql = "INSERT INTO report_card (name, display, card_type, dataset_query, visualization_settings, database_id,"
                + " collection_id, collection_position, creator_id, created_at, updated_at) VALUES (?, 'table', ?, '{}', '{}', ?, ?, ?, 1,"
                + " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)";
        try (Connection c = AppDbSql.connect(server); PreparedStatement st = c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
            st.setString(1, name);
            st.setString(2, type);
            st.setLong(3, databaseId);
            st.setObject(4, collectionId);
            st.setObject(5, position);
            st.executeUpdate();
            try (ResultSet keys = st.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static long dashboard(TestServer server, String name, Long collectionId) {
        String sql = "INSERT INTO report_dashboard (name, creator_id, parameters, collection_id, created_at, updated_at)"
                + " VALUES (?, 1, '[]', ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)";
        try (Connection c = AppDbSql.connect(server); PreparedStatement st = c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
            st.setString(1, name);
            st.setObject(2, collectionId);
            st.executeUpdate();
            try (ResultSet keys = st.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static void sql(TestServer server, String sql, Object... params) {
        try (Connection c = AppDbSql.connect(server); PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                st.setObject(i + 1, params[i]);
            }
            st.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Gives group 1 (All Users) {@code perm} (read | write | none) on a collection through the graph API. */
    static void grantAllUsers(Api admin, Object collection, String perm) {
        long revision = admin.get(200, "collection/graph").json().get("revision").asLong();
        admin.put(200, "collection/graph", map("revision", revision, "groups", map("1", map(String.valueOf(collection), perm))));
    }

    static List<Long> ids(JsonNode array) {
        List<Long> ids = new ArrayList<>();
        for (JsonNode n : array) {
            if (n.get("id").isNumber()) {
                ids.add(n.get("id").asLong());
            }
        }
        return ids;
    }

    static List<String> names(JsonNode array) {
        List<String> names = new ArrayList<>();
        for (JsonNode n : array) {
            names.add(n.get("name").asText());
        }
        return names;
    }
}
