package io.quarry.core;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * {@code OffsetDateTime.now(clock)} and {@code LocalDateTime.now(clock)} without their per-call garbage for a clock on a
 * fixed offset (Quarry's is UTC): on JDK 17 {@code ZoneOffset.getRules()} builds a new {@code ZoneRules} with its own
 * {@code ConcurrentHashMap} on every call, which the query path did several times per request. Same values.
 */
public final class Clocks {
    private Clocks() {
    }

    public static OffsetDateTime now(Clock clock) {
        if (clock.getZone() instanceof ZoneOffset offset) {
            return OffsetDateTime.of(local(clock.instant(), offset), offset);
        }
        return OffsetDateTime.now(clock);
    }

    /** The clock's time as a local date-time in UTC (as {@code LocalDateTime.now(clock.withZone(ZoneOffset.UTC))}). */
    public static LocalDateTime utcLocalNow(Clock clock) {
        return local(clock.instant(), ZoneOffset.UTC);
    }

    private static LocalDateTime local(Instant instant, ZoneOffset offset) {
        return LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), offset);
    }
}
