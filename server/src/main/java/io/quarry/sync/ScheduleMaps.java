package io.quarry.sync;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Metabase's schedule maps ({@code {"schedule_type": "daily", "schedule_hour": 4, ...}}, the {@code schedules} of a
 * database in the API) and the Quartz cron strings they are stored as.
 *
 * <ul>
 *   <li>hourly → {@code 0 M * * * ? *} (M = schedule_minute, default 0)</li>
 *   <li>daily → {@code 0 0 H * * ? *} (H = schedule_hour, default 0)</li>
 *   <li>weekly → {@code 0 0 H ? * D *} (D = 1 for sun … 7 for sat)</li>
 *   <li>monthly → day of month {@code 1}, {@code 15} or {@code L} for the first/mid/last frame, or with a day
 *       {@code D#1} (first) / {@code DL} (last)</li>
 * </ul>
 * Reading a cron string back gives the map the frontend shows ({@link #expand}).
 */
public final class ScheduleMaps {
    public static final List<String> TYPES = List.of("hourly", "daily", "weekly", "monthly");
    public static final List<String> DAYS = List.of("sun", "mon", "tue", "wed", "thu", "fri", "sat");
    public static final List<String> FRAMES = List.of("first", "mid", "last");

    private static final Pattern FIRST_WEEKDAY = Pattern.compile("^(\\d)#1$");
    private static final Pattern LAST_WEEKDAY = Pattern.compile("^(\\d)L$");
    private static final Pattern LEADING_DIGIT = Pattern.compile("^(\\d).*$");

    private ScheduleMaps() {
    }

    /**
     * The Quartz cron string of a schedule map. {@link IllegalArgumentException} with a message naming the bad key when
     * the map is not a valid schedule map.
     */
    public static String toCron(Map<String, ?> schedule) {
        if (schedule == null) {
            throw new IllegalArgumentException("value must be a valid schedule map.");
        }
        String type = text(schedule.get("schedule_type"));
        if (type == null || !TYPES.contains(type)) {
            throw new IllegalArgumentException("schedule_type must be one of hourly, daily, weekly, monthly.");
        }
        Integer minute = integer(schedule.get("schedule_minute"), 0, 59, "schedule_minute");
        Integer hour = integer(schedule.get("schedule_hour"), 0, 23, "schedule_hour");
        String day = text(schedule.get("schedule_day"));
        if (day != null && !DAYS.contains(day)) {
            throw new IllegalArgumentException("schedule_day must be one of sun, mon, tue, wed, thu, fri, sat.");
        }
        String frame = text(schedule.get("schedule_frame"));
        if (frame != null && !FRAMES.contains(frame)) {
            throw new IllegalArgumentException("schedule_frame must be one of first, mid, last.");
        }
        String hours = hour == null ? "*" : hour.toString();
        return switch (type) {
            case "hourly" -> cron(minute == null ? "0" : minute.toString(), "*", "*", "?");
            case "daily" -> cron("0", hour == null ? "0" : hour.toString(), "*", "?");
            case "weekly" -> {
                if (day == null) {
                    throw new IllegalArgumentException("schedule_day is required for a weekly schedule.");
                }
                yield cron("0", hours, "?", String.valueOf(DAYS.indexOf(day) + 1));
            }
            default -> {
                if (frame == null) {
                    throw new IllegalArgumentException("schedule_frame is required for a monthly schedule.");
                }
                if (day != null) {
                    int d = DAYS.indexOf(day) + 1;
                    yield switch (frame) {
                        case "first" -> cron("0", hours, "?", d + "#1");
                        case "last" -> cron("0", hours, "?", d + "L");
                        default -> throw new IllegalArgumentException(
                                "schedule_frame mid cannot be combined with schedule_day.");
                    };
                }
                yield cron("0", hours, switch (frame) {
                    case "first" -> "1";
                    case "mid" -> "15";
                    default -> "L";
                }, "?");
            }
        };
    }

    /**
     * The schedule map of a cron string, as Metabase expands it for the frontend: {@code schedule_minute},
     * {@code schedule_day}, {@code schedule_frame}, {@code schedule_hour}, {@code schedule_type}.
     */
    public static Map<String, Object> expand(String cron) {
        String[] parts = cron.trim().split("\\s+");
        if (parts.length < 6) {
            throw new IllegalArgumentException("Invalid Quartz cron expression '" + cron + "'.");
        }
        String minutes = parts[1];
        String hours = parts[2];
        String dayOfMonth = parts[3];
        String dayOfWeek = parts[5];
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("schedule_minute", digit(minutes));
        map.put("schedule_day", dayOfWeek(dayOfWeek));
        map.put("schedule_frame", frame(dayOfWeek, dayOfMonth));
        map.put("schedule_hour", digit(hours));
        map.put("schedule_type", type(hours, dayOfMonth, dayOfWeek));
        return map;
    }

    private static String cron(String minutes, String hours, String dayOfMonth, String dayOfWeek) {
        return "0 " + minutes + " " + hours + " " + dayOfMonth + " * " + dayOfWeek + " *";
    }

    private static String type(String hours, String dayOfMonth, String dayOfWeek) {
        if (!"*".equals(dayOfMonth) && ("?".equals(dayOfWeek) || FIRST_WEEKDAY.matcher(dayOfWeek).matches()
                || LAST_WEEKDAY.matcher(dayOfWeek).matches())) {
            return "monthly";
        }
        if (!"?".equals(dayOfWeek)) {
            return "weekly";
        }
        if (!"*".equals(hours)) {
            return "daily";
        }
        return "hourly";
    }

    private static String frame(String dayOfWeek, String dayOfMonth) {
        if (FIRST_WEEKDAY.matcher(dayOfWeek).matches()) {
            return "first";
        }
        if (LAST_WEEKDAY.matcher(dayOfWeek).matches()) {
            return "last";
        }
        return switch (dayOfMonth) {
            case "1" -> "first";
            case "15" -> "mid";
            case "L" -> "last";
            default -> null;
        };
    }

    private static String dayOfWeek(String dayOfWeek) {
        Matcher m = LEADING_DIGIT.matcher(dayOfWeek);
        if (!m.matches()) {
            return null;
        }
        int d = Integer.parseInt(m.group(1));
        return d >= 1 && d <= 7 ? DAYS.get(d - 1) : null;
    }

    private static Integer digit(String field) {
        if (field == null || !field.matches("\\d{1,2}")) {
            return null;
        }
        return Integer.parseInt(field);
    }

    private static String text(Object value) {
        return value == null ? null : value.toString().trim().toLowerCase(Locale.ROOT);
    }

    private static Integer integer(Object value, int min, int max, String key) {
        if (value == null) {
            return null;
        }
        long n;
        if (value instanceof Number number && number.doubleValue() == Math.rint(number.doubleValue())) {
            n = number.longValue();
        } else {
            throw new IllegalArgumentException(key + " must be an integer between " + min + " and " + max + ".");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(key + " must be an integer between " + min + " and " + max + ".");
        }
        return (int) n;
    }
}
