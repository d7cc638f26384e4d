package io.quarry.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.sql.Timestamp;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Cards' view counts and last use are written off the request path, in batches: none is lost. After N concurrent
 * queries of a card its stored view count has grown by exactly N and its last use is the latest query's time, once
 * the batch is flushed and when the instance stops cleanly without a flush of its own.
 */
class CardUsageIT {
    private static final int THREADS = 8;
    private static final int PER_THREAD = 10;

    private static long card(Api admin, long databaseId) {
        return admin.post(200, "card", Map.of("name", "Counted", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", databaseId, "type", "native", "native", Map.of("query", "SELECT 1"))))
                .json().get("id").asLong();
    }

    private static long shop(Api admin) throws Exception {
        return admin.post(200, "database", Map.of("engine", "h2", "name", "Shop", "details",
                Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
    }

    /** THREADS x PER_THREAD card queries, THREADS at a time. */
    private static void runConcurrently(Api admin, long card) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < PER_THREAD; i++) {
                        admin.post(202, "card/" + card + "/query", Map.of());
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    private static long storedViews(TestServer server, long card) {
        return AppDbSql.count(server, "SELECT view_count FROM report_card WHERE id = ?", card);
    }

    private static OffsetDateTime storedLastUse(TestServer server, long card) {
        Object value = AppDbSql.value(server, "SELECT last_used_at FROM report_card WHERE id = ?", card);
        if (value instanceof OffsetDateTime odt) {
            return odt;
        }
        return ((Timestamp) value).toInstant().atOffset(java.time.ZoneOffset.UTC);
    }

    @Test
    void concurrentQueriesAreAllCountedOnceFlushedAndTheLastUseIsTheLatest() throws Exception {
        try (TestServer server = TestServer.start()) {
            Api api = server.api();
            Api admin = api.as(Fixtures.setUp(api));
            long card = card(admin, shop(admin));
            server.quarry().cards.flushUsage();
            long before = storedViews(server, card);

            runConcurrently(admin, card);
            OffsetDateTime beforeLast = OffsetDateTime.now().truncatedTo(ChronoUnit.MILLIS);
            admin.post(202, "card/" + card + "/query", Map.of());
            OffsetDateTime afterLast = OffsetDateTime.now().plus(1, ChronoUnit.MILLIS);
            int n = THREADS * PER_THREAD + 1;

            // this instance shows its own views before they are written
            JsonNode unwritten = admin.get(200, "card/" + card, "ignore_view", "true").json();
            assertEquals(before + n, unwritten.get("view_count").asLong());
            server.quarry().cards.flushUsage();
            // and the same last use as once written (the database keeps microseconds; the clock has nanoseconds)
            assertEquals(unwritten.get("last_used_at").asText(),
                    admin.get(200, "card/" + card, "ignore_view", "true").json().get("last_used_at").asText());
            assertEquals(before + n, storedViews(server, card), "every query counted, none twice");
            OffsetDateTime lastUse = storedLastUse(server, card);
            assertFalse(lastUse.isBefore(beforeLast), lastUse + " is the latest query's time, not before " + beforeLast);
            assertFalse(lastUse.isAfter(afterLast), lastUse + " is not after the last query ended " + afterLast);
            // a second flush has nothing left to add
            assertEquals(0, server.quarry().cards.flushUsage());
            assertEquals(before + n, storedViews(server, card));
        }
    }

    @Test
    void aCleanShutdownWritesTheViewsNotYetFlushed() throws Exception {
        // no periodic flush within the test: only the stop can write the views
        TestServer first = TestServer.start(Map.of("MB_USAGE_FLUSH_INTERVAL_MS", "3600000"));
        Map<String, String> config = first.config;
        long card;
        long before;
        try {
            Api api = first.api();
            Api admin = api.as(Fixtures.setUp(api));
            card = card(admin, shop(admin));
            first.quarry().cards.flushUsage();
            before = storedViews(first, card);
            runConcurrently(admin, card);
        } finally {
            first.close(); // no flush of the test's own: the stop must write them
        }
        try (TestServer second = TestServer.startWith(config)) {
            assertEquals(before + THREADS * PER_THREAD, storedViews(second, card));
            assertTrue(storedLastUse(second, card) != null);
        }
    }
}
