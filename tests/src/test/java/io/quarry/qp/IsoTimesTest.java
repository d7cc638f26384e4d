package io.quarry.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The direct ISO writer against the JDK's formatter, which it stands in for. */
class IsoTimesTest {
    private static final DateTimeFormatter ISO = DateTimeFormatter.ISO_OFFSET_DATE_TIME;

    @Test
    void writesWhatTheFormatterWrites() {
        assertEquals("2024-05-01T09:30:00Z", IsoTimes.format(OffsetDateTime.of(2024, 5, 1, 9, 30, 0, 0, ZoneOffset.UTC)));
        assertEquals("2024-05-01T09:30:00.12Z", IsoTimes.format(OffsetDateTime.of(2024, 5, 1, 9, 30, 0, 120_000_000, ZoneOffset.UTC)));
        assertEquals("0001-01-01T00:00:00.000000001Z", IsoTimes.format(OffsetDateTime.of(1, 1, 1, 0, 0, 0, 1, ZoneOffset.UTC)));
        assertEquals("9999-12-31T23:59:59.999Z", IsoTimes.format(OffsetDateTime.of(9999, 12, 31, 23, 59, 59, 999_000_000, ZoneOffset.UTC)));
    }

    @Test
    void agreesWithTheFormatterOnManyTimes() {
        SplittableRandom random = new SplittableRandom(14);
        for (int i = 0; i < 100_000; i++) {
            int nanos = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1000;
                default -> random.nextInt(1_000_000_000);
            };
            OffsetDateTime time = OffsetDateTime.of(random.nextInt(-50, 10_050), random.nextInt(1, 13), random.nextInt(1, 29),
                    random.nextInt(24), random.nextInt(60), random.nextInt(60), nanos, ZoneOffset.UTC);
            assertEquals(ISO.format(time), IsoTimes.format(time), time::toString);
        }
    }

    @Test
    void otherOffsetsKeepTheirOwn() {
        OffsetDateTime time = OffsetDateTime.of(2024, 5, 1, 9, 30, 15, 500_000_000, ZoneOffset.ofHours(2));
        assertEquals("2024-05-01T09:30:15.5+02:00", IsoTimes.format(time));
    }
}
