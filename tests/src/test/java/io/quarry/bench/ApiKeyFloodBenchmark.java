package io.quarry.bench;

import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue #25 item 5 (run {@code bench/run-apikey-flood.sh}, see bench/README.md): 24 anonymous clients sending bogus
 * {@code X-Api-Key}s of the real shape ({@code mb_} + Base64 of 32 random bytes, each new) as fast as they are answered,
 * while one signed-in client makes requests and a probe polls {@code GET /api/health}. Measured, in the same run: the
 * signed-in request's p50/p95 without the flood (the floor), with it, and their ratio; the health answers that were not
 * 200; how many bogus requests were answered and how many bcrypt checks they cost. Twice: with the per-address throttle
 * (the default) and with it off ({@code MB_DISABLE_SESSION_THROTTLE=true}), where only the bound on bcrypts in flight
 * protects the rest.
 */
public final class ApiKeyFloodBenchmark {
    private static final int CLIENTS = Integer.getInteger("clients", 24);
    private static final int SECONDS = Integer.getInteger("seconds", 15);
    private static final int FLOOR_REQUESTS = 300;
    private static final SecureRandom RANDOM = new SecureRandom();

    public static void main(String[] args) throws Exception {
        System.out.printf(Locale.ROOT, "%d anonymous clients with bogus keys for %d s; signed-in request: GET /api/user/current%n",
                CLIENTS, SECONDS);
        double throttledRatio = run("throttle on (default)", Map.of());
        double unthrottledRatio = run("throttle off (MB_DISABLE_SESSION_THROTTLE=true)", Map.of("MB_DISABLE_SESSION_THROTTLE", "true"));
        System.out.printf(Locale.ROOT, "RESULT apikey-flood: signed-in p95 during the flood / without it = %.2f (throttle on), %.2f (throttle off)%n",
                throttledRatio, unthrottledRatio);
    }

    private static double run(String label, Map<String, String> config) throws Exception {
        System.out.println();
        System.out.println("== " + label);
        try (TestServer server = TestServer.start(config)) {
            String session = Fixtures.setUp(server.api());
            HttpClient client = client();
            URI current = server.base.resolve("api/user/current");
            URI health = server.base.resolve("api/health");
            // warm-up, then the floor: the same request alone
            timed(client, current, session, 100);
            List<Long> floor = timed(client, current, session, FLOOR_REQUESTS);

            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong bogus = new AtomicLong();
            AtomicLong bogusNot401 = new AtomicLong();
            AtomicLong healthTotal = new AtomicLong();
            AtomicLong healthBad = new AtomicLong();
            List<Long> healthTimes = Collections.synchronizedList(new ArrayList<>());
            long hashesBefore = server.quarry().apiKeys.hashChecks();
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 1);
            for (int i = 0; i < CLIENTS; i++) {
                pool.submit(() -> {
                    HttpClient own = client();
                    while (!stop.get()) {
                        try {
                            HttpResponse<Void> r = own.send(HttpRequest.newBuilder(current).timeout(Duration.ofSeconds(30))
                                    .header("X-Api-Key", bogusKey()).GET().build(), HttpResponse.BodyHandlers.discarding());
                            bogus.incrementAndGet();
                            if (r.statusCode() != 401) {
                                bogusNot401.incrementAndGet();
                            }
                        } catch (Exception e) {
                            bogusNot401.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
            pool.submit(() -> {
                HttpClient own = client();
                while (!stop.get()) {
                    long t = System.nanoTime();
                    int status;
                    try {
                        status = own.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(10)).GET().build(),
                                HttpResponse.BodyHandlers.discarding()).statusCode();
                    } catch (Exception e) {
                        status = -1;
                    }
                    healthTimes.add(System.nanoTime() - t);
                    healthTotal.incrementAndGet();
                    if (status != 200) {
                        healthBad.incrementAndGet();
                    }
                    Thread.sleep(200);
                }
                return null;
            });
            Thread.sleep(2_000); // let the flood reach its pace (and the throttle its threshold)
            long floodStart = System.nanoTime();
            List<Long> during = new ArrayList<>();
            while (System.nanoTime() - floodStart < SECONDS * 1_000_000_000L) {
                during.addAll(timed(client, current, session, 10));
            }
            stop.set(true);
            pool.shutdown();
            pool.awaitTermination(60, TimeUnit.SECONDS);
            long hashes = server.quarry().apiKeys.hashChecks() - hashesBefore;

            double floorP95 = percentile(floor, 95);
            double duringP95 = percentile(during, 95);
            System.out.printf(Locale.ROOT, "Baseline signed-in request alone:   p50 %.1f ms  p95 %.1f ms  (%d requests)%n",
                    percentile(floor, 50), floorP95, floor.size());
            System.out.printf(Locale.ROOT, "Quarry   signed-in during the flood: p50 %.1f ms  p95 %.1f ms  (%d requests)%n",
                    percentile(during, 50), duringP95, during.size());
            System.out.printf(Locale.ROOT, "Health during the flood: %d of %d answers not 200; p95 %.1f ms%n",
                    healthBad.get(), healthTotal.get(), percentile(healthTimes, 95));
            System.out.printf(Locale.ROOT, "Bogus-key requests answered: %d (%d not 401), %.0f/s; bcrypt checks they cost: %d%n",
                    bogus.get(), bogusNot401.get(), bogus.get() / (SECONDS + 2.0), hashes);
            double ratio = duringP95 / floorP95;
            System.out.printf(Locale.ROOT, "Ratio signed-in p95 flood / alone: %.2f  (goal: health always 200, p95 < 1000 ms: %s)%n",
                    ratio, healthBad.get() == 0 && duringP95 < 1000 ? "met" : "NOT met");
            return ratio;
        }
    }

    private static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    }

    private static String bogusKey() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "mb_" + Base64.getEncoder().encodeToString(bytes);
    }

    /** Wall times (ns) of {@code n} signed-in requests, one after another; each must answer 200. */
    private static List<Long> timed(HttpClient client, URI uri, String session, int n) throws Exception {
        List<Long> times = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            HttpResponse<Void> r = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                    .header("X-Metabase-Session", session).GET().build(), HttpResponse.BodyHandlers.discarding());
            times.add(System.nanoTime() - t);
            if (r.statusCode() != 200) {
                throw new IllegalStateException("signed-in request answered " + r.statusCode());
            }
        }
        return times;
    }

    /** The percentile in milliseconds. */
    private static double percentile(List<Long> nanos, int p) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int index = Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1);
        return sorted.get(Math.max(0, index)) / 1e6;
    }
}
