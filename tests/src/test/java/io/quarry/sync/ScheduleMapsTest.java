package io.quarry.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Schedule maps ↔ Quartz cron strings (COMPAT §7.3) and the next fire times of cron strings. */
class ScheduleMapsTest {
    private static Map<String, Object> map(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }

    @Test
    void scheduleMapsBecomeMetabasesCronStrings() {
        assertEquals("0 0 * * * ? *", ScheduleMaps.toCron(map("schedule_type", "hourly")));
        assertEquals("0 50 * * * ? *", ScheduleMaps.toCron(map("schedule_type", "hourly", "schedule_minute", 50)));
        assertEquals("0 0 * * * ? *", ScheduleMaps.toCron(map("schedule_type", "hourly", "schedule_hour", 5)),
                "hourly ignores the hour");
        assertEquals("0 0 4 * * ? *", ScheduleMaps.toCron(map("schedule_type", "daily", "schedule_hour", 4)));
        assertEquals("0 0 0 * * ? *", ScheduleMaps.toCron(map("schedule_type", "daily", "schedule_hour", null)));
        assertEquals("0 0 9 ? * 2 *", ScheduleMaps.toCron(map("schedule_type", "weekly", "schedule_day", "mon", "schedule_hour", 9)));
        assertEquals("0 0 9 ? * 1 *", ScheduleMaps.toCron(map("schedule_type", "weekly", "schedule_day", "sun", "schedule_hour", 9)));
        assertEquals("0 0 23 ? * 7 *", ScheduleMaps.toCron(map("schedule_type", "weekly", "schedule_day", "sat", "schedule_hour", 23)));
        assertEquals("0 0 3 1 * ? *", ScheduleMaps.toCron(map("schedule_type", "monthly", "schedule_frame", "first", "schedule_hour", 3)));
        assertEquals("0 0 3 15 * ? *", ScheduleMaps.toCron(map("schedule_type", "monthly", "schedule_frame", "mid", "schedule_hour", 3)));
        assertEquals("0 0 3 L * ? *", ScheduleMaps.toCron(map("schedule_type", "monthly", "schedule_frame", "last", "schedule_hour", 3)));
        assertEquals("0 0 3 ? * 6#1 *", ScheduleMaps.toCron(map("schedule_type", "monthly", "schedule_frame", "first",
                "schedule_day", "fri", "schedule_hour", 3)));
        assertEquals("0 0 3 ? * 6L *", ScheduleMaps.toCron(map("schedule_type", "monthly", "schedule_frame", "last",
                "schedule_day", "fri", "schedule_hour", 3)));
        for (String cron : new String[]{"0 50 * * * ? *", "0 0 9 ? * 2 *", "0 0 3 L * ? *", "0 0 3 ? * 6#1 *"}) {
            assertTrue(Cron.isValid(cron), cron);
        }
    }

    @Test
    void cronStringsExpandToTheMapsTheFrontendShows() {
        assertEquals(map("schedule_minute", 50, "schedule_day", null, "schedule_frame", null, "schedule_hour", null,
                "schedule_type", "hourly"), ScheduleMaps.expand("0 50 * * * ? *"));
        assertEquals(map("schedule_minute", 0, "schedule_day", null, "schedule_frame", null, "schedule_hour", 4,
                "schedule_type", "daily"), ScheduleMaps.expand("0 0 4 * * ? *"));
        assertEquals(map("schedule_minute", 0, "schedule_day", "mon", "schedule_frame", null, "schedule_hour", 9,
                "schedule_type", "weekly"), ScheduleMaps.expand("0 0 9 ? * 2 *"));
        assertEquals(map("schedule_minute", 0, "schedule_day", null, "schedule_frame", "mid", "schedule_hour", 3,
                "schedule_type", "monthly"), ScheduleMaps.expand("0 0 3 15 * ? *"));
        assertEquals(map("schedule_minute", 0, "schedule_day", "fri", "schedule_frame", "last", "schedule_hour", 3,
                "schedule_type", "monthly"), ScheduleMaps.expand("0 0 3 ? * 6L *"));
        // every map survives the round trip
        String[][] maps = {{"hourly", null, null}, {"daily", null, null}, {"weekly", "tue", null}, {"monthly", null, "first"},
            {"monthly", null, "last"}, {"monthly", "wed", "first"}, {"monthly", "thu", "last"}};
        for (String[] m : maps) {
            Map<String, Object> schedule = new HashMap<>();
            schedule.put("schedule_type", m[0]);
            schedule.put("schedule_day", m[1]);
            schedule.put("schedule_frame", m[2]);
            schedule.put("schedule_hour", m[0].equals("hourly") ? null : 7);
            schedule.put("schedule_minute", m[0].equals("hourly") ? 15 : 0);
            Map<String, Object> back = ScheduleMaps.expand(ScheduleMaps.toCron(schedule));
            assertEquals(schedule, new HashMap<>(back), String.valueOf(schedule));
        }
    }

