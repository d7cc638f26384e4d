package io.quarry.warehouse;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Metabase's schedule maps ({@code {"schedule_type": "daily", "schedule_hour": 4, ...}}) and the Quartz cron strings
 * stored for them ({@code "0 0 4 * * ? *"}), both ways. Only the conversion lives here; running schedules does not.
 */
public final class Schedules {
    /** Metabase's message for a bad {@code schedules} value. */
    public static final String INVALID = "value must be a valid map of schedule maps for a DB.";
    private static final List<String> DAYS = List.of("sun", "mon", "tue", "wed", "thu", "fri", "sat");
    private static final List<String> TYPES = List.of("hourly", "daily", "weekly", "monthly");
    private static final List<String> FRAMES = List.of("first", "mid", "last");

    private Schedules() {
    }

    /** A schedule map as a Quartz cron string; IllegalArgumentException when the map is not a valid schedule. */
    public static String toCron(Map<String, Object> schedule) {
        if (schedule == null) {
            throw new IllegalArgumentException("no schedule");
        }
        Object type = schedule.get("schedule_type");
        if (!(type instanceof String) || !TYPES.contains(type)) {
            throw new IllegalArgumentException("schedule_type");
        }
        int minute = number(schedule.get("schedule_minute"), 0, 59, 0);
        int hour = number(schedule.get("schedule_hour"), 0, 23, 0);
        String day = oneOf(schedule.get("schedule_day"), DAYS);
        String frame = oneOf(schedule.get("schedule_frame"), FRAMES);
        return switch ((String) type) {
            case "hourly" -> "0 " + minute + " * * * ? *";
            case "daily" -> "0 " + minute + " " + hour + " * * ? *";
            case "weekly" -> {
                if (day == null) {
                    throw new IllegalArgumentException("schedule_day");
                }
                yield "0 " + minute + " " + hour + " ? * " + (DAYS.indexOf(day) + 1) + " *";
            }
            default -> { // monthly
                if (frame == null) {
                    throw new IllegalArgumentException("schedule_frame");
                }
                if (day != null && !frame.equals("mid")) {
                    String dow = (DAYS.indexOf(day) + 1) + (frame.equals("first") ? "#1" : "L");
                    yield "0 " + minute + " " + hour + " ? * " + dow + " *";
                }
                String dom = switch (frame) {
                    case "first" -> "1";
                    case "mid" -> "15";
                    default -> "L";
                };
                yield "0 " + minute + " " + hour + " " + dom + " * ? *";
            }
        };
    }

    /** A stored cron string as a schedule map (null for null); what cannot be read as one is answered as null. */
    public static Map<String, Object> toMap(String cron) {
        if (cron == null) {
            return null;
        }
        String[] parts = cron.trim().split("\\s+");
        if (parts.length < 6) {
            return null;
        }
        String minutes = parts[1];
        String hours = parts[2];
        String dom = parts[3];
        String dow = parts[5];
        String type;
        if (!dom.equals("*") && (dow.equals("?") || dow.matches("^\\d#1$") || dow.matches("^\\dL$"))) {
            type = "monthly";
        } else if (!dow.equals("?")) {
            type = "weekly";
        } else if (!hours.equals("*")) {
            type = "daily";
        } else {
            type = "hourly";
        }
        String frame = null;
        if (dow.matches("^\\d#1$")) {
            frame = "first";
        } else if (dow.matches("^\\dL$")) {
            frame = "last";
        } else if (dom.equals("1")) {
            frame = "first";
        } else if (dom.equals("15")) {
            frame = "mid";
        } else if (dom.equals("L")) {
            frame = "last";
        }
        String day = null;
        if (dow.matches("^[1-7].*")) {
            day = DAYS.get(dow.charAt(0) - '1');
        }
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("schedule_day", day);
        map.put("schedule_frame", frame);
        map.put("schedule_hour", hours.matches("\\d+") ? Integer.valueOf(hours) : null);
        map.put("schedule_minute", minutes.matches("\\d+") ? Integer.valueOf(minutes) : null);
        map.put("schedule_type", type);
        return map;
    }

    /** Metabase's default metadata sync: hourly, at a random minute away from the hour and from :50. */
    public static String randomHourly() {
        int minute;
        do {
            minute = ThreadLocalRandom.current().nextInt(5, 55);
        } while (minute == 50);
        return "0 " + minute + " * * * ? *";
    }

    /** Metabase's default field-values scan: daily at a random hour (never midnight, which would look deliberate). */
    public static String randomDaily() {
        return "0 0 " + ThreadLocalRandom.current().nextInt(1, 24) + " * * ? *";
    }

    private static int number(Object value, int min, int max, int fallback) {
        if (value == null) {
            return fallback;
        }
        if (value instanceof Number n && n.doubleValue() == n.intValue() && n.intValue() >= min && n.intValue() <= max) {
            return n.intValue();
        }
        throw new IllegalArgumentException("number");
    }

    private static String oneOf(Object value, List<String> allowed) {
        if (value == null) {
            return null;
        }
        if (value instanceof String s && allowed.contains(s)) {
            return s;
        }
        throw new IllegalArgumentException("enum");
    }
}
