package io.quarry.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.RawHttp;
import io.quarry.testing.TestServer;
import io.quarry.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import org.dhatim.fastexcel.reader.ReadableWorkbook;

/**
 * Quarry's download benchmarks, each against a baseline measured in the same run (see bench/README.md). Not a test:
 * run through {@code bench/run-export.sh [csv|overhead|xlsx-heap|all]}. Everything runs on loopback: an embedded
 * PostgreSQL with a 1,000,000-row table, and Quarry in embedded Jetty with an H2 application database.
 */
public final class ExportBenchmark {
    private static final int ROWS = 1_000_000;
    /** The query every benchmark exports: five columns of the usual kinds (integer, text, decimal, timestamp, text). */
    private static final String EXPORT_SQL = "SELECT id, customer, amount, created_at, status FROM orders";
    private static final String ONE_ROW_SQL = "SELECT id, customer, amount, created_at, status FROM orders WHERE id = 4242";

    private final String database;
    private final TestServer server;
    private final String session;
    private final long databaseId;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private ExportBenchmark() throws Exception {
        long start = System.nanoTime();
        database = PostgresTargets.create("bench");
        PostgresTargets.execute(database,
                "CREATE TABLE orders (id bigint PRIMARY KEY, customer text NOT NULL, amount numeric(10,2), created_at timestamp, "
                        + "status text)",
                "INSERT INTO orders SELECT g, 'Customer ' || (g % 9973), round((g % 100000) / 7.0, 2), "
                        + "TIMESTAMP '2024-01-01 00:00:00' + g * INTERVAL '17 seconds', "
                        + "(ARRAY['shipped','pending','cancelled, refunded'])[1 + g % 3] FROM generate_series(1, " + ROWS + ") g",
                "VACUUM ANALYZE orders");
        server = TestServer.start(Map.of());
        Api api = server.api();
        session = Fixtures.setUp(api);
        PostgresTargets.ensureDriver(server.quarry());
        databaseId = api.as(session).post(200, "database", Map.of("engine", "postgres", "name", "Bench",
                "details", PostgresTargets.details(database))).json().get("id").asLong();
        System.out.printf(Locale.ROOT, "setup: PostgreSQL %s, %,d rows, Quarry on %s (%.1f s)%n", serverVersion(), ROWS, server.base,
                (System.nanoTime() - start) / 1e9);
    }

    public static void main(String[] args) throws Exception {
        String which = args.length > 0 ? args[0] : "all";
        System.out.printf(Locale.ROOT, "machine: %d cores, load average %.2f, max heap %d MiB, %s%n",
                Runtime.getRuntime().availableProcessors(), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                Runtime.getRuntime().maxMemory() >> 20, System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        ExportBenchmark bench = new ExportBenchmark();
        try {
            switch (which) {
                case "csv" -> bench.csvExport();
                case "overhead" -> bench.perQueryOverhead();
                case "xlsx-heap" -> bench.xlsxHeap();
                case "all" -> {
                    bench.csvExport();
                    bench.perQueryOverhead();
                    bench.xlsxHeap();
                }
                default -> throw new IllegalArgumentException("unknown benchmark " + which + ": csv, overhead, xlsx-heap or all");
            }
        } finally {
            bench.server.close();
        }
        System.exit(0);
    }

    private String serverVersion() throws Exception {
        try (Connection c = PostgresTargets.connect(database); ResultSet rs = c.createStatement().executeQuery("SHOW server_version")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private String exportBody(String sql) {
        return Json.write(Map.of("query", Map.of("database", databaseId, "type", "native", "native", Map.of("query", sql)),
                "format_rows", false));
    }

    // --- (1) CSV export vs psql \copy ---------------------------------------------------------------------------

    /** A 1,000,000-row CSV through HTTP (curl, to /dev/null) vs {@code psql \copy (same query) TO STDOUT} (to /dev/null). */
    private void csvExport() throws Exception {
        System.out.println();
        System.out.println("== (1) 1,000,000-row CSV export: Quarry POST /api/dataset/csv (curl) vs psql \\copy ... TO STDOUT (csv)");
        Path body = Files.createTempFile("bench-body", ".json");
        Files.writeString(body, exportBody(EXPORT_SQL));
        List<String> curl = List.of("curl", "-sS", "--fail", "-o", "/dev/stdout", "-X", "POST",
                "-H", "Content-Type: application/json", "-H", "X-Metabase-Session: " + session,
                "--data-binary", "@" + body, server.base + "api/dataset/csv");
        List<String> psql = List.of("psql", "-X", "-q", "-h", "localhost", "-p", String.valueOf(PostgresTargets.port()),
                "-U", "postgres", "-d", database, "-c", "\\copy (" + EXPORT_SQL + ") TO STDOUT WITH (FORMAT csv)");
        // A first run of each through a pipe this JVM drains and counts: both produce every row. Timed runs write to
        // /dev/null.
        long[] quarryOut = run(curl);
        long[] psqlOut = run(psql);
        System.out.printf(Locale.ROOT, "output: Quarry %,d lines (title row + rows), %,d bytes; psql %,d lines, %,d bytes%n",
                quarryOut[1], quarryOut[0], psqlOut[1], psqlOut[0]);
        if (quarryOut[1] != ROWS + 1 || psqlOut[1] != ROWS) {
            throw new IllegalStateException("incomplete output");
        }
        int runs = 5;
        double[] quarry = new double[runs];
        double[] baseline = new double[runs];
        for (int i = 0; i < runs; i++) {
            baseline[i] = timed(psql);
            quarry[i] = timed(curl);
            System.out.printf(Locale.ROOT, "run %d: psql %.3f s, Quarry %.3f s%n", i + 1, baseline[i], quarry[i]);
        }
        double q = median(quarry);
        double b = median(baseline);
        System.out.printf(Locale.ROOT, "RESULT csv: Quarry median %.3f s, psql \\copy median %.3f s, ratio %.2fx (target <= 1.5x)%n",
                q, b, q / b);
    }

    /** Runs a command with its output going straight to /dev/null (checked complete in the first, counted run). */
    private static double timed(List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("PGPASSWORD", "postgres");
        long start = System.nanoTime();
        Process process = builder.start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException(command.get(0) + " failed with " + process.exitValue());
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** Runs a command, draining its standard output; returns {bytes, lines}. */
    private static long[] run(List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("PGPASSWORD", "postgres");
        Process process = builder.start();
        long bytes = 0;
        long lines = 0;
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = process.getInputStream()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                bytes += n;
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        lines++;
                    }
                }
            }
        }
        if (process.waitFor() != 0) {
            throw new IllegalStateException(command.get(0) + " failed with " + process.exitValue());
        }
        return new long[]{bytes, lines};
    }

