package io.quarry.bench;

import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;

/**
 * Search at scale: the content of {@link ContentSeeder} (10,000 collections, 100,000 cards named {@code Card <i>}),
 * with every 1,000th card renamed {@code Zebra report <id>} (100 rare hits), then {@code GET /api/search?q=...&limit=50}
 * through HTTP for a common word ({@code card}: ~100,000 hits), a rare one ({@code zebra}: 100) and one matching the
 * collections ({@code bench}: 10,000), as the admin and as an ordinary user, each beside one raw SQL {@code LIKE}
 * query over the same rows (the same page: newest 50). Prints medians and the ratio. Args: {@code [rounds]};
 * {@code -Dquarry.test.appdb=postgres} for PostgreSQL as the application database (default H2).
 */
public final class SearchBenchmark {
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
            try (Connection c = AppDbSql.connect(server); Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE report_card SET name = CONCAT('Zebra report ', CAST(id AS VARCHAR(20))) WHERE MOD(id, 1000) = 0");
                st.execute("ANALYZE");
            }
            System.out.printf(Locale.ROOT, "seeded %d collections and %d cards in %.1f s%n", collections.length, ContentSeeder.CARDS,
                    (System.nanoTime() - seedStart) / 1e9);
            String email = "bench-user@example.com";
            admin.post(200, "user", Map.of("email", email, "first_name", "Bench", "last_name", "User", "password", "Sunny-day-77"));
            String userSession = Fixtures.login(api, email, "Sunny-day-77");

            HttpClient client = HttpClient.newHttpClient();
            URI base = server.base;
            try (Connection jdbc = AppDbSql.connect(server)) {
                jdbc.setAutoCommit(true);
                for (String word : new String[] {"card", "zebra", "bench"}) {
                    String table = word.equals("bench") ? "collection" : "report_card";
                    String sql = "SELECT id, name FROM " + table + " WHERE LOWER(name) LIKE '%" + word + "%' AND archived = FALSE"
                            + " ORDER BY created_at DESC, id LIMIT 50";
                    String path = "search?q=" + word + "&limit=50";
                    CollectionsBenchmark.check(client, base, session, path, n -> n.get("data").size() == 50);
                    CollectionsBenchmark.check(client, base, userSession, path, n -> n.get("data").size() == 50);
                    CollectionsBenchmark.compare(rounds, client, base, session, "GET /api/search?q=" + word + "&limit=50 (admin)", path,
                            jdbc, sql);
                    CollectionsBenchmark.compare(rounds, client, base, userSession, "GET /api/search?q=" + word + "&limit=50 (ordinary user)",
                            path, jdbc, sql);
                }
            }
        } finally {
            server.close();
        }
        System.exit(0);
    }
}
