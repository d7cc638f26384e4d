package io.quarry.notification;

import static io.quarry.notification.NotificationIT.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.boot.QuarryListener;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.Mailbox;
import io.quarry.testing.MutableClock;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Subscriptions and alerts sent on their schedule: the server runs on a clock the test drives, and
 * {@code clusterJobs.pollNow()} stands for the poll that would come (no sleeping for hours). Then two instances on one
 * PostgreSQL application database: one due send, exactly one email and one webhook call.
 */
class ScheduledSendIT {
    static final Instant MONDAY_6_UTC = Instant.parse("2026-11-23T06:00:00Z");

    static TestServer start(Map<String, String> config, MutableClock clock) {
        return TestServer.startWith(config, webapp -> webapp.setAttribute(QuarryListener.CLOCK_ATTRIBUTE, clock));
    }

    static Map<String, String> config(Mailbox mail) {
        Map<String, String> config = new LinkedHashMap<>(TestAppDb.fresh());
        config.putAll(mail.config());
        config.put("MB_HTTP_CHANNEL_HOST_STRATEGY", "allow-all");
        config.put("MB_NOTIFICATION_RETRY_BACKOFF_MS", "20");
        config.put("MB_SITE_URL", "http://quarry.example");
        config.put("MB_EMAIL_FROM_ADDRESS", "quarry@example.com");
        return config;
    }