    // --- (2) per-query overhead ---------------------------------------------------------------------------------

    /**
     * A one-row query: POST /api/dataset from a plain blocking HTTP/1.1 client on a keep-alive connection (as curl or a
     * script talks to Quarry) vs the same SQL over one open JDBC connection. Also measured, for context: the HTTP
     * round trip alone (GET /api/health) and the same request through java.net.http.HttpClient.
     */
    private void perQueryOverhead() throws Exception {
        System.out.println();
        System.out.println("== (2) one-row query: POST /api/dataset vs raw JDBC (same SQL, same PostgreSQL)");
        byte[] body = Json.write(Map.of("database", databaseId, "type", "native", "native", Map.of("query", ONE_ROW_SQL)))
                .getBytes(StandardCharsets.UTF_8);
        String headers = "Content-Type: application/json\r\nX-Metabase-Session: " + session + "\r\n";
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.base + "api/dataset"))
                .header("Content-Type", "application/json").header("X-Metabase-Session", session)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        try (Connection jdbc = PostgresTargets.connect(database); RawHttp client = new RawHttp(server.base)) {
            int warmup = 1000;
            int runs = 3000;
            long[] quarry = new long[runs];
            long[] raw = new long[runs];
            long[] health = new long[runs];
            long[] httpClient = new long[runs];
            for (int i = -warmup; i < runs; i++) {
                // interleaved, so that all see the same machine load
                long t0 = System.nanoTime();
                quarryOnce(client.send("POST", "/api/dataset", headers, body));
                long t1 = System.nanoTime();
                jdbcOnce(jdbc);
                long t2 = System.nanoTime();
                client.send("GET", "/api/health", "", null);
                long t3 = System.nanoTime();
                HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                quarryOnce(new RawHttp.Answer(response.statusCode(), response.body()));
                long t4 = System.nanoTime();
                if (i >= 0) {
                    quarry[i] = t1 - t0;
                    raw[i] = t2 - t1;
                    health[i] = t3 - t2;
                    httpClient[i] = t4 - t3;
                }
            }
            double q = median(quarry);
            double r = median(raw);
            System.out.printf(Locale.ROOT, "Quarry: median %.3f ms, p90 %.3f ms; raw JDBC: median %.3f ms, p90 %.3f ms (%d runs each)%n",
                    q, percentile(quarry, 90), r, percentile(raw, 90), runs);
            System.out.printf(Locale.ROOT, "context: HTTP round trip alone (GET /api/health, same client) median %.3f ms; the same "
                    + "POST through java.net.http.HttpClient median %.3f ms%n", median(health), median(httpClient));
            System.out.printf(Locale.ROOT, "RESULT overhead: %.3f ms added at the median (target <= 1 ms), ratio %.2fx%n", q - r, q / r);
        }
    }

    private static void quarryOnce(RawHttp.Answer answer) {
        if (answer.status() != 202 || !new String(answer.body(), StandardCharsets.UTF_8).contains("\"row_count\":1")) {
            throw new IllegalStateException("unexpected answer " + answer.status());
        }
    }

    private static double median(long[] nanos) {
        return percentile(nanos, 50);
    }

    private static double percentile(long[] nanos, int percent) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, sorted.length * percent / 100)] / 1e6;
    }

    private static void jdbcOnce(Connection connection) throws Exception {
        try (PreparedStatement s = connection.prepareStatement(ONE_ROW_SQL); ResultSet rs = s.executeQuery()) {
            int rows = 0;
            while (rs.next()) {
                for (int i = 1; i <= 5; i++) {
                    rs.getObject(i);
                }
                rows++;
            }
            if (rows != 1) {
                throw new IllegalStateException("expected one row");
            }
        }
    }

    // --- (3) heap during a 1,000,000-row XLSX export -------------------------------------------------------------

    /**
     * A 1,000,000-row XLSX export while the server's JVM (this one: Jetty, Quarry and the client) runs with the heap
     * the script gives it (-Xmx256m). Reports the heap pools' peak usage (garbage included) and the largest heap left
     * after any garbage collection during the export (what is really retained).
     */
    private void xlsxHeap() throws Exception {
        System.out.println();
        System.out.println("== (3) heap during a 1,000,000-row XLSX export (server JVM max heap " + (Runtime.getRuntime().maxMemory() >> 20)
                + " MiB)");
        AtomicLong maxAfterGc = new AtomicLong();
        AtomicLong collections = new AtomicLong();
        for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener((notification, handback) -> {
                if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                    GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
                    long used = info.getGcInfo().getMemoryUsageAfterGc().values().stream().filter(u -> u != null)
                            .mapToLong(MemoryUsage::getUsed).sum() - nonHeapUsed(info.getGcInfo().getMemoryUsageAfterGc());
                    maxAfterGc.accumulateAndGet(used, Math::max);
                    collections.incrementAndGet();
                }
            }, null, null);
        }
        System.gc();
        long baseline = heapUsed();
        List<MemoryPoolMXBean> heapPools = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
                heapPools.add(pool);
            }
        }
        maxAfterGc.set(0);
        collections.set(0);
        Path file = Files.createTempFile("bench-export", ".xlsx");
        long start = System.nanoTime();
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.base + "api/dataset/xlsx"))
                .header("Content-Type", "application/json").header("X-Metabase-Session", session)
                .POST(HttpRequest.BodyPublishers.ofString(exportBody(EXPORT_SQL))).build();
        HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        long bytes;
        try (InputStream in = response.body(); OutputStream out = Files.newOutputStream(file)) {
            bytes = in.transferTo(out);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long peak = heapPools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        if (response.statusCode() != 200) {
            throw new IllegalStateException("export answered " + response.statusCode());
        }
        long rows;
        try (ReadableWorkbook workbook = new ReadableWorkbook(file.toFile())) {
            rows = workbook.getFirstSheet().openStream().count();
        }
        Files.delete(file);
        System.out.printf(Locale.ROOT, "export: %,d bytes in %.1f s, read back: %,d rows (title row + data)%n", bytes, seconds, rows);
        if (rows != ROWS + 1) {
            throw new IllegalStateException("the workbook is incomplete");
        }
        System.out.printf(Locale.ROOT, "heap before: %.1f MiB live; during the export: peak of the heap pools %.1f MiB (garbage "
                        + "included), largest heap after a collection %.1f MiB (%d collections)%n",
                baseline / 1048576.0, peak / 1048576.0, maxAfterGc.get() / 1048576.0, collections.get());
        System.out.printf(Locale.ROOT, "RESULT xlsx-heap: peak heap %.1f MiB with -Xmx%d MiB, at most %.1f MiB live (target < 256 MiB)%n",
                peak / 1048576.0, Runtime.getRuntime().maxMemory() >> 20, maxAfterGc.get() / 1048576.0);
    }

    private static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long nonHeapUsed(Map<String, MemoryUsage> usage) {
        long nonHeap = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage u = usage.get(pool.getName());
            if (pool.getType() == MemoryType.NON_HEAP && u != null) {
                nonHeap += u.getUsed();
            }
        }
        return nonHeap;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
