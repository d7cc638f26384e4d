package io.quarry.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.cronutils.model.time.ExecutionTime;
import io.quarry.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** When a cluster job is due: the latest cron time after the last one handled, within the catch-up window. */
class DueTimesTest {
    private static final ZoneId UTC = ZoneOffset.UTC;
    private static final Duration HOUR = Duration.ofHours(1);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T10:00:00Z"));

    @Test
    void hourlyCronIsDueOnTheHourAndOnlyOnce() {
        ExecutionTime hourly = DueTimes.parse("0 0 * * * ? *");
        Instant last = clock.instant();
        assertEquals(new DueTimes.Idle(), DueTimes.decide(hourly, UTC, last, clock.instant(), HOUR));
        clock.advance(Duration.ofMinutes(59).plusSeconds(59));
        assertEquals(new DueTimes.Idle(), DueTimes.decide(hourly, UTC, last, clock.instant(), HOUR));
        clock.advance(Duration.ofSeconds(1));
        assertEquals(new DueTimes.Run(Instant.parse("2026-11-26T11:00:00Z")), DueTimes.decide(hourly, UTC, last, clock.instant(), HOUR));
        clock.advance(Duration.ofMinutes(20));
        DueTimes.Decision late = DueTimes.decide(hourly, UTC, last, clock.instant(), HOUR);
        assertEquals(new DueTimes.Run(Instant.parse("2026-11-26T11:00:00Z")), late);
        // once 11:00 is recorded, nothing until 12:00
        last = ((DueTimes.Run) late).due();
        assertEquals(new DueTimes.Idle(), DueTimes.decide(hourly, UTC, last, clock.instant(), HOUR));
    }

    @Test
    void aFirstSeenJobDoesNotFireForThePast() {
        ExecutionTime hourly = DueTimes.parse("0 0 * * * ?");
        clock.advance(Duration.ofMinutes(30)); // 10:30, first seen: the caller records 10:30
        assertEquals(new DueTimes.Idle(), DueTimes.decide(hourly, UTC, clock.instant(), clock.instant(), HOUR));
    }

    @Test
    void onlyTheLatestMissedTimeRunsWithinTheWindow() {
        ExecutionTime hourly = DueTimes.parse("0 0 * * * ?");
        Instant last = Instant.parse("2026-11-26T11:00:00Z");
        // down from 11:00 to 13:10: 12:00 and 13:00 were missed, 13:00 is 10 minutes old
        assertEquals(new DueTimes.Run(Instant.parse("2026-11-26T13:00:00Z")),
                DueTimes.decide(hourly, UTC, last, Instant.parse("2026-11-26T13:10:00Z"), HOUR));
    }

    @Test
    void aDueTimeOlderThanTheWindowIsSkipped() {
        ExecutionTime hourly = DueTimes.parse("0 0 * * * ?");
        Instant last = Instant.parse("2026-11-26T11:00:00Z");
        Instant now = Instant.parse("2026-11-26T15:30:00Z");
        assertEquals(new DueTimes.Skip(Instant.parse("2026-11-26T15:20:00Z"), Instant.parse("2026-11-26T12:00:00Z")),
                DueTimes.decide(hourly, UTC, last, now, Duration.ofMinutes(10)));
        // after the skip is recorded, the next hour runs as usual
        assertEquals(new DueTimes.Idle(), DueTimes.decide(hourly, UTC, Instant.parse("2026-11-26T15:20:00Z"), now, Duration.ofMinutes(10)));
        assertEquals(new DueTimes.Run(Instant.parse("2026-11-26T16:00:00Z")), DueTimes.decide(hourly, UTC,
                Instant.parse("2026-11-26T15:20:00Z"), Instant.parse("2026-11-26T16:00:30Z"), Duration.ofMinutes(10)));
        // a window of zero runs only what is due exactly now
        assertEquals(new DueTimes.Run(Instant.parse("2026-11-26T16:00:00Z")),
                DueTimes.decide(hourly, UTC, last, Instant.parse("2026-11-26T16:00:00Z"), Duration.ZERO));
    }

    @Test
    void cronTimesAreReadInTheJobsZone() {
        ExecutionTime nineAm = DueTimes.parse("0 0 9 * * ?");
        ZoneId newYork = ZoneId.of("America/New_York");
        Instant last = Instant.parse("2026-11-26T10:00:00Z"); // 05:00 in New York
        assertEquals(new DueTimes.Idle(), DueTimes.decide(nineAm, newYork, last, Instant.parse("2026-11-26T13:59:59Z"), HOUR));
        assertEquals(new DueTimes.Run(Instant.parse("2026-11-26T14:00:00Z")),
                DueTimes.decide(nineAm, newYork, last, Instant.parse("2026-11-26T14:00:10Z"), HOUR));
        // in UTC the same cron fired at 09:00Z, before the last due time: nothing until tomorrow
        assertEquals(new DueTimes.Idle(), DueTimes.decide(nineAm, UTC, last, Instant.parse("2026-11-26T14:00:10Z"), HOUR));
    }

    @Test
    void weekdayCronSkipsTheWeekend() {
        ExecutionTime weekdays = DueTimes.parse("0 0 8 ? * MON-FRI");
        Instant friday = Instant.parse("2026-11-27T08:00:00Z");
        assertEquals(new DueTimes.Idle(), DueTimes.decide(weekdays, UTC, friday, Instant.parse("2026-11-29T23:00:00Z"), Duration.ofDays(3)));
        assertEquals(new DueTimes.Run(Instant.parse("2026-11-30T08:00:00Z")),
                DueTimes.decide(weekdays, UTC, friday, Instant.parse("2026-11-30T08:00:01Z"), Duration.ofDays(3)));
    }

    @Test
    void everySecondCronOverALongWindowStaysBounded() {
        ExecutionTime everySecond = DueTimes.parse("* * * * * ?");
        Instant now = Instant.parse("2026-11-26T12:00:00.500Z");
        assertEquals(new DueTimes.Run(Instant.parse("2026-11-26T12:00:00Z")),
                DueTimes.decide(everySecond, UTC, now.minus(Duration.ofMinutes(5)), now, Duration.ofMinutes(10)));
    }

    @Test
    void invalidCronIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> DueTimes.parse("every day"));
        assertThrows(IllegalArgumentException.class, () -> DueTimes.parse(" "));
        assertThrows(IllegalArgumentException.class, () -> DueTimes.parse(null));
    }
}