    /** A card on the Sample Database (orders per category) and a dashboard showing it; returns {card, dashboard, dashcard}. */
    static long[] content(TestServer server, Api admin, String sampleDir) throws Exception {
        Path sample = SampleDatabase.ensure(Path.of("target", sampleDir).toAbsolutePath());
        long db = admin.post(200, "database", Map.of("engine", "h2", "name", "Sample Database", "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password", SampleDatabase.PASSWORD)))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(db).get();
        long card = admin.post(200, "card", Map.of("name", "Orders per category", "display", "bar", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", db, "type", "native", "native", Map.of("query",
                        "SELECT p.CATEGORY, COUNT(*) AS N FROM ORDERS o JOIN PRODUCTS p ON p.ID = o.PRODUCT_ID GROUP BY p.CATEGORY "
                                + "ORDER BY p.CATEGORY")))).json().get("id").asLong();
        long dashboard = admin.post(200, "dashboard", Map.of("name", "Monday numbers")).json().get("id").asLong();
        Map<String, Object> dc = new LinkedHashMap<>();
        dc.put("id", -1);
        dc.put("card_id", card);
        dc.put("row", 0);
        dc.put("col", 0);
        dc.put("size_x", 4);
        dc.put("size_y", 4);
        long dashcard = admin.put(200, "dashboard/" + dashboard, Map.of("dashcards", List.of(dc))).json()
                .get("dashcards").get(0).get("id").asLong();
        return new long[]{card, dashboard, dashcard};
    }

    static long subscription(Api admin, long[] content, long hook, String outsider) {
        return admin.post(200, "pulse", map("name", "Monday numbers", "dashboard_id", content[1],
                "cards", List.of(map("id", content[0], "include_csv", true, "include_xls", false, "dashboard_card_id", content[2])),
                "channels", List.of(
                        map("channel_type", "email", "schedule_type", "daily", "schedule_hour", 8,
                                "recipients", List.of(map("email", outsider))),
                        map("channel_type", "http", "channel_id", hook, "schedule_type", "daily", "schedule_hour", 8))))
                .json().get("id").asLong();
    }

    @Test
    void aSubscriptionAndAnAlertFireOnScheduleInTheReportTimeZone() throws Exception {
        MutableClock clock = new MutableClock(MONDAY_6_UTC);
        try (Mailbox mail = new Mailbox(); WebhookReceiver hooks = new WebhookReceiver();
             TestServer server = start(config(mail), clock)) {
            Api anonymous = server.api();
            Api admin = anonymous.as(Fixtures.setUp(anonymous));
            admin.put(204, "setting/report-timezone", Map.of("value", "Europe/Paris"));
            long[] content = content(server, admin, "scheduled-sample");
            long hook = admin.post(200, "channel", map("name", "Hook", "type", "channel/http", "details",
                    map("url", hooks.url("/daily"), "auth-method", "none"))).json().get("id").asLong();
            long pulse = subscription(admin, content, hook, "team@example.org");
            long alert = admin.post(200, "alert", map("alert_condition", "rows", "alert_first_only", true,
                    "card", map("id", content[0], "include_csv", false, "include_xls", false),
                    "channels", List.of(map("channel_type", "email", "schedule_type", "hourly",
                            "recipients", List.of(map("email", "oncall@example.org")))))).json().get("id").asLong();
            var jobs = server.quarry().clusterJobs;

            jobs.pollNow(); // first sight of the jobs: nothing in the past fires
            clock.advance(Duration.ofMinutes(59)); // 06:59 UTC = 07:59 in Paris
            jobs.pollNow();
            assertEquals(0, mail.count());
            assertEquals(0, hooks.received.size());

            clock.advance(Duration.ofMinutes(1).plusSeconds(30)); // 08:00:30 in Paris: the daily send and the hourly alert
            jobs.pollNow();
            MimeMessage[] sent = mail.await(2);
            assertEquals(2, sent.length);
            List<String> subjects = List.of(sent[0].getSubject(), sent[1].getSubject());
            assertTrue(subjects.contains("Monday numbers"), subjects.toString());
            assertTrue(subjects.contains("Alert: Orders per category has results"), subjects.toString());
            JsonNode payload = hooks.await("/daily", 1).get(0).json();
            assertEquals("dashboard_subscription", payload.get("type").asText());
            assertEquals(pulse, payload.get("dashboard_subscription_id").asLong());
            assertTrue(admin.get(200, "alert/" + alert).json().get("archived").asBoolean(), "a first-only alert is archived once sent");

            jobs.pollNow(); // the same due time is not sent twice
            clock.advance(Duration.ofHours(1));
            jobs.pollNow(); // the archived alert does not fire again, the daily pulse is not due
            Thread.sleep(300);
            assertEquals(2, mail.count());
            assertEquals(1, hooks.received.size());

            // the outsider unsubscribes: the next day's send only reaches the webhook
            String salt = server.quarry().settings.string("site-uuid-for-unsubscribing-url");
            anonymous.post(200, "pulse/unsubscribe", map("email", "team@example.org", "hash",
                    UnsubscribeHash.of(salt, "team@example.org", pulse), "pulse-id", pulse));
            clock.advance(Duration.ofDays(1));
            jobs.pollNow();
            hooks.await("/daily", 2);
            Thread.sleep(300);
            assertEquals(2, mail.count(), "no email after unsubscribing");
            assertEquals(2, hooks.to("/daily").size());

            // downtime: two days pass without a poll; coming back sends the missed due time once (within the catch-up window)
            clock.advance(Duration.ofDays(2).plusHours(1)); // Thursday 09:00:30 UTC: Wednesday's send is missed, Thursday's is 2 h late
            jobs.pollNow();
            hooks.await("/daily", 3);
            Thread.sleep(300);
            assertEquals(3, hooks.to("/daily").size(), "one catch-up send, not one per missed day");
        }
    }

    @Test
    void twoInstancesOnOnePostgresSendADueSubscriptionOnce() throws Exception {
        Assumptions.assumeTrue(TestAppDb.isPostgres(), "two instances share an application database on PostgreSQL only");
        MutableClock clockA = new MutableClock(MONDAY_6_UTC);
        MutableClock clockB = new MutableClock(MONDAY_6_UTC);
        try (Mailbox mail = new Mailbox(); WebhookReceiver hooks = new WebhookReceiver()) {
            Map<String, String> config = config(mail);
            try (TestServer a = start(config, clockA); TestServer b = start(config, clockB)) {
                Api admin = a.api().as(Fixtures.setUp(a.api()));
                admin.put(204, "setting/report-timezone", Map.of("value", "UTC"));
                long[] content = content(a, admin, "two-instance-sample");
                long hook = admin.post(200, "channel", map("name", "Hook", "type", "channel/http", "details",
                        map("url", hooks.url("/once"), "auth-method", "none"))).json().get("id").asLong();
                subscription(admin, content, hook, "both@example.org");
                a.quarry().clusterJobs.pollNow();
                b.quarry().clusterJobs.pollNow();
                clockA.advance(Duration.ofHours(2).plusSeconds(10));
                clockB.advance(Duration.ofHours(2).plusSeconds(10));
                CompletableFuture<Void> onA = CompletableFuture.runAsync(() -> a.quarry().clusterJobs.pollNow());
                CompletableFuture<Void> onB = CompletableFuture.runAsync(() -> b.quarry().clusterJobs.pollNow());
                onA.get();
                onB.get();
                mail.await(1);
                hooks.await("/once", 1);
                Thread.sleep(1000);
                a.quarry().clusterJobs.pollNow();
                b.quarry().clusterJobs.pollNow();
                assertEquals(1, mail.count(), "exactly one email across the two instances");
                assertEquals(1, hooks.to("/once").size(), "exactly one webhook call across the two instances");
            }
        }
    }

    @Test
    void whenTheInstanceHoldingASendDiesTheOtherTakesItOverOnceItsLeaseExpires() throws Exception {
        Assumptions.assumeTrue(TestAppDb.isPostgres(), "two instances share an application database on PostgreSQL only");
        MutableClock clockA = new MutableClock(MONDAY_6_UTC);
        MutableClock clockB = new MutableClock(MONDAY_6_UTC);
        try (Mailbox mail = new Mailbox(); WebhookReceiver hooks = new WebhookReceiver()) {
            Map<String, String> config = config(mail);
            config.put("MB_SCHEDULED_SEND_LEASE_SECONDS", "3");
            TestServer a = start(config, clockA);
            try (TestServer b = start(config, clockB)) {
                Api admin = a.api().as(Fixtures.setUp(a.api()));
                admin.put(204, "setting/report-timezone", Map.of("value", "UTC"));
                long[] content = content(a, admin, "takeover-sample");
                long hook = admin.post(200, "channel", map("name", "Hook", "type", "channel/http", "details",
                        map("url", hooks.url("/takeover"), "auth-method", "none"))).json().get("id").asLong();
                subscription(admin, content, hook, "watcher@example.org");
                a.quarry().clusterJobs.pollNow();
                b.quarry().clusterJobs.pollNow();
                clockA.advance(Duration.ofHours(2).plusSeconds(10));
                clockB.advance(Duration.ofHours(2).plusSeconds(10));

                // A takes the send, emails, and hangs on the webhook; then A dies
                hooks.stallNext(20_000);
                CompletableFuture.runAsync(() -> a.quarry().clusterJobs.pollNow());
                hooks.await("/takeover", 1);
                a.close();
                ensurePostgresDriver();
                b.quarry().clusterJobs.pollNow();
                assertEquals(1, hooks.to("/takeover").size(), "B leaves the send alone while A's lease holds");

                Thread.sleep(3_500);
                b.quarry().clusterJobs.pollNow();
                assertEquals(2, hooks.to("/takeover").size(), "B takes over once the lease expired");
                assertEquals("dashboard_subscription", hooks.to("/takeover").get(1).json().get("type").asText());
                mail.await(2);
                b.quarry().clusterJobs.pollNow();
                assertEquals(2, hooks.to("/takeover").size(), "and the due time is then recorded as done");
            } finally {
                a.close();
            }
        }
    }

    /** A stopped test server deregisters the JDBC drivers of the test's class loader; the other instance still needs it. */
    private static void ensurePostgresDriver() throws Exception {
        for (java.sql.Driver driver : java.util.Collections.list(java.sql.DriverManager.getDrivers())) {
            if (driver instanceof org.postgresql.Driver) {
                return;
            }
        }
        java.sql.DriverManager.registerDriver(new org.postgresql.Driver());
    }
}
