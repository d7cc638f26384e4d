package io.quarry.mcp;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The MCP sessions open now, in memory as Metabase keeps them: an {@code initialize} opens one for the signed-in user
 * and its id travels in {@code Mcp-Session-Id}; a session unused for an hour is gone. A session belongs to the user
 * who opened it: another user's id is an unknown one.
 */
public final class McpSessions {
    static final Duration IDLE = Duration.ofHours(1);
    /** Past this many open sessions, opening one first drops the expired ones. */
    private static final int PURGE_ABOVE = 1000;
    /** A user's open sessions at most: opening one more closes their least recently used. */
    static final int PER_USER = 50;

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> open = new ConcurrentHashMap<>();
    private final Clock clock;

    McpSessions(Clock clock) {
        this.clock = clock;
    }

    /** One open session: its user, the protocol version agreed, whether the client said {@code initialized}. */
    static final class Session {
        final String id;
        final long userId;
        final String protocolVersion;
        volatile boolean initialized;
        volatile Instant lastUsed;

        Session(String id, long userId, String protocolVersion, Instant now) {
            this.id = id;
            this.userId = userId;
            this.protocolVersion = protocolVersion;
            this.lastUsed = now;
        }
    }

    Session open(long userId, String protocolVersion) {
        Instant now = clock.instant();
        if (open.size() > PURGE_ABOVE) {
            open.values().removeIf(s -> expired(s, now));
        }
        List<Session> own = open.values().stream().filter(s -> s.userId == userId)
                .sorted(Comparator.comparing(s -> s.lastUsed)).toList();
        for (int i = 0; i <= own.size() - PER_USER; i++) {
            open.remove(own.get(i).id, own.get(i));
        }
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Session session = new Session(id, userId, protocolVersion, now);
        open.put(id, session);
        return session;
    }

    /** The user's live session with this id (its last use now), or null: unknown, expired or another user's. */
    Session find(String id, long userId) {
        Session session = id == null ? null : open.get(id);
        Instant now = clock.instant();
        if (session == null || session.userId != userId) {
            return null;
        }
        if (expired(session, now)) {
            open.remove(id, session);
            return null;
        }
        session.lastUsed = now;
        return session;
    }

    /** Ends the user's session; false when it was not theirs or not open. */
    boolean end(String id, long userId) {
        Session session = find(id, userId);
        return session != null && open.remove(id, session);
    }

    private static boolean expired(Session session, Instant now) {
        return session.lastUsed.plus(IDLE).isBefore(now);
    }
}
