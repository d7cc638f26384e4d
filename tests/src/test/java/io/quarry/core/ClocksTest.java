package io.quarry.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** {@link Clocks} gives exactly what {@code OffsetDateTime.now} and {@code LocalDateTime.now} would. */
class ClocksTest {
    private static final Instant AT = Instant.parse("2026-03-29T01:30:15.123456789Z");

    @Test
    void sameAsNowOnAFixedOffset() {
        for (ZoneOffset offset : new ZoneOffset[] {ZoneOffset.UTC, ZoneOffset.ofHoursMinutes(5, 30), ZoneOffset.ofHours(-8)}) {
            Clock clock = Clock.fixed(AT, offset);
            assertEquals(OffsetDateTime.now(clock), Clocks.now(clock));
            assertEquals(LocalDateTime.now(clock.withZone(ZoneOffset.UTC)), Clocks.utcLocalNow(clock));
        }
    }

    @Test
    void sameAsNowInARegion() {
        Clock clock = Clock.fixed(AT, ZoneId.of("Europe/Berlin"));
        assertEquals(OffsetDateTime.now(clock), Clocks.now(clock));
        assertEquals(OffsetDateTime.parse("2026-03-29T03:30:15.123456789+02:00"), Clocks.now(clock));
        assertEquals(LocalDateTime.parse("2026-03-29T01:30:15.123456789"), Clocks.utcLocalNow(clock));
    }
}
