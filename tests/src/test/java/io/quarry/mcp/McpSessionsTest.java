package io.quarry.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MCP sessions: their user's alone, gone after an hour unused, a bounded number per user. */
class McpSessionsTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final McpSessions sessions = new McpSessions(clock);

    @Test
    void aSessionIsItsUsersAndLivesAnHourUnused() {
        McpSessions.Session s = sessions.open(7, "2025-03-26");
        assertNotNull(sessions.find(s.id, 7));
        assertNull(sessions.find(s.id, 8), "another user's id is unknown to them");
        clock.advance(Duration.ofMinutes(59));
        assertNotNull(sessions.find(s.id, 7), "used: its hour starts again");
        clock.advance(Duration.ofMinutes(59));
        assertNotNull(sessions.find(s.id, 7));
        clock.advance(Duration.ofMinutes(61));
        assertNull(sessions.find(s.id, 7), "an hour unused ends it");
        assertFalse(sessions.end(s.id, 7));
    }

    @Test
    void endingASessionForgetsIt() {
        McpSessions.Session s = sessions.open(7, "2025-03-26");
        assertFalse(sessions.end(s.id, 8), "another user cannot end it");
        assertTrue(sessions.end(s.id, 7));
        assertNull(sessions.find(s.id, 7));
    }

    @Test
    void aUserHoldsABoundedNumberOfSessions() {
        List<McpSessions.Session> opened = new ArrayList<>();
        for (int i = 0; i < McpSessions.PER_USER + 5; i++) {
            opened.add(sessions.open(7, "2025-03-26"));
            clock.advance(Duration.ofSeconds(1));
        }
        McpSessions.Session other = sessions.open(8, "2025-03-26");
        int live = 0;
        for (McpSessions.Session s : opened) {
            live += sessions.find(s.id, 7) != null ? 1 : 0;
        }
        assertEquals(McpSessions.PER_USER, live);
        assertNull(sessions.find(opened.get(0).id, 7), "the least recently used went first");
        assertNotNull(sessions.find(opened.get(opened.size() - 1).id, 7));
        assertNotNull(sessions.find(other.id, 8), "other users keep theirs");
    }
}