    @Test
    void badScheduleMapsAreRefusedByName() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ScheduleMaps.toCron(map("schedule_type", "yearly")))
                .getMessage().startsWith("schedule_type"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ScheduleMaps.toCron(map("schedule_type", "daily",
                "schedule_hour", 24))).getMessage().startsWith("schedule_hour"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ScheduleMaps.toCron(map("schedule_type", "hourly",
                "schedule_minute", -1))).getMessage().startsWith("schedule_minute"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ScheduleMaps.toCron(map("schedule_type", "weekly",
                "schedule_day", "someday", "schedule_hour", 1))).getMessage().startsWith("schedule_day"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ScheduleMaps.toCron(map("schedule_type", "weekly")))
                .getMessage().startsWith("schedule_day"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ScheduleMaps.toCron(map("schedule_type", "monthly")))
                .getMessage().startsWith("schedule_frame"));
        assertThrows(IllegalArgumentException.class, () -> ScheduleMaps.toCron(map("schedule_type", "monthly",
                "schedule_frame", "mid", "schedule_day", "mon")));
        assertThrows(IllegalArgumentException.class, () -> ScheduleMaps.toCron(map("schedule_type", "daily",
                "schedule_hour", "4")));
        assertThrows(IllegalArgumentException.class, () -> ScheduleMaps.toCron(null));
    }

    @Test
    void nextFireTimesFollowQuartzRules() {
        ZonedDateTime t = ZonedDateTime.of(2026, 11, 21, 10, 20, 30, 0, ZoneOffset.UTC); // a Saturday
        assertEquals(t.withMinute(50).withSecond(0), Cron.parse("0 50 * * * ? *").nextAfter(t).orElseThrow());
        assertEquals(t.withHour(11).withMinute(50).withSecond(0),
                Cron.parse("0 50 * * * ? *").nextAfter(t.withMinute(50).withSecond(0)).orElseThrow(), "strictly after");
        assertEquals(t.withSecond(33), Cron.parse("*/3 * * * * ? *").nextAfter(t).orElseThrow(), "seconds are supported");
        assertEquals(t.withSecond(32), Cron.parse("0/2 * * * * ?").nextAfter(t).orElseThrow(), "the year is optional");
        assertEquals(ZonedDateTime.of(2026, 11, 22, 4, 0, 0, 0, ZoneOffset.UTC), Cron.parse("0 0 4 * * ? *").nextAfter(t).orElseThrow());
        assertEquals(ZonedDateTime.of(2026, 11, 23, 9, 0, 0, 0, ZoneOffset.UTC), Cron.parse("0 0 9 ? * 2 *").nextAfter(t).orElseThrow(),
                "weekly on Monday (2)");
        assertEquals(ZonedDateTime.of(2026, 11, 30, 3, 0, 0, 0, ZoneOffset.UTC), Cron.parse("0 0 3 L * ? *").nextAfter(t).orElseThrow(),
                "last day of the month");
        assertEquals(ZonedDateTime.of(2026, 12, 4, 3, 0, 0, 0, ZoneOffset.UTC), Cron.parse("0 0 3 ? * 6#1 *").nextAfter(t).orElseThrow(),
                "first Friday");
        assertEquals(ZonedDateTime.of(2026, 11, 27, 3, 0, 0, 0, ZoneOffset.UTC), Cron.parse("0 0 3 ? * 6L *").nextAfter(t).orElseThrow(),
                "last Friday");
        assertTrue(Cron.parse("0 0 0 1 1 ? 2020").nextAfter(t).isEmpty(), "a cron in the past never fires");
    }

    @Test
    void invalidCronStringsAreRecognised() {
        for (String bad : new String[]{null, "", "   ", "* * * * *x", "0 61 * * * ? *", "0 0 25 * * ? *", "not a cron", "0 0 0 * * * *"}) {
            assertFalse(Cron.isValid(bad), String.valueOf(bad));
        }
        assertThrows(IllegalArgumentException.class, () -> Cron.parse("0 61 * * * ? *"));
    }
}
