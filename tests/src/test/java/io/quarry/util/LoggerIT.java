package io.quarry.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Issue #30: Metabase's runtime log levels for administrators ({@code /api/logger/presets}, {@code POST} and
 * {@code DELETE /api/logger/adjustment}), and the per-request log line behind {@code MB_LOG_REQUESTS}. The embedded
 * server shares this JVM's logback, so the levels are read where Quarry set them.
 */
class LoggerIT {
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api ordinary;
    private static String session;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("MB_LOG_REQUESTS", "true"));
        anonymous = server.api();
        session = Fixtures.setUp(anonymous);
        admin = anonymous.as(session);
        ordinary = Fixtures.ordinaryCaller(anonymous, admin);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static Logger logger(String name) {
        return ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(name);
    }

    @Test
    void presetsNameQuarrysLoggers() {
        JsonNode presets = admin.get(200, "logger/presets").json();
        assertEquals("sync", presets.get(0).get("id").asText());
        assertEquals("Sync issue troubleshooting", presets.get(0).get("display_name").asText());
        assertEquals("io.quarry.sync", presets.get(0).get("loggers").get(0).get("name").asText());
        assertEquals("debug", presets.get(0).get("loggers").get(0).get("level").asText());
        ordinary.get(403, "logger/presets");
        anonymous.get(401, "logger/presets");
    }

    @Test
    void adjustmentSetsLevelsAndPutsThemBack() throws Exception {
        String name = "io.quarry.parameters";
        Level before = logger(name).getLevel();
        assertNull(before, "no level of its own in logback.xml");
        Level root = logger("io.quarry").getLevel();

        admin.post(204, "logger/adjustment", Map.of("duration", 10, "duration_unit", "minutes",
                "log_levels", Map.of(name, "debug", "io.quarry", "warn")));
        assertEquals(Level.DEBUG, logger(name).getLevel());
        assertEquals(Level.WARN, logger("io.quarry").getLevel());
        assertTrue(logger(name + ".Anything").isDebugEnabled(), "loggers below inherit it");

        // A new adjustment replaces the one running: the first one's loggers are put back first.
        admin.post(204, "logger/adjustment", Map.of("duration", 10, "duration_unit", "minutes", "log_levels", Map.of("io.quarry.sync", "trace")));
        assertNull(logger(name).getLevel());
        assertEquals(root, logger("io.quarry").getLevel());
        assertEquals(Level.TRACE, logger("io.quarry.sync").getLevel());

        admin.call("DELETE", "logger/adjustment", null);
        assertNull(logger("io.quarry.sync").getLevel());

        // It ends by itself after its duration.
        admin.post(204, "logger/adjustment", Map.of("duration", 300, "duration_unit", "milliseconds", "log_levels", Map.of(name, "trace")));
        assertEquals(Level.TRACE, logger(name).getLevel());
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (logger(name).getLevel() != null) {
            assertTrue(System.nanoTime() < deadline, "the adjustment ends after its duration");
            Thread.sleep(50);
        }
    }

    @Test
    void badAdjustmentsAre400AndChangeNothing() {
        JsonNode array = admin.post(400, "logger/adjustment", Map.of("duration", 1, "duration_unit", "hours", "log_levels", List.of("x"))).json();
        assertEquals("Log levels should be an object, array received", array.get("errors").get("_error").asText());
        assertEquals("invalid type, received: array", array.get("specific-errors").get("log_levels").get(0).asText());
        JsonNode level = admin.post(400, "logger/adjustment", Map.of("duration", 1, "duration_unit", "hours",
                "log_levels", Map.of("io.quarry.sync", "loud"))).json();
        assertTrue(level.get("errors").get("_error").asText().startsWith("The format of the provided logging configuration is incorrect."));
        assertNull(logger("io.quarry.sync").getLevel());
        admin.post(400, "logger/adjustment", Map.of("duration_unit", "hours", "log_levels", Map.of()));
        admin.post(400, "logger/adjustment", Map.of("duration", 1, "duration_unit", "fortnights", "log_levels", Map.of()));
        // MyBatis would log these statements' parameters, a database's connection details, at DEBUG.
        String guarded = "io.quarry.warehouse.WarehouseMapper.insertDatabase";
        Level kept = logger(guarded).getLevel();
        admin.post(400, "logger/adjustment", Map.of("duration", 1, "duration_unit", "hours", "log_levels", Map.of(guarded, "trace")));
        admin.post(400, "logger/adjustment", Map.of("duration", 1, "duration_unit", "hours",
                "log_levels", Map.of("io.quarry.warehouse.WarehouseMapper", "debug")));
        assertEquals(kept, logger(guarded).getLevel());
        ordinary.post(403, "logger/adjustment", Map.of("duration", 1, "duration_unit", "hours", "log_levels", Map.of("io.quarry", "trace")));
        ordinary.call("DELETE", "logger/adjustment", null);
        assertFalse(logger("io.quarry").isTraceEnabled());
        // No body, an empty form body: 400, never a 500.
        assertEquals(400, admin.call("POST", "logger/adjustment", null).status());
        assertEquals(400, admin.postForm(400, "logger/adjustment", Map.of()).status());
    }

    @Test
    void requestLineHasMethodPathStatusAndTimeOnly() throws Exception {
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger("io.quarry.web.RequestLogFilter").addAppender(lines);
        try {
            admin.call("GET", "card/987654?token=query-secret-value", null);
            String jwt = "eyJhbGciOiJIUzI1NiJ9.eyJyZXNvdXJjZSI6eyJxdWVzdGlvbiI6MX19.c2lnbmF0dXJlLXNpZ25hdHVyZQ";
            anonymous.call("GET", "embed/card/" + jwt, null);
            anonymous.call("GET", "public/card/0b9a3c5e-1f2d-4c6b-9a8e-7d6c5b4a3f21", null);
            List<String> messages = awaitLines(lines, 3);
            String card = messages.stream().filter(m -> m.contains("/api/card/")).findFirst().orElseThrow();
            assertTrue(card.matches("GET /api/card/987654 404 \\d+ ms"), card);
            String embed = messages.stream().filter(m -> m.contains("/api/embed/")).findFirst().orElseThrow();
            assertTrue(embed.matches("GET /api/embed/card/<secret> \\d{3} \\d+ ms"), embed);
            String shared = messages.stream().filter(m -> m.contains("/api/public/")).findFirst().orElseThrow();
            assertTrue(shared.matches("GET /api/public/card/<secret> 404 \\d+ ms"), shared);
            for (String message : messages) {
                assertFalse(message.contains("query-secret-value") || message.contains("eyJ") || message.contains("0b9a3c5e")
                        || message.contains(session), message);
            }
        } finally {
            logger("io.quarry.web.RequestLogFilter").detachAppender(lines);
        }
    }

    /** The line is written once the answer is complete, which may be just after the client got it. */
    private static List<String> awaitLines(ListAppender<ILoggingEvent> lines, int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (lines.list.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return List.copyOf(lines.list).stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void requestLogIsOffByDefault() throws Exception {
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger("io.quarry.web.RequestLogFilter").addAppender(lines);
        try (TestServer plain = TestServer.start()) {
            plain.api().call("GET", "session/properties", null);
            Thread.sleep(200);
            assertEquals(List.of(), lines.list.stream().map(ILoggingEvent::getFormattedMessage)
                    .filter(m -> m.contains("/api/session/properties")).toList());
        } finally {
            logger("io.quarry.web.RequestLogFilter").detachAppender(lines);
        }
    }
}
