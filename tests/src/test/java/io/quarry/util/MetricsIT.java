package io.quarry.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.Mailbox;
import io.quarry.testing.PrometheusText;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The metrics, scraped as Prometheus scrapes them: {@code GET /api/metrics} (on with {@code MB_PROMETHEUS_API_ENABLED},
 * administrators only) and the separate listener of {@code MB_PROMETHEUS_SERVER_PORT}; the series move as queries,
 * failed queries, syncs and e-mails happen.
 */
class MetricsIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";
    private static final long ADMINISTRATORS = 2;
    private static final long ALL_USERS = 1;

    private static Mailbox mailbox;
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api ordinary;
    private static long databaseId;

    @BeforeAll
    static void start() {
        mailbox = new Mailbox();
        Map<String, String> config = new java.util.LinkedHashMap<>(mailbox.config());
        config.put("MB_PROMETHEUS_API_ENABLED", "true");
        config.put("MB_PROMETHEUS_SERVER_PORT", "0");
        server = TestServer.start(config);
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        ordinary = Fixtures.ordinaryCaller(anonymous, admin);
        databaseId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", TargetDatabases.h2Details(TargetDatabases.h2Shop()))).json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (mailbox != null) {
            mailbox.close();
        }
    }

    private static String scrape() {
        Api.Res res = admin.get(200, "metrics");
        String type = res.header("Content-Type").replace(" ", "");
        assertTrue(type.startsWith("text/plain;") && type.contains("version=0.0.4"), type);
        return res.body();
    }

    private static Map<String, Object> nativeQuery(String sql) {
        return Map.of("database", databaseId, "type", "native", "native", Map.of("query", sql));
    }

    private static Map<String, String> query(String outcome) {
        return Map.of("database_id", String.valueOf(databaseId), "outcome", outcome);
    }

    @Test
    void onlyAdministratorsScrapeTheApiPath() {
        assertEquals("Unauthenticated", anonymous.get(401, "metrics").body());
        assertEquals(FORBIDDEN, ordinary.get(403, "metrics").body());
        String userKey = admin.post(200, "api-key", Map.of("name", "Scraper of all users", "group_id", ALL_USERS)).json()
                .get("unmasked_key").asText();
        assertEquals(FORBIDDEN, anonymous.withApiKey(userKey).get(403, "metrics").body());
        // Prometheus sends an administrators' API key as a header
        String adminKey = admin.post(200, "api-key", Map.of("name", "Scraper", "group_id", ADMINISTRATORS)).json()
                .get("unmasked_key").asText();
        String text = anonymous.withApiKey(adminKey).get(200, "metrics").body();
        assertTrue(PrometheusText.declares(text, "jvm_memory_used_bytes"), text);
    }

    @Test
    void theApiPathIsOffUnlessTurnedOn() {
        try (TestServer plain = TestServer.start()) {
            Api plainAdmin = plain.api().as(Fixtures.setUp(plain.api()));
            plainAdmin.get(404, "metrics");
            assertEquals(-1, plain.quarry().prometheusPort(), "no listener without MB_PROMETHEUS_SERVER_PORT");
        }
    }

    @Test
    void queriesAreTimedByDatabaseAndOutcome() {
        String before = scrape();
        double ok = PrometheusText.count(before, "quarry_query_duration_seconds_count", query("ok"));
        double failed = PrometheusText.count(before, "quarry_query_duration_seconds_count", query("driver"));

        assertEquals(1, admin.post(202, "dataset", nativeQuery("SELECT 1")).json().get("data").get("rows").get(0).get(0).asInt());
        String afterOk = scrape();
        assertEquals(ok + 1, PrometheusText.count(afterOk, "quarry_query_duration_seconds_count", query("ok")));
        assertEquals(failed, PrometheusText.count(afterOk, "quarry_query_duration_seconds_count", query("driver")));
        assertTrue(PrometheusText.value(afterOk, "quarry_query_duration_seconds_sum", query("ok")) > 0);
        Map<String, String> infBucket = new java.util.HashMap<>(query("ok"));
        infBucket.put("le", "+Inf");
        assertEquals(ok + 1, PrometheusText.value(afterOk, "quarry_query_duration_seconds_bucket", infBucket));

        Api.Res refused = admin.call("POST", "dataset", nativeQuery("SELECT * FROM NO_SUCH_TABLE"));
        assertEquals("failed", refused.json().get("status").asText(), refused.body());
        String afterFailure = scrape();
        assertEquals(failed + 1, PrometheusText.count(afterFailure, "quarry_query_duration_seconds_count", query("driver")));
        assertEquals(ok + 1, PrometheusText.count(afterFailure, "quarry_query_duration_seconds_count", query("ok")));

        // the warehouse pool the queries used, under Metabase's names, beside the application database's
        String pool = "db-" + databaseId;
        assertTrue(PrometheusText.value(afterFailure, "c3p0_num_connections", Map.of("database", pool)) >= 1, afterFailure);
        assertEquals(0, PrometheusText.value(afterFailure, "c3p0_num_busy_connections", Map.of("database", pool)));
        assertEquals(15, PrometheusText.value(afterFailure, "c3p0_max_pool_size", Map.of("database", pool)));
        assertEquals(0, PrometheusText.value(afterFailure, "c3p0_num_threads_awaiting_checkout_default_user", Map.of("database", pool)));
        assertTrue(PrometheusText.value(afterFailure, "quarry_pool_borrowed_connections", Map.of("database", pool)) >= 2);
        assertTrue(PrometheusText.value(afterFailure, "c3p0_num_connections", Map.of("database", "app-db")) >= 1);
        assertFalse(Double.isNaN(PrometheusText.value(afterFailure, "quarry_pool_borrow_wait_max_milliseconds", Map.of("database", "app-db"))));
    }

    @Test
    void syncRunsAndStepsAreTimed() {
        Map<String, String> run = Map.of("database_id", String.valueOf(databaseId), "outcome", "ok");
        Map<String, String> metadata = Map.of("database_id", String.valueOf(databaseId), "step", "sync-metadata", "outcome", "ok");
        // The database's first sync may still be running: its end would count a run without a new step, and a sync
        // asked for meanwhile may be folded into it. Start from a quiet database, both baselines from one scrape.
        long quiet = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!"complete".equals(admin.get(200, "database/" + databaseId).json().path("initial_sync_status").asText())
                && System.nanoTime() < quiet) {
            sleep(100);
        }
        String before = scrape();
        double runs = PrometheusText.count(before, "quarry_sync_duration_seconds_count", run);
        double steps = PrometheusText.count(before, "quarry_sync_step_duration_seconds_count", metadata);
        assertEquals("{\"status\":\"ok\"}", admin.post(200, "database/" + databaseId + "/sync_schema", null).body());
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String text = scrape();
        while ((PrometheusText.count(text, "quarry_sync_duration_seconds_count", run) <= runs
                || PrometheusText.count(text, "quarry_sync_step_duration_seconds_count", metadata) <= steps) && System.nanoTime() < deadline) {
            sleep(100);
            text = scrape();
        }
        assertTrue(PrometheusText.count(text, "quarry_sync_duration_seconds_count", run) > runs, "a sync run was recorded");
        assertTrue(PrometheusText.count(text, "quarry_sync_step_duration_seconds_count", metadata) > steps);
        assertTrue(PrometheusText.value(text, "quarry_sync_step_duration_seconds_sum", metadata) > 0);
    }

    @Test
    void jvmSchedulerAndCacheSeriesAreThere() {
        String text = scrape();
        assertTrue(PrometheusText.value(text, "jvm_memory_used_bytes", Map.of("area", "heap")) > 0);
        assertTrue(PrometheusText.value(text, "jvm_threads_live_threads", Map.of()) > 0);
        assertTrue(PrometheusText.declares(text, "jvm_gc_memory_allocated_bytes_total"), "GC series");
        assertTrue(PrometheusText.value(text, "process_uptime_seconds", Map.of()) > 0);
        assertEquals(4, PrometheusText.value(text, "executor_pool_core_threads", Map.of("name", "quarry-scheduler")));
        assertFalse(Double.isNaN(PrometheusText.value(text, "quarry_query_cache_total", Map.of("result", "hit"))));
        assertFalse(Double.isNaN(PrometheusText.value(text, "quarry_query_cache_total", Map.of("result", "miss"))));
        assertFalse(Double.isNaN(PrometheusText.value(text, "metabase_email_message_errors_total", Map.of())));
        // the scrape itself is being served as it reads the gauge; the set-up's requests were answered
        assertTrue(PrometheusText.value(text, "quarry_http_requests_active", Map.of()) >= 1, text);
        assertTrue(PrometheusText.count(text, "quarry_http_requests_seconds_count", Map.of("method", "POST", "status", "2xx")) >= 2);
        double refused = PrometheusText.count(text, "quarry_http_requests_seconds_count", Map.of("method", "GET", "status", "4xx"));
        ordinary.get(403, "metrics");
        assertEquals(refused + 1, PrometheusText.count(scrape(), "quarry_http_requests_seconds_count",
                Map.of("method", "GET", "status", "4xx")));
    }

    @Test
    void emailsSentAreCounted() {
        double sent = PrometheusText.count(scrape(), "metabase_email_messages_total", Map.of());
        int received = mailbox.count();
        admin.post(200, "email/test", Map.of());
        mailbox.await(received + 1);
        assertEquals(sent + 1, PrometheusText.count(scrape(), "metabase_email_messages_total", Map.of()));
    }

    @Test
    void subscriptionSendsAreCountedUnderMetabasesNames() {
        Map<String, Object> card = new java.util.LinkedHashMap<>();
        card.put("name", "Order count");
        card.put("display", "scalar");
        card.put("visualization_settings", Map.of());
        card.put("dataset_query", nativeQuery("SELECT COUNT(*) AS N FROM ORDERS"));
        long cardId = admin.post(200, "card", card).json().get("id").asLong();
        Map<String, String> subscription = Map.of("payload_type", "notification/dashboard");
        Map<String, String> email = Map.of("payload_type", "notification/dashboard", "channel_type", "channel/email");
        String before = scrape();
        double sends = PrometheusText.count(before, "metabase_notification_send_ok_total", subscription);
        double channels = PrometheusText.count(before, "metabase_notification_channel_send_ok_total", email);
        double durations = PrometheusText.count(before, "metabase_notification_send_duration_ms_count", subscription);
        int received = mailbox.count();
        Map<String, Object> channel = new java.util.LinkedHashMap<>();
        channel.put("channel_type", "email");
        channel.put("enabled", true);
        channel.put("schedule_type", "daily");
        channel.put("schedule_hour", 8);
        channel.put("recipients", java.util.List.of(Map.of("email", "ops@example.org")));
        channel.put("details", Map.of());
        Map<String, Object> pulse = Map.of("name", "Counted", "skip_if_empty", false,
                "cards", java.util.List.of(Map.of("id", cardId, "include_csv", false, "include_xls", false)),
                "channels", java.util.List.of(channel));
        assertTrue(admin.post(200, "pulse/test", pulse).json().get("ok").asBoolean());
        mailbox.await(received + 1);
        String after = scrape();
        assertEquals(sends + 1, PrometheusText.count(after, "metabase_notification_send_ok_total", subscription));
        assertEquals(channels + 1, PrometheusText.count(after, "metabase_notification_channel_send_ok_total", email));
        assertEquals(durations + 1, PrometheusText.count(after, "metabase_notification_send_duration_ms_count", subscription));
        assertTrue(PrometheusText.count(after, "metabase_notification_send_duration_ms_sum", subscription) > 0);
    }

    @Test
    void theSeparateListenerServesTheSameSeries() throws Exception {
        int port = server.quarry().prometheusPort();
        assertTrue(port > 0);
        HttpClient client = HttpClient.newHttpClient();
        HttpResponse<String> metrics = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", metrics.headers().firstValue("Content-Type").orElse(""));
        assertTrue(PrometheusText.value(metrics.body(), "c3p0_max_pool_size", Map.of("database", "app-db")) > 0, metrics.body());
        assertTrue(PrometheusText.declares(metrics.body(), "quarry_query_cache_total"));
        HttpResponse<String> other = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, other.statusCode());
        HttpResponse<String> post = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
