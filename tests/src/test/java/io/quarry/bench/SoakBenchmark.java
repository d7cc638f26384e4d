package io.quarry.bench;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PrometheusText;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Soak: 64 connections of mixed load for a few minutes against Quarry in embedded Jetty (H2 application database by
 * default, {@code -Dquarry.test.appdb=postgres} for PostgreSQL): reads (collection, card, collection items), card
 * queries on an H2 target, writes (new collections, renamed cards) and searches. Prints throughput, p50/p99 overall and
 * per kind, errors, and the live heap after a full GC at the start and at the end (the load generator shares the JVM;
 * its own live objects are a few MB). Args: {@code [seconds=180] [connections=64]}.
 */
public final class SoakBenchmark {
    enum Kind { READ, QUERY, WRITE, SEARCH }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 180;
        int connections = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        System.out.printf(Locale.ROOT, "machine: %d cores, load average %.2f, app DB %s, max heap %d MB, %d connections, %d s%n",
                Runtime.getRuntime().availableProcessors(), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                TestAppDb.isPostgres() ? "PostgreSQL (embedded)" : "H2 (file)", Runtime.getRuntime().maxMemory() >> 20,
                connections, seconds);
        // the metrics at /api/metrics, scraped at the end (what an operator's Prometheus would have seen)
        TestServer server = TestServer.start(Map.of("MB_PROMETHEUS_API_ENABLED", "true"));
        try {
            Api api = server.api();
            String session = Fixtures.setUp(api);
            Api admin = api.as(session);
            long databaseId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                    "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD)))
                    .json().get("id").asLong();
            long[] collections = new long[50];
            long[] cards = new long[200];
            for (int i = 0; i < collections.length; i++) {
                collections[i] = admin.post(200, "collection", Map.of("name", "Soak " + i)).json().get("id").asLong();
            }
            for (int i = 0; i < cards.length; i++) {
                Map<String, Object> card = new LinkedHashMap<>();
                card.put("name", "Soak card " + i);
                card.put("display", "table");
                card.put("visualization_settings", Map.of());
                card.put("collection_id", collections[i % collections.length]);
                card.put("dataset_query", Map.of("database", databaseId, "type", "native",
                        "native", Map.of("query", "SELECT CATEGORY, SUM(TOTAL) FROM ORDERS GROUP BY CATEGORY")));
                cards[i] = admin.post(200, "card", card).json().get("id").asLong();
            }
            System.out.printf(Locale.ROOT, "seeded %d collections and %d cards; heap after GC at start: %s%n",
                    collections.length, cards.length, heapAfterGc());

            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            URI base = server.base.resolve("api/");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            Map<Kind, List<long[]>> latencies = new EnumMap<>(Kind.class);
            Map<Kind, AtomicLong> errors = new EnumMap<>(Kind.class);
            for (Kind kind : Kind.values()) {
                latencies.put(kind, java.util.Collections.synchronizedList(new ArrayList<>()));
                errors.put(kind, new AtomicLong());
            }
            ExecutorService pool = Executors.newFixedThreadPool(connections);
            AtomicLong written = new AtomicLong();
            long began = System.nanoTime();
            for (int t = 0; t < connections; t++) {
                pool.submit(() -> {
                    Map<Kind, long[]> mine = new EnumMap<>(Kind.class);
                    Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
                    for (Kind kind : Kind.values()) {
                        mine.put(kind, new long[1 << 16]);
                        counts.put(kind, 0);
                    }
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    while (System.nanoTime() < end) {
                        int dice = random.nextInt(100);
                        Kind kind = dice < 40 ? Kind.READ : dice < 65 ? Kind.QUERY : dice < 80 ? Kind.WRITE : Kind.SEARCH;
                        HttpRequest request = request(kind, base, session, random, collections, cards, written);
                        long start = System.nanoTime();
                        int status;
                        try {
                            status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                        } catch (Exception e) {
                            status = -1;
                        }
                        long took = System.nanoTime() - start;
                        if (status != 200 && status != 202) {
                            errors.get(kind).incrementAndGet();
                        }
                        int n = counts.get(kind);
                        long[] array = mine.get(kind);
                        if (n == array.length) {
                            array = Arrays.copyOf(array, n * 2);
                            mine.put(kind, array);
                        }
                        array[n] = took;
                        counts.put(kind, n + 1);
                    }
                    for (Kind kind : Kind.values()) {
                        latencies.get(kind).add(Arrays.copyOf(mine.get(kind), counts.get(kind)));
                    }
                    return null;
                });
            }
            pool.shutdown();
            pool.awaitTermination(seconds + 120L, TimeUnit.SECONDS);
            double elapsed = (System.nanoTime() - began) / 1e9;
            long[] all = new long[0];
            for (Kind kind : Kind.values()) {
                long[] merged = merge(latencies.get(kind));
                all = concat(all, merged);
                System.out.printf(Locale.ROOT, "%-6s %8d requests, %6.1f req/s, p50 %7.1f ms, p99 %7.1f ms, errors %d%n", kind,
                        merged.length, merged.length / elapsed, percentile(merged, 50), percentile(merged, 99), errors.get(kind).get());
            }
            long errorCount = errors.values().stream().mapToLong(AtomicLong::get).sum();
            System.out.printf(Locale.ROOT, "RESULT throughput %.1f req/s over %.0f s, p50 %.1f ms, p99 %.1f ms, %d errors of %d%n",
                    all.length / elapsed, elapsed, percentile(all, 50), percentile(all, 99), errorCount, all.length);
            System.out.printf(Locale.ROOT, "RESULT heap after GC at end: %s; process RSS %s%n", heapAfterGc(), rss());
            printMetrics(admin, databaseId, elapsed, merge(latencies.get(Kind.QUERY)));
        } finally {
            server.close();
        }
    }

    /**
     * The server's own view of the run, from one scrape of {@code GET /api/metrics}: queries by outcome and their mean
     * time inside Quarry against the client's mean for a card query (the ratio is the share of a card query spent
     * executing it), the pools' waits, GC pauses as a share of the run; and the scrape's own cost against a
     * {@code GET /api/health} (the floor) timed the same way, just before it.
     */
    private static void printMetrics(Api admin, long databaseId, double elapsed, long[] queryNanos) {
        long floor = bestOf(5, () -> admin.get(200, "health"));
        String[] text = new String[1];
        long scrape = bestOf(5, () -> text[0] = admin.get(200, "metrics").body());
        String metrics = text[0];
        Map<String, String> db = Map.of("database_id", String.valueOf(databaseId));
        double ok = PrometheusText.count(metrics, "quarry_query_duration_seconds_count", Map.of("database_id", String.valueOf(databaseId),
                "outcome", "ok"));
        double all = PrometheusText.count(metrics, "quarry_query_duration_seconds_count", db);
        double serverMeanMs = 1000 * PrometheusText.count(metrics, "quarry_query_duration_seconds_sum", db) / Math.max(1, all);
        double clientMeanMs = queryNanos.length == 0 ? 0 : Arrays.stream(queryNanos).average().orElse(0) / 1e6;
        System.out.printf(Locale.ROOT, "METRICS queries on the shop database (the seeded cards' result-metadata reads too): "
                + "%.0f, %.0f ok; mean inside Quarry %.2f ms, client's mean per card query %.2f ms (ratio %.2f)%n", all, ok, serverMeanMs, clientMeanMs,
                clientMeanMs == 0 ? 0 : serverMeanMs / clientMeanMs);
        for (String pool : List.of("app-db", "db-" + databaseId)) {
            Map<String, String> label = Map.of("database", pool);
            System.out.printf(Locale.ROOT, "METRICS pool %s: %.0f connections of %.0f, %.0f waiting now, longest wait %.0f ms, %.0f borrows%n",
                    pool, PrometheusText.count(metrics, "c3p0_num_connections", label), PrometheusText.count(metrics, "c3p0_max_pool_size", label),
                    PrometheusText.count(metrics, "c3p0_num_threads_awaiting_checkout_default_user", label),
                    PrometheusText.count(metrics, "quarry_pool_borrow_wait_max_milliseconds", label),
                    PrometheusText.count(metrics, "quarry_pool_borrowed_connections", label));
        }
        double gcSeconds = PrometheusText.count(metrics, "jvm_gc_pause_seconds_sum", Map.of());
        System.out.printf(Locale.ROOT, "METRICS GC pauses %.2f s (%.1f %% of the run), live threads %.0f, result cache %.0f hits / %.0f misses%n",
                gcSeconds, 100 * gcSeconds / elapsed, PrometheusText.count(metrics, "jvm_threads_live_threads", Map.of()),
                PrometheusText.count(metrics, "quarry_query_cache_total", Map.of("result", "hit")),
                PrometheusText.count(metrics, "quarry_query_cache_total", Map.of("result", "miss")));
        System.out.printf(Locale.ROOT, "RESULT metrics scrape: %d lines, %.2f ms, GET /api/health %.2f ms (ratio %.1f)%n",
                metrics.lines().count(), scrape / 1e6, floor / 1e6, (double) scrape / Math.max(1, floor));
    }

    /** The fastest of {@code runs} runs of {@code work}, in nanoseconds. */
    private static long bestOf(int runs, Runnable work) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < runs; i++) {
            long began = System.nanoTime();
            work.run();
            best = Math.min(best, System.nanoTime() - began);
        }
        return best;
    }

    private static HttpRequest request(Kind kind, URI base, String session, ThreadLocalRandom random, long[] collections,
                                       long[] cards, AtomicLong written) {
        long card = cards[random.nextInt(cards.length)];
        long collection = collections[random.nextInt(collections.length)];
        HttpRequest.Builder builder;
        switch (kind) {
            case READ -> {
                int which = random.nextInt(3);
                String path = which == 0 ? "collection/" + collection : which == 1 ? "card/" + card : "collection/" + collection + "/items";
                builder = HttpRequest.newBuilder(base.resolve(path)).GET();
            }
            case QUERY -> builder = HttpRequest.newBuilder(base.resolve("card/" + card + "/query"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}"));
            case WRITE -> {
                long n = written.incrementAndGet();
                builder = n % 2 == 0
                        ? HttpRequest.newBuilder(base.resolve("collection")).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"Soak write " + n + "\",\"parent_id\":" + collection + "}"))
                        : HttpRequest.newBuilder(base.resolve("card/" + card)).header("Content-Type", "application/json")
                                .PUT(HttpRequest.BodyPublishers.ofString("{\"name\":\"Soak card renamed " + n + "\"}"));
            }
            case SEARCH -> builder = HttpRequest.newBuilder(base.resolve("search?q=soak+" + random.nextInt(100) + "&limit=50")).GET();
            default -> throw new IllegalStateException();
        }
        return builder.header("X-Metabase-Session", session).timeout(Duration.ofSeconds(120)).build();
    }

    private static String heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        return String.format(Locale.ROOT, "%.1f MB", used / 1048576.0);
    }

    private static String rss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return line.substring(6).trim();
                }
            }
        } catch (Exception e) {
            // not Linux
        }
        return "unknown";
    }

    private static long[] merge(List<long[]> parts) {
        long[] merged = new long[0];
        synchronized (parts) {
            for (long[] part : parts) {
                merged = concat(merged, part);
            }
        }
        Arrays.sort(merged);
        return merged;
    }

    private static long[] concat(long[] a, long[] b) {
        long[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private static double percentile(long[] values, int p) {
        if (values.length == 0) {
            return 0;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1e6;
    }
}
