package io.quarry.util;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The API's requests as the servlet serves them: {@code quarry_http_requests_active} (being served now) and
 * {@code quarry_http_requests_seconds{method, status}} with {@code status} the class ({@code 2xx} ... {@code 5xx}) —
 * not the path, whose ids would make a series per object. The servlet container's own threads and queue are in
 * {@link ContainerThreadPools}, where it shows them. One timer per method and class, made once: a request costs an
 * array look-up and the timer's update.
 */
public final class RequestMeters {
    private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "other"};

    private final MeterRegistry registry;
    private final AtomicInteger active = new AtomicInteger();
    /** [method][status / 100], made on first use. */
    private final Timer[][] timers = new Timer[METHODS.length][6];

    public RequestMeters(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("quarry.http.requests.active", active, AtomicInteger::get).description("API requests being served now")
                .register(registry);
    }

    /** A request starts; the value to hand to {@link #finished}. */
    public long started() {
        active.incrementAndGet();
        return System.nanoTime();
    }

    public void finished(String method, int status, long startedNanos) {
        active.decrementAndGet();
        int m = switch (method) {
            case "GET" -> 0;
            case "POST" -> 1;
            case "PUT" -> 2;
            case "DELETE" -> 3;
            default -> 4;
        };
        int s = status >= 100 && status < 600 ? status / 100 : 5;
        Timer timer = timers[m][s];
        if (timer == null) {
            timer = Timer.builder("quarry.http.requests").description("API requests, by method and status class")
                    .tag("method", METHODS[m]).tag("status", s + "xx").register(registry);
            timers[m][s] = timer;
        }
        timer.record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
    }
}
