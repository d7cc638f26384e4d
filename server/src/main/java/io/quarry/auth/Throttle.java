package io.quarry.auth;

import io.quarry.web.error.ApiException;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Metabase's throttle: after {@code threshold} recorded attempts for one key within {@code window}, further attempts are
 * refused for 15 s × (attempts over the threshold)^1.5. Kept in memory per instance, as Metabase does.
 */
public final class Throttle {
    private final String field;
    private final int threshold;
    private final long windowMillis;
    private final Clock clock;
    private final Map<String, Deque<Long>> attempts = new ConcurrentHashMap<>();

    public Throttle(String field, int threshold, long windowMillis, Clock clock) {
        this.field = field;
        this.threshold = threshold;
        this.windowMillis = windowMillis;
        this.clock = clock;
    }

    /** Refuses (400 naming the field) when the key is throttled now. */
    public void check(String key) {
        if (key == null) {
            return;
        }
        Long wait = secondsToWait(key);
        if (wait != null) {
            throw ApiException.invalidField(field, "Too many attempts! You must wait " + wait + " seconds before trying again.");
        }
    }

    /** Seconds left before another attempt is allowed, or null when allowed now. */
    public Long secondsToWait(String key) {
        Deque<Long> recent = attempts.get(key);
        if (recent == null) {
            return null;
        }
        long now = clock.millis();
        synchronized (recent) {
            while (!recent.isEmpty() && recent.peekFirst() < now - windowMillis) {
                recent.pollFirst();
            }
            int over = recent.size() - threshold;
            if (over < 0) {
                return null;
            }
            long delayMillis = (long) (15_000 * Math.pow(over + 1, 1.5));
            long until = recent.peekLast() + delayMillis;
            return until > now ? Math.max(1, (until - now + 999) / 1000) : null;
        }
    }

    /**
     * Metabase's {@code throttle/check}: refuses when throttled, otherwise counts this attempt whatever its outcome.
     * Used where every call counts (password reset, unsubscribe), not only failures (login).
     */
    public void checkAndRecord(String key) {
        check(key);
        record(key);
    }

    public void record(String key) {
        if (key == null) {
            return;
        }
        Deque<Long> recent = attempts.computeIfAbsent(key, k -> new ArrayDeque<>());
        synchronized (recent) {
            recent.addLast(clock.millis());
        }
    }

    public void reset(String key) {
        if (key != null) {
            attempts.remove(key);
        }
    }
}
