package io.quarry.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import io.quarry.core.Json;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
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
    private static final int TOP = ContentSeeder.TOP;
    private static final int CHILDREN = ContentSeeder.CHILDREN;
    private static final int CARDS = ContentSeeder.CARDS;

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
                    "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD)))
                    .json().get("id").asLong();
            long seedStart = System.nanoTime();
            long[] collections = ContentSeeder.seed(server, databaseId);
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

    static String get(HttpClient client, URI base, String session, String path) throws Exception {
        HttpResponse<String> res = client.send(HttpRequest.newBuilder(base.resolve("api/" + path))
                .header("X-Metabase-Session", session).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (res.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + res.statusCode() + ": " + res.body());
        }
        return res.body();
    }

    static void check(HttpClient client, URI base, String session, String path,
                              java.util.function.Predicate<JsonNode> ok) throws Exception {
        JsonNode node = Json.read(get(client, base, session, path));
        if (!ok.test(node)) {
            throw new IllegalStateException("unexpected answer for " + path);
        }
    }

    static int rows(Connection jdbc, String sql) throws Exception {
        int n = 0;
        try (Statement st = jdbc.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                rs.getObject(2);
                n++;
            }
        }
        return n;
    }

    static void compare(int rounds, HttpClient client, URI base, String session, String label, String path,
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

    static double median(double[] values) {
        double[] copy = values.clone();
        Arrays.sort(copy);
        return copy[copy.length / 2];
    }
}
