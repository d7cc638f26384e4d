package io.quarry.qp;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The duration of every query run on a connected database, from borrowing its connection to its last row, as one
 * Prometheus histogram ({@code quarry_query_duration_seconds}) labelled by the database's id and the outcome:
 * {@code ok}, a failure's Metabase error type ({@code driver}, {@code timed-out}, {@code invalid-query}),
 * {@code refused} (the engine's statement policy), {@code client-gone} (the client left while rows were streamed) or
 * {@code error} (Quarry's fault). One timer per database and outcome, looked up in a map of this class: no meter is
 * built on the query path once a database has run a query.
 */
final class QueryMeters {
    static final String NAME = "quarry.query.duration";
    static final String OK = "ok";
    static final String REFUSED = "refused";
    static final String CLIENT_GONE = "client-gone";
    static final String ERROR = "error";
    /** Histogram buckets: a lookup answered from memory to a report that runs for minutes. */
    private static final Duration[] BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(1),
            Duration.ofMinutes(5)};

    private record Key(long databaseId, String outcome) {
    }

    private final MeterRegistry registry;
    private final Map<Long, Timer> completed = new ConcurrentHashMap<>();
    private final Map<Key, Timer> failed = new ConcurrentHashMap<>();

    QueryMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    void completed(long databaseId, long beganNanos) {
        completed.computeIfAbsent(databaseId, id -> timer(id, OK)).record(System.nanoTime() - beganNanos, TimeUnit.NANOSECONDS);
    }

    void failed(long databaseId, String outcome, long beganNanos) {
        failed.computeIfAbsent(new Key(databaseId, outcome), key -> timer(key.databaseId(), key.outcome()))
                .record(System.nanoTime() - beganNanos, TimeUnit.NANOSECONDS);
    }

    private Timer timer(long databaseId, String outcome) {
        return Timer.builder(NAME)
                .description("Queries run on connected databases, from borrowing the connection to the last row")
                .tag("database_id", Long.toString(databaseId))
                .tag("outcome", outcome)
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
    }
}
