package io.quarry.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import io.quarry.web.Json;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Collections at scale: 10,000 collections (100 top-level, 900 children, 9,000 grandchildren) and 100,000 cards seeded
 * straight into the application database, then {@code GET /api/collection/tree} and
 * {@code GET /api/collection/:id/items} through HTTP, each beside one raw SQL query over the same rows on an open JDBC
 * connection. Prints medians and the ratio. Args: {@code [rounds]}; {@code -Dquarry.test.appdb=postgres} for
 * PostgreSQL as the application database (default H2).
 */
public final class CollectionsBenchmark {
    private static final int TOP = 100;
    private static final int CHILDREN = 9;
    private static final int GRANDCHILDREN = 10;
    private static final int CARDS = 100_000;

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        System.out.printf(Locale.ROOT, "machine: %d cores, load average %.2f, app DB %s%n",
                Runtime.getRuntime().availableProcessors(), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                TestAppDb.isPostgres() ? "PostgreSQL (embedded)" : "H2 (file)");
        TestServer server = TestServer.start();
        try {
            Api api = server.api();
            String session = Fixtures.setUp(api);
            Api admin = api.as(session);
            long databaseId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                    "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", "sa", "password", "secret-pw")))
                    .json().get("id").asLong();
            long seedStart = System.nanoTime();
            long[] collections = seed(server, databaseId);
            System.out.printf(Locale.ROOT, "seeded %d collections and %d cards in %.1f s%n", collections.length, CARDS,
                    (System.nanoTime() - seedStart) / 1e9);
            // an ordinary user (All Users, which has write on every seeded collection, as creation copies it)
            String email = "bench-user@example.com";
            admin.post(200, "user", Map.of("email", email, "first_name", "Bench", "last_name", "User", "password", "Sunny-day-77"));
            String userSession = Fixtures.login(api, email, "Sunny-day-77");

            long top = collections[0];
            String topChildren = "/" + top + "/";
            HttpClient client = HttpClient.newHttpClient();
            URI base = server.base;
            try (Connection jdbc = AppDbSql.connect(server)) {
                jdbc.setAutoCommit(true);
                String treeSql = "SELECT c.id, c.name, c.location, c.personal_owner_id, c.archived, k.card_type FROM collection c"
                        + " LEFT JOIN (SELECT DISTINCT collection_id, card_type FROM report_card WHERE archived = FALSE) k"
                        + " ON k.collection_id = c.id WHERE c.namespace IS NULL ORDER BY c.location, LOWER(c.name)";
                String itemsSql = "SELECT id, name, 'card' AS model FROM report_card WHERE collection_id = " + top
                        + " AND archived = FALSE UNION ALL SELECT id, name, 'collection' FROM collection WHERE location = '"
                        + topChildren + "' AND archived = FALSE ORDER BY 2";
                String rootItemsSql = "SELECT id, name, 'card' AS model FROM report_card WHERE collection_id IS NULL"
                        + " AND archived = FALSE UNION ALL SELECT id, name, 'collection' FROM collection WHERE location = '/'"
                        + " AND archived = FALSE ORDER BY 2";
                check(client, base, session, "collection/tree", n -> n.size() >= TOP);
                check(client, base, session, "collection/" + top + "/items", n -> n.get("total").asInt() == CHILDREN + CARDS / collections.length);
                compare(rounds, client, base, session, "GET /api/collection/tree (admin)", "collection/tree", jdbc, treeSql);
                compare(rounds, client, base, userSession, "GET /api/collection/tree (ordinary user)", "collection/tree", jdbc, treeSql);
                compare(rounds, client, base, session, "GET /api/collection/:id/items (top-level, admin)", "collection/" + top + "/items",
                        jdbc, itemsSql);
                compare(rounds, client, base, userSession, "GET /api/collection/:id/items (top-level, ordinary user)",
                        "collection/" + top + "/items", jdbc, itemsSql);
                compare(rounds, client, base, session, "GET /api/collection/root/items (admin)", "collection/root/items", jdbc,
                        rootItemsSql);
            }
        } finally {
            server.close();
        }
        System.exit(0);
    }

    /** Seeds the collections level by level (batched inserts), their graph rows, and the cards; returns the ids. */
    private static long[] seed(TestServer server, long databaseId) throws Exception {
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

    private static String get(HttpClient client, URI base, String session, String path) throws Exception {
        HttpResponse<String> res = client.send(HttpRequest.newBuilder(base.resolve("api/" + path))
                .header("X-Metabase-Session", session).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (res.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + res.statusCode() + ": " + res.body());
        }
        return res.body();
    }

    private static void check(HttpClient client, URI base, String session, String path,
                              java.util.function.Predicate<JsonNode> ok) throws Exception {
        JsonNode node = Json.read(get(client, base, session, path));
        if (!ok.test(node)) {
            throw new IllegalStateException("unexpected answer for " + path);
        }
    }

    private static int rows(Connection jdbc, String sql) throws Exception {
        int n = 0;
        try (Statement st = jdbc.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                rs.getObject(2);
                n++;
            }
        }
        return n;
    }

    private static void compare(int rounds, HttpClient client, URI base, String session, String label, String path,
                                Connection jdbc, String sql) throws Exception {
        for (int i = 0; i < 3; i++) {
            get(client, base, session, path);
            rows(jdbc, sql);
        }
        double[] http = new double[rounds];
        double[] raw = new double[rounds];
        int bytes = 0;
        int count = 0;
        for (int i = 0; i < rounds; i++) {
            long t0 = System.nanoTime();
            bytes = get(client, base, session, path).length();
            long t1 = System.nanoTime();
            count = rows(jdbc, sql);
            long t2 = System.nanoTime();
            http[i] = (t1 - t0) / 1e6;
            raw[i] = (t2 - t1) / 1e6;
        }
        double h = median(http);
        double r = median(raw);
        System.out.printf(Locale.ROOT, "RESULT %-58s HTTP median %8.2f ms (%,d bytes) | raw SQL median %7.2f ms (%,d rows) | ratio %5.1fx%n",
                label, h, bytes, r, count, h / r);
    }

    private static double median(double[] values) {
        double[] copy = values.clone();
        Arrays.sort(copy);
        return copy[copy.length / 2];
    }
}
