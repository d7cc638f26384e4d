package io.quarry.bench;

import io.quarry.testing.AppDbSql;
import io.quarry.testing.TestServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Content at scale, written straight into a test server's application database over JDBC (shared by the benchmarks):
 * 10,000 collections (100 top-level, 900 children, 9,000 grandchildren), one All Users {@code write} row per
 * collection (the rows creation would have copied), and 100,000 cards named {@code Card <i>} spread evenly over them
 * (every tenth a model, every tenth+1 a metric).
 */
public final class ContentSeeder {
    public static final int TOP = 100;
    public static final int CHILDREN = 9;
    public static final int GRANDCHILDREN = 10;
    public static final int CARDS = 100_000;

    private ContentSeeder() {
    }

    /** Seeds the collections level by level (batched inserts), their graph rows, and the cards; returns the ids. */
    public static long[] seed(TestServer server, long databaseId) throws Exception {
        try (Connection c = AppDbSql.connect(server)) {
            c.setAutoCommit(false);
            List<Long> level1 = insertLevel(c, List.of("/"), TOP, "L1");
            List<String> loc2 = new ArrayList<>();
            for (Long id : level1) {
                for (int i = 0; i < CHILDREN; i++) {
                    loc2.add("/" + id + "/");
                }
            }
            List<Long> level2 = insertLevel(c, loc2, 1, "L2");
            List<String> loc3 = new ArrayList<>();
            Map<Long, String> locationOf = new HashMap<>();
            for (int i = 0; i < level2.size(); i++) {
                locationOf.put(level2.get(i), loc2.get(i));
            }
            for (Long id : level2) {
                for (int i = 0; i < GRANDCHILDREN; i++) {
                    loc3.add(locationOf.get(id) + id + "/");
                }
            }
            List<Long> level3 = insertLevel(c, loc3, 1, "L3");
            List<Long> all = new ArrayList<>(level1);
            all.addAll(level2);
            all.addAll(level3);
            try (PreparedStatement st = c.prepareStatement(
                    "INSERT INTO collection_permission (group_id, collection_id, namespace, perm) VALUES (1, ?, NULL, 'write')")) {
                for (Long id : all) {
                    st.setLong(1, id);
                    st.addBatch();
                }
                st.executeBatch();
            }
            try (PreparedStatement st = c.prepareStatement("INSERT INTO report_card (name, display, card_type, dataset_query,"
                    + " visualization_settings, database_id, collection_id, creator_id, created_at, updated_at)"
                    + " VALUES (?, 'table', ?, '{}', '{}', ?, ?, 1, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)")) {
                for (int i = 0; i < CARDS; i++) {
                    st.setString(1, "Card " + i);
                    st.setString(2, i % 10 == 0 ? "model" : i % 10 == 1 ? "metric" : "question");
                    st.setLong(3, databaseId);
                    st.setLong(4, all.get(i % all.size()));
                    st.addBatch();
                    if (i % 5000 == 4999) {
                        st.executeBatch();
                    }
                }
                st.executeBatch();
            }
            c.commit();
            try (Statement st = c.createStatement()) {
                st.execute("ANALYZE");
            }
            c.commit();
            return all.stream().mapToLong(Long::longValue).toArray();
        }
    }

    /** Inserts {@code perLocation} collections at each location (in order) and returns their ids in that order. */
    private static List<Long> insertLevel(Connection c, List<String> locations, int perLocation, String tag) throws Exception {
        int n = 0;
        try (PreparedStatement st = c.prepareStatement("INSERT INTO collection (entity_id, name, slug, location, archived, is_sample,"
                + " created_at) VALUES (NULL, ?, ?, ?, FALSE, FALSE, CURRENT_TIMESTAMP)")) {
            for (String location : locations) {
                for (int i = 0; i < perLocation; i++) {
                    String name = String.format(Locale.ROOT, "bench %s %06d", tag, n++);
                    st.setString(1, name);
                    st.setString(2, name.replace(' ', '_'));
                    st.setString(3, location);
                    st.addBatch();
                }
            }
            st.executeBatch();
        }
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("SELECT id FROM collection WHERE name LIKE ? ORDER BY name")) {
            st.setString(1, "bench " + tag + " %");
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }
}
