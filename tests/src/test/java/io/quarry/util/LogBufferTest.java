package io.quarry.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The buffer behind {@code GET /api/util/logs}, fed by the real logback configuration (logback.xml). */
class LogBufferTest {
    private static final Logger log = LoggerFactory.getLogger("io.quarry.test.LogBufferTest");

    @Test
    void eventsAreKeptNewestFirstInMetabasesShape() {
        LogBuffer.install(); // a no-op when logback.xml already declared the buffer
        String first = "first " + UUID.randomUUID();
        String second = "second " + UUID.randomUUID();
        log.info(first);
        log.warn(second, new IllegalStateException("boom"));
        List<Map<String, Object>> recent = LogBuffer.recent();
        Map<String, Object> newest = recent.get(0);
        assertEquals(second, newest.get("msg"));
        assertEquals("WARN", newest.get("level"));
        assertEquals("io.quarry.test.LogBufferTest", newest.get("fqns"));
        assertTrue(newest.get("timestamp").toString().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"));
        @SuppressWarnings("unchecked")
        List<String> frames = (List<String>) newest.get("exception");
        assertTrue(frames.get(0).contains("IllegalStateException: boom"), frames.get(0));
        assertTrue(frames.stream().anyMatch(f -> f.startsWith("at io.quarry.util.LogBufferTest")), frames.toString());
        assertEquals(first, recent.get(1).get("msg"));
        assertNull(recent.get(1).get("exception"));
        assertEquals(newest.get("process_uuid"), recent.get(1).get("process_uuid"));
    }

    @Test
    void onlyTheLastEventsAreKept() {
        String marker = "overflow " + UUID.randomUUID() + " #";
        // Straight to a buffer (they all share one store), not through the root logger: no console flood.
        LoggerContext context = new LoggerContext();
        LogBuffer buffer = new LogBuffer();
        buffer.setContext(context);
        buffer.start();
        ch.qos.logback.classic.Logger logger = context.getLogger("io.quarry.test.Overflow");
        for (int i = 0; i < LogBuffer.CAPACITY + 100; i++) {
            buffer.doAppend(new LoggingEvent(LogBufferTest.class.getName(), logger, Level.INFO, marker + i, null, null));
        }
        List<Map<String, Object>> recent = LogBuffer.recent();
        assertEquals(LogBuffer.CAPACITY, recent.size());
        assertEquals(marker + (LogBuffer.CAPACITY + 99), recent.get(0).get("msg"));
        assertEquals(marker + 100, recent.get(LogBuffer.CAPACITY - 1).get("msg"));
    }
}
