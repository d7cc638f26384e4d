package io.quarry.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Schedule maps ↔ Quartz cron strings, as Metabase stores them (COMPAT §7.3). */
class SchedulesTest {
    private static Map<String, Object> schedule(Object... pairs) {
        Map<String, Object> map = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    @Test
    void mapsBecomeCronStrings() {
        assertEquals("0 0 * * * ? *", Schedules.toCron(schedule("schedule_type", "hourly")));
        assertEquals("0 17 * * * ? *", Schedules.toCron(schedule("schedule_type", "hourly", "schedule_minute", 17)));
        assertEquals("0 0 4 * * ? *", Schedules.toCron(schedule("schedule_type", "daily", "schedule_hour", 4)));
        assertEquals("0 0 23 ? * 6 *", Schedules.toCron(schedule("schedule_type", "weekly", "schedule_hour", 23, "schedule_day", "fri")));
        assertEquals("0 0 8 1 * ? *", Schedules.toCron(schedule("schedule_type", "monthly", "schedule_hour", 8, "schedule_frame", "first")));
        assertEquals("0 0 8 15 * ? *", Schedules.toCron(schedule("schedule_type", "monthly", "schedule_hour", 8, "schedule_frame", "mid")));
        assertEquals("0 0 8 L * ? *", Schedules.toCron(schedule("schedule_type", "monthly", "schedule_hour", 8, "schedule_frame", "last")));
        assertEquals("0 0 8 ? * 2#1 *", Schedules.toCron(schedule("schedule_type", "monthly", "schedule_hour", 8, "schedule_frame", "first",
                "schedule_day", "mon")));
        assertEquals("0 0 8 ? * 1L *", Schedules.toCron(schedule("schedule_type", "monthly", "schedule_hour", 8, "schedule_frame", "last",
                "schedule_day", "sun")));
    }

    @Test
    void cronStringsBecomeMapsAgain() {
        for (Map<String, Object> s : List.of(schedule("schedule_type", "hourly", "schedule_minute", 17),
                schedule("schedule_type", "daily", "schedule_hour", 4, "schedule_minute", 0),
                schedule("schedule_type", "weekly", "schedule_hour", 23, "schedule_day", "fri", "schedule_minute", 0),
                schedule("schedule_type", "monthly", "schedule_hour", 8, "schedule_frame", "mid", "schedule_minute", 0),
                schedule("schedule_type", "monthly", "schedule_hour", 8, "schedule_frame", "first", "schedule_day", "mon", "schedule_minute", 0))) {
            Map<String, Object> back = Schedules.toMap(Schedules.toCron(s));
            s.forEach((k, v) -> assertEquals(v, back.get(k), k + " of " + s));
        }
        Map<String, Object> hourly = Schedules.toMap("0 50 * * * ? *");
        assertEquals("hourly", hourly.get("schedule_type"));
        assertNull(hourly.get("schedule_hour"));
        assertNull(hourly.get("schedule_day"));
        assertNull(Schedules.toMap(null));
    }

    @Test
    void invalidMapsAreRefused() {
        for (Map<String, Object> bad : List.of(schedule(), schedule("schedule_type", "yearly"), schedule("schedule_type", "daily", "schedule_hour", 24),
                schedule("schedule_type", "daily", "schedule_hour", "4"), schedule("schedule_type", "weekly"),
                schedule("schedule_type", "weekly", "schedule_day", "monday"), schedule("schedule_type", "monthly"),
                schedule("schedule_type", "hourly", "schedule_minute", 60), schedule("schedule_type", "monthly", "schedule_frame", "middle"))) {
            assertThrows(IllegalArgumentException.class, () -> Schedules.toCron(bad), bad.toString());
        }
    }

    @Test
    void defaultsAreRandomisedAwayFromTheHour() {
        for (int i = 0; i < 200; i++) {
            Map<String, Object> hourly = Schedules.toMap(Schedules.randomHourly());
            int minute = (Integer) hourly.get("schedule_minute");
            assertTrue(minute >= 5 && minute < 55 && minute != 50, "minute " + minute);
            int hour = (Integer) Schedules.toMap(Schedules.randomDaily()).get("schedule_hour");
            assertTrue(hour >= 1 && hour <= 23, "hour " + hour);
        }
    }
}
