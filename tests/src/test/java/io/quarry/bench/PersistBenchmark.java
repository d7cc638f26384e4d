package io.quarry.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.TestServer;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Model persistence on a 1,000,000-row PostgreSQL table ({@code bench/run-persist.sh}): an aggregation over a model,
 * answered with the model persisted (read from its table) and not (the model's query run inside the aggregation),
 * median of interleaved runs; and the time of a refresh through Quarry against its floor, PostgreSQL's own
 * {@code CREATE TABLE ... AS} of the same SQL on the same server, measured in the same run.
 *
 * <p>Two models: a summary (sales per customer, about 10,000 rows: what persistence is for) and the raw table (the
 * whole 1,000,000 rows, where there is little to save). Quarry runs in embedded Jetty with an H2 application database.
 */
public final class PersistBenchmark {
    private static final int ROWS = 1_000_000;
    private static final int RUNS = 7;

    private final String database;
    private final TestServer server;
    private final Api admin;
    private final long databaseId;

    private PersistBenchmark() throws Exception {
        long start = System.nanoTime();
        database = PostgresTargets.create("persistbench");
        PostgresTargets.execute(database,
                "CREATE TABLE orders (id bigint PRIMARY KEY, customer text NOT NULL, amount numeric(10,2), created_at timestamp, "
                        + "status text)",
                "INSERT INTO orders SELECT g, 'Customer ' || (g % 9973), round((g % 100000) / 7.0, 2), "
                        + "TIMESTAMP '2024-01-01 00:00:00' + g * INTERVAL '17 seconds', "
                        + "(ARRAY['shipped','pending','cancelled'])[1 + g % 3] FROM generate_series(1, " + ROWS + ") g",
                "VACUUM ANALYZE orders");
        server = TestServer.start(Map.of());
        Api api = server.api();
        admin = api.as(Fixtures.setUp(api));
        PostgresTargets.ensureDriver(server.quarry());
        databaseId = admin.post(200, "database", Map.of("engine", "postgres", "name", "Bench",
                "details", PostgresTargets.details(database))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(databaseId).get();
        System.out.printf(Locale.ROOT, "setup: %,d rows, Quarry on %s (%.1f s)%n", ROWS, server.base, (System.nanoTime() - start) / 1e9);
    }

    public static void main(String[] args) throws Exception {
        System.out.printf(Locale.ROOT, "machine: %d cores, load average %.2f, %s%n", Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        PersistBenchmark bench = new PersistBenchmark();
        try {
            bench.run();
        } finally {
            bench.server.close();
        }
        System.exit(0);
    }

    private void run() throws Exception {
        long orders = tableId("orders");
        List<Object> customer = field(orders, "customer");
        List<Object> amount = field(orders, "amount");
        Map<String, Object> summaryQuery = Map.of("source-table", orders,
                "aggregation", List.of(List.of("sum", amount), List.of("count")), "breakout", List.of(customer));
        Map<String, Object> rawQuery = Map.of("source-table", orders);
        long summary = model("Sales per customer", summaryQuery);
        long raw = model("All orders", rawQuery);
        // the questions: the average customer's sales; total sales per status
        Map<String, Object> overSummary = Map.of("source-table", "card__" + summary,
                "aggregation", List.of(List.of("avg", List.of("field", "sum", Map.of("base-type", "type/Decimal"))),
                        List.of("max", List.of("field", "count", Map.of("base-type", "type/Integer")))));
        Map<String, Object> overRaw = Map.of("source-table", "card__" + raw,
                "aggregation", List.of(List.of("sum", List.of("field", "amount", Map.of("base-type", "type/Decimal")))),
                "breakout", List.of(List.of("field", "status", Map.of("base-type", "type/Text"))));

        JsonNode summaryNot = ask(overSummary);
        JsonNode rawNot = ask(overRaw);
        admin.post(204, "persist/enable", null);
        admin.post(204, "database/" + databaseId + "/persist", null);
        awaitPersisted(summary);
        awaitPersisted(raw);
        JsonNode summaryPersisted = ask(overSummary);
        JsonNode rawPersisted = ask(overRaw);
        check(summaryNot, summaryPersisted);
        check(rawNot, rawPersisted);

        System.out.println();
        System.out.println("== aggregation over a model, persisted vs not (median of " + RUNS + " interleaved runs, each the second of two in a row, POST /api/dataset)");
        compare("summary model (~10,000 rows from 1,000,000)", summary, overSummary);
        compare("raw model (1,000,000 rows)", raw, overRaw);

        System.out.println();
        System.out.println("== refresh: POST /api/card/:id/refresh until refresh_end vs PostgreSQL CREATE TABLE AS <the model's SQL>");
        refresh("summary model", summary, summaryQuery);
        refresh("raw model", raw, rawQuery);
    }

    private void compare(String label, long model, Map<String, Object> question) throws Exception {
        double[] not = new double[RUNS];
        double[] persisted = new double[RUNS];
        for (int i = 0; i < RUNS; i++) {
            admin.post(204, "persist/card/" + model + "/unpersist", null);
            not[i] = timedAsk(question, false);
            admin.post(204, "persist/card/" + model + "/persist", null);
            awaitPersisted(model);
            persisted[i] = timedAsk(question, true);
        }
        double n = median(not);
        double p = median(persisted);
        System.out.printf(Locale.ROOT, "RESULT %s: not persisted %.1f ms, persisted %.1f ms, speed-up %.1fx%n", label, n * 1e3, p * 1e3, n / p);
    }

    private void refresh(String label, long model, Map<String, Object> modelQuery) throws Exception {
        double[] quarry = new double[3];
        double[] floor = new double[3];
        // the model's own query, compiled as the refresh compiles it (no bind values in these two)
        String sql = admin.post(200, "dataset/native", Map.of("database", databaseId, "type", "query", "query", modelQuery))
                .json().get("query").asText();
        for (int i = 0; i < 3; i++) {
            try (Connection c = PostgresTargets.connect(database); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS bench_floor");
                long start = System.nanoTime();
                s.execute("CREATE TABLE bench_floor AS " + sql);
                floor[i] = (System.nanoTime() - start) / 1e9;
                s.execute("DROP TABLE bench_floor");
            }
            String before = record(model).get("refresh_end").asText();
            long start = System.nanoTime();
            admin.post(204, "card/" + model + "/refresh", null);
            while (true) {
                JsonNode record = record(model);
                if ("persisted".equals(record.get("state").asText()) && !before.equals(record.get("refresh_end").asText())) {
                    break;
                }
                if ("error".equals(record.get("state").asText())) {
                    throw new IllegalStateException("refresh failed: " + record);
                }
                Thread.sleep(5);
            }
            quarry[i] = (System.nanoTime() - start) / 1e9;
        }
        System.out.printf(Locale.ROOT, "RESULT refresh %s: Quarry %.2f s, CREATE TABLE AS %.2f s, ratio %.2fx%n", label, median(quarry),
                median(floor), median(quarry) / median(floor));
    }

    private JsonNode ask(Map<String, Object> inner) {
        JsonNode result = admin.post(202, "dataset", Map.of("database", databaseId, "type", "query", "query", inner)).json();
        if (!"completed".equals(result.get("status").asText())) {
            throw new IllegalStateException(result.toString());
        }
        return result;
    }

    /** The second of two runs in a row: both sides warm (a table just built has its first reader set its hint bits). */
    private double timedAsk(Map<String, Object> question, boolean expectCache) {
        ask(question);
        long start = System.nanoTime();
        JsonNode result = ask(question);
        double seconds = (System.nanoTime() - start) / 1e9;
        boolean fromCache = result.get("data").get("native_form").get("query").asText().contains("metabase_cache_");
        if (fromCache != expectCache) {
            throw new IllegalStateException("expected the table " + (expectCache ? "" : "not ") + "to be read: " + result.get("data").get("native_form"));
        }
        return seconds;
    }

    private static void check(JsonNode not, JsonNode persisted) {
        if (!not.get("data").get("rows").equals(persisted.get("data").get("rows"))) {
            throw new IllegalStateException("different answers: " + not.get("data").get("rows") + " vs " + persisted.get("data").get("rows"));
        }
    }

    private JsonNode record(long model) {
        return admin.get(200, "persist/card/" + model).json();
    }

    private void awaitPersisted(long model) throws InterruptedException {
        for (int i = 0; i < 6000; i++) {
            Api.Res res = admin.call("GET", "persist/card/" + model, null);
            if (res.status() == 200 && "persisted".equals(res.json().get("state").asText())) {
                return;
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("model " + model + " was never persisted");
    }

    private long model(String name, Map<String, Object> inner) {
        return admin.post(200, "card", Map.of("name", name, "display", "table", "type", "model", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", databaseId, "type", "query", "query", inner))).json().get("id").asLong();
    }

    private long tableId(String name) {
        for (JsonNode t : admin.get(200, "database/" + databaseId + "/metadata").json().get("tables")) {
            if (t.get("name").asText().equals(name)) {
                return t.get("id").asLong();
            }
        }
        throw new IllegalStateException("no table " + name);
    }

    private List<Object> field(long tableId, String name) {
        for (JsonNode t : admin.get(200, "database/" + databaseId + "/metadata").json().get("tables")) {
            if (t.get("id").asLong() == tableId) {
                for (JsonNode f : t.get("fields")) {
                    if (f.get("name").asText().equals(name)) {
                        return new ArrayList<>(Arrays.asList("field", f.get("id").asLong(), null));
                    }
                }
            }
        }
        throw new IllegalStateException("no field " + name);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
