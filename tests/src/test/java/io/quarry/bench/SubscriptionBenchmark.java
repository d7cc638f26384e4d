package io.quarry.bench;

import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.Mailbox;
import io.quarry.testing.TestServer;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Delivering one subscription of a 10-card dashboard (bar, line, row, pie and table cards on the Sample Database, each
 * with a CSV attachment) to a user and an outside address through a real SMTP server (GreenMail), against a floor
 * measured in the same run: the same ten dashcard queries over HTTP, as a person opening the dashboard costs. Prints the
 * median time per subscription and its ratio to the floor. Run with {@code bench/run-subscription.sh}.
 */
public final class SubscriptionBenchmark {
    private static final int ROUNDS = Integer.getInteger("rounds", 5);
    private static final String[] DISPLAYS = {"bar", "line", "row", "pie", "table", "area", "bar", "line", "table", "combo"};

    public static void main(String[] args) throws Exception {
        System.out.printf(Locale.ROOT, "machine: %d cores, load average %.2f, max heap %d MiB%n", Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), Runtime.getRuntime().maxMemory() >> 20);
        try (Mailbox mail = new Mailbox()) {
            Map<String, String> config = new LinkedHashMap<>(mail.config());
            config.put("MB_EMAIL_FROM_ADDRESS", "quarry@example.com");
            config.put("MB_SITE_URL", "http://quarry.example");
            try (TestServer server = TestServer.start(config)) {
                Api admin = server.api().as(Fixtures.setUp(server.api()));
                Path sample = SampleDatabase.ensure(Path.of("target", "bench-subscription-sample").toAbsolutePath());
                long db = admin.post(200, "database", Map.of("engine", "h2", "name", "Sample Database", "details",
                        Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password",
                                SampleDatabase.PASSWORD))).json().get("id").asLong();
                server.quarry().sync.syncInBackground(db).get();
                long dashboard = admin.post(200, "dashboard", Map.of("name", "Ten cards")).json().get("id").asLong();
                List<Map<String, Object>> dashcards = new ArrayList<>();
                List<Long> cards = new ArrayList<>();
                for (int i = 0; i < DISPLAYS.length; i++) {
                    String sql = DISPLAYS[i].equals("table")
                            ? "SELECT o.ID, o.CREATED_AT, p.TITLE, o.TOTAL FROM ORDERS o JOIN PRODUCTS p ON p.ID = o.PRODUCT_ID ORDER BY o.ID LIMIT 200"
                            : "SELECT p.CATEGORY, SUM(o.TOTAL) AS REVENUE, COUNT(*) AS N FROM ORDERS o JOIN PRODUCTS p ON p.ID = o.PRODUCT_ID "
                            + "WHERE o.TOTAL > " + (i * 5) + " GROUP BY p.CATEGORY ORDER BY 1";
                    long card = admin.post(200, "card", Map.of("name", "Card " + i, "display", DISPLAYS[i], "visualization_settings", Map.of(),
                            "dataset_query", Map.of("database", db, "type", "native", "native", Map.of("query", sql)))).json().get("id").asLong();
                    cards.add(card);
                    Map<String, Object> dc = new LinkedHashMap<>();
                    dc.put("id", -(i + 1));
                    dc.put("card_id", card);
                    dc.put("row", i * 4);
                    dc.put("col", 0);
                    dc.put("size_x", 6);
                    dc.put("size_y", 4);
                    dashcards.add(dc);
                }
                var saved = admin.put(200, "dashboard/" + dashboard, Map.of("dashcards", dashcards)).json().get("dashcards");
                List<Map<String, Object>> pulseCards = new ArrayList<>();
                List<long[]> runs = new ArrayList<>();
                for (var dc : saved) {
                    pulseCards.add(Map.of("id", dc.get("card_id").asLong(), "include_csv", true, "include_xls", false,
                            "dashboard_card_id", dc.get("id").asLong()));
                    runs.add(new long[]{dc.get("id").asLong(), dc.get("card_id").asLong()});
                }
                long pulse = admin.post(200, "pulse", Map.of("name", "Ten cards", "dashboard_id", dashboard, "cards", pulseCards,
                        "channels", List.of(Map.of("channel_type", "email", "schedule_type", "daily", "schedule_hour", 8,
                                "recipients", List.of(Map.of("id", 1), Map.of("email", "outsider@example.org")))))).json().get("id").asLong();
                var delivery = server.quarry().notificationModule.delivery();

                // warm-up: one of each
                floor(admin, dashboard, runs);
                delivery.sendScheduled(pulse, null);
                mail.await(2);
                List<Double> floors = new ArrayList<>();
                List<Double> sends = new ArrayList<>();
                for (int round = 0; round < ROUNDS; round++) {
                    floors.add(floor(admin, dashboard, runs));
                    long start = System.nanoTime();
                    delivery.sendScheduled(pulse, null);
                    sends.add((System.nanoTime() - start) / 1e6);
                    mail.await(2 * (round + 2));
                }
                double floor = median(floors);
                double send = median(sends);
                System.out.printf(Locale.ROOT, "floor: 10 dashcard queries over HTTP, median of %d: %.0f ms%n", ROUNDS, floor);
                System.out.printf(Locale.ROOT, "subscription: 10 cards run, rendered (charts as PNG), 10 CSV attachments, 2 emails over SMTP, "
                        + "median of %d: %.0f ms%n", ROUNDS, send);
                System.out.printf(Locale.ROOT, "RESULT time per subscription %.0f ms = %.1fx the floor (10 dashcard queries)%n", send,
                        send / floor);
            }
        }
    }

    private static double floor(Api admin, long dashboard, List<long[]> runs) {
        long start = System.nanoTime();
        for (long[] run : runs) {
            admin.post(202, "dashboard/" + dashboard + "/dashcard/" + run[0] + "/card/" + run[1] + "/query", Map.of());
        }
        return (System.nanoTime() - start) / 1e6;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
