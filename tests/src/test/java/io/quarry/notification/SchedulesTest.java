package io.quarry.notification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quarry.core.Json;
import io.quarry.web.param.Body;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Schedule fields to Quartz crons, as Metabase's {@code schedule-map->cron-string}, and their checks. */
class SchedulesTest {
    private static Schedules.Schedule read(Map<String, Object> fields, Body errors) {
        return Schedules.read(Body.of(Json.MAPPER.valueToTree(fields)), errors, "channels");
    }

    private static String cron(Object... pairs) {
        Map<String, Object> fields = new java.util.LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            fields.put((String) pairs[i], pairs[i + 1]);
        }
        Body errors = Body.of(null);
        Schedules.Schedule s = read(fields, errors);
        return s == null ? null : Schedules.cron(s);
    }

    @Test
    void cronsAsMetabaseBuildsThem() {
        assertEquals("0 0 * * * ? *", cron("schedule_type", "hourly", "schedule_hour", 5));
        assertEquals("0 0 8 * * ? *", cron("schedule_type", "daily", "schedule_hour", 8));
        assertEquals("0 0 8 ? * 2 *", cron("schedule_type", "weekly", "schedule_hour", 8, "schedule_day", "mon"));
        assertEquals("0 0 23 ? * 1 *", cron("schedule_type", "weekly", "schedule_hour", 23, "schedule_day", "sun"));
        assertEquals("0 0 6 1 * ? *", cron("schedule_type", "monthly", "schedule_hour", 6, "schedule_frame", "first"));
        assertEquals("0 0 6 15 * ? *", cron("schedule_type", "monthly", "schedule_hour", 6, "schedule_frame", "mid"));
        assertEquals("0 0 6 L * ? *", cron("schedule_type", "monthly", "schedule_hour", 6, "schedule_frame", "last"));
        assertEquals("0 0 6 ? * 2#1 *", cron("schedule_type", "monthly", "schedule_hour", 6, "schedule_frame", "first", "schedule_day", "mon"));
        assertEquals("0 0 6 ? * 6L *", cron("schedule_type", "monthly", "schedule_hour", 6, "schedule_frame", "last", "schedule_day", "fri"));
    }

    @Test
    void fieldsAreNormalisedAndInvalidOnesRefused() {
        Schedules.Schedule hourly = read(Map.of("schedule_type", "hourly", "schedule_hour", 5, "schedule_day", "mon"), Body.of(null));
        assertNull(hourly.hour());
        assertNull(hourly.day());
        Schedules.Schedule daily = read(Map.of("schedule_type", "daily", "schedule_hour", 5, "schedule_day", "mon",
                "schedule_frame", "first"), Body.of(null));
        assertNull(daily.day());
        assertNull(daily.frame());
        for (Map<String, Object> bad : java.util.List.<Map<String, Object>>of(
                Map.of("schedule_type", "daily"),
                Map.of("schedule_type", "daily", "schedule_hour", -1),
                Map.of("schedule_type", "daily", "schedule_hour", "8"),
                Map.of("schedule_type", "weekly", "schedule_hour", 8),
                Map.of("schedule_type", "monthly", "schedule_hour", 8, "schedule_frame", "mid", "schedule_day", "mon"),
                Map.of("schedule_type", "monthly", "schedule_hour", 8, "schedule_frame", "end"),
                Map.of("schedule_type", "fortnightly"))) {
            Body errors = Body.of(null);
            assertNull(read(bad, errors), bad.toString());
            assertFalse(errors.valid(), bad.toString());
        }
    }
}
