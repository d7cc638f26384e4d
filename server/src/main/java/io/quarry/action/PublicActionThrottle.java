package io.quarry.action;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * At most {@link #PER_SECOND} runs of one public action per second (Metabase throttles public action execution per
 * action): a sliding one-second window of start times per UUID, in this instance's memory.
 */
public final class PublicActionThrottle {
    static final int PER_SECOND = 10;
    private static final long WINDOW_MILLIS = 1000;
    private static final int MAX_KEYS = 10_000;

    private final Clock clock;
    private final Map<String, Deque<Long>> starts = new ConcurrentHashMap<>();

    public PublicActionThrottle(Clock clock) {
        this.clock = clock;
    }

    /** 0 when a run may start now (and it is counted), else the whole seconds to wait before trying again. */
    public long acquire(String uuid) {
        long now = clock.millis();
        if (starts.size() > MAX_KEYS) {
            starts.entrySet().removeIf(e -> {
                synchronized (e.getValue()) {
                    return e.getValue().isEmpty() || e.getValue().peekLast() <= now - WINDOW_MILLIS;
                }
            });
        }
        Deque<Long> window = starts.computeIfAbsent(uuid, k -> new ArrayDeque<>());
        synchronized (window) {
            while (!window.isEmpty() && window.peekFirst() <= now - WINDOW_MILLIS) {
                window.pollFirst();
            }
            if (window.size() >= PER_SECOND) {
                long waitMillis = window.peekFirst() + WINDOW_MILLIS - now;
                return Math.max(1, (waitMillis + 999) / 1000);
            }
            window.addLast(now);
            return 0;
        }
    }
}
