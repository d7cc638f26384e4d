package io.quarry.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.io.BufferedWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Issue #25 item 6 (run {@code bench/run-upload.sh}, see bench/README.md): the heap a CSV upload holds, per file size.
 * Quarry in embedded Jetty in this JVM, uploads on into an embedded PostgreSQL (its own process, so its memory is not
 * counted; {@code -Dtarget=h2} for an H2 file in this JVM, whose page cache then counts); for each size a CSV is written to disk and sent
 * from the file ({@code POST /api/upload/csv}, the client streams it). Measured while the upload runs, above the heap
 * live before it (after a full GC): the largest heap still live after any GC (what the upload holds), and the largest
 * heap used at any sample (held plus garbage not yet collected); each divided by the file's size.
 */
public final class UploadBenchmark {
    public static void main(String[] args) throws Exception {
        String[] sizes = System.getProperty("sizes", "5,20,43").split(",");
        Path dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "upload-bench");
        HeapWatch watch = new HeapWatch();
        try (TestServer server = TestServer.start(Map.of())) {
            Api anonymous = server.api();
            String session = Fixtures.setUp(anonymous);
            Api admin = anonymous.as(session);
            boolean h2 = "h2".equals(System.getProperty("target", "postgres"));
            long db;
            if (h2) {
                db = admin.post(200, "database", Map.of("engine", "h2", "name", "Uploads", "details",
                        Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD)))
                        .json().get("id").asLong();
            } else {
                PostgresTargets.ensureDriver(server.quarry());
                db = admin.post(200, "database", Map.of("engine", "postgres", "name", "Uploads", "details",
                        PostgresTargets.details(PostgresTargets.create("uploads")))).json().get("id").asLong();
            }
            System.out.println("Uploads into " + (h2 ? "an H2 target in this JVM (its page cache counts as held)"
                    : "an embedded PostgreSQL (its own process)"));
            admin.put(204, "setting/uploads-database-id", Map.of("value", db));
            admin.put(204, "setting/uploads-enabled", Map.of("value", true));
            // (a build without the setting answers 400 here, and keeps its own limit)
            admin.call("PUT", "setting/max-upload-size-bytes", Map.of("value", 200L * 1024 * 1024));
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            // warm-up: the code paths compiled, the pools open
            upload(http, server, session, csv(dir, 1));
            System.out.printf(Locale.ROOT, "%-8s %-9s %-8s %-5s %-9s %-13s %-10s %-10s%n", "file MB", "rows", "time s",
                    "GCs", "held MB", "peak used MB", "held/file", "peak/file");
            List<String> results = new ArrayList<>();
            for (String size : sizes) {
                int mb = Integer.parseInt(size.trim());
                Path file = csv(dir, mb);
                long bytes = Files.size(file);
                long rows = Files.lines(file).count() - 1;
                System.gc();
                Thread.sleep(200);
                long base = usedHeap();
                watch.start();
                long t = System.nanoTime();
                HttpResponse<String> res = upload(http, server, session, file);
                double seconds = (System.nanoTime() - t) / 1e9;
                watch.stop();
                if (res.statusCode() != 200) {
                    throw new IllegalStateException("upload answered " + res.statusCode() + ": " + res.body());
                }
                double held = Math.max(0, watch.maxAfterGc.get() - base) / 1048576.0;
                double peak = Math.max(0, watch.maxUsed.get() - base) / 1048576.0;
                double fileMb = bytes / 1048576.0;
                System.out.printf(Locale.ROOT, "%-8.1f %-9d %-8.1f %-5d %-9.1f %-13.1f %-10.2f %-10.2f%n", fileMb, rows, seconds,
                        watch.collections.get(), held, peak, held / fileMb, peak / fileMb);
                results.add(String.format(Locale.ROOT, "%.0f MB: held/file %.2f, peak/file %.2f", fileMb, held / fileMb, peak / fileMb));
                Files.delete(file);
            }
            System.out.println("RESULT upload heap per file size: " + String.join("; ", results)
                    + "  (issue #25: about 19 before, ~0.8 GB for a 43 MB CSV)");
        } finally {
            watch.close();
            try (var files = Files.list(dir)) {
                files.forEach(f -> f.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }

    private static HttpResponse<String> upload(HttpClient http, TestServer server, String session, Path file) throws Exception {
        String boundary = "----bench" + System.nanoTime();
        byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + file.getFileName()
                + "\"\r\nContent-Type: text/csv\r\n\r\n").getBytes(StandardCharsets.UTF_8);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(server.base.resolve("api/upload/csv"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .header("X-Metabase-Session", session)
                .POST(HttpRequest.BodyPublishers.concat(HttpRequest.BodyPublishers.ofByteArray(head),
                        HttpRequest.BodyPublishers.ofFile(file), HttpRequest.BodyPublishers.ofByteArray(tail)))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** A CSV of about {@code mb} MB: an id, a text, a decimal, a date and a boolean per row (~64 bytes). */
    private static Path csv(Path dir, int mb) throws Exception {
        Path file = dir.resolve("bench_" + mb + "mb.csv");
        long target = mb * 1048576L;
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("id,customer,amount,day,active\n");
            long written = 0;
            for (long i = 1; written < target; i++) {
                String line = i + ",\"Customer " + (i % 9973) + ", Inc.\"," + (i % 100000) / 7.0 + ",2024-" + (1 + i % 12) + "-"
                        + (10 + i % 18) + "," + (i % 3 == 0) + "\n";
                out.write(line);
                written += line.length();
            }
        }
        return file;
    }

    private static long usedHeap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Samples the used heap every 5 ms and listens for GCs, keeping the largest values while started. */
    private static final class HeapWatch implements AutoCloseable {
        final AtomicLong maxUsed = new AtomicLong();
        final AtomicLong maxAfterGc = new AtomicLong();
        final AtomicLong collections = new AtomicLong();
        private final AtomicBoolean running = new AtomicBoolean();
        private final Thread sampler;
        private volatile boolean closed;

        HeapWatch() {
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                ((NotificationEmitter) gc).addNotificationListener((notification, handback) -> {
                    if (!running.get() || !GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                        return;
                    }
                    GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
                    long after = 0;
                    for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                        if (isHeap(pool.getKey())) {
                            after += pool.getValue().getUsed();
                        }
                    }
                    maxAfterGc.accumulateAndGet(after, Math::max);
                    collections.incrementAndGet();
                }, null, null);
            }
            sampler = new Thread(() -> {
                while (!closed) {
                    if (running.get()) {
                        maxUsed.accumulateAndGet(usedHeap(), Math::max);
                    }
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "heap-sampler");
            sampler.setDaemon(true);
            sampler.start();
        }

        private static boolean isHeap(String pool) {
            return pool.contains("Eden") || pool.contains("Survivor") || pool.contains("Old") || pool.contains("Tenured")
                    || pool.contains("Humongous");
        }

        void start() {
            maxUsed.set(0);
            maxAfterGc.set(0);
            collections.set(0);
            running.set(true);
        }

        void stop() {
            running.set(false);
        }

        @Override
        public void close() {
            closed = true;
            sampler.interrupt();
        }
    }
}
