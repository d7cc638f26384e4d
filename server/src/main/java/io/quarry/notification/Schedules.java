package io.quarry.notification;

import io.quarry.web.param.Body;
import java.util.List;

/**
 * The schedule fields of a pulse channel, checked and normalised as Metabase's {@code pulse_channel} model does, and the
 * Quartz cron they stand for ({@code metabase.util.cron/schedule-map->cron-string}).
 * <ul>
 *   <li>{@code hourly}: nothing else; {@code daily}: {@code schedule_hour} 0–23;</li>
 *   <li>{@code weekly}: hour and {@code schedule_day} {@code sun}..{@code sat};</li>
 *   <li>{@code monthly}: hour and {@code schedule_frame} {@code first|mid|last}; with first/last an optional day
 *       ({@code mid} takes none).</li>
 * </ul>
 * Stored normalised: no hour for hourly, a day only for weekly and monthly, a frame only for monthly.
 */
public final class Schedules {
    public static final List<String> TYPES = List.of("hourly", "daily", "weekly", "monthly");
    public static final List<String> DAYS = List.of("sun", "mon", "tue", "wed", "thu", "fri", "sat");
    public static final List<String> FRAMES = List.of("first", "mid", "last");

    private Schedules() {
    }

    /** A checked, normalised schedule. */
    public record Schedule(String type, Integer hour, String day, String frame) {
    }

    /**
     * Reads the schedule of one channel entry; errors go to {@code errors} under {@code channels} (the body key), with
     * the exact field in the message.
     */
    public static Schedule read(Body entry, Body errors, String key) {
        String type = text(entry, "schedule_type");
        if (type == null || !TYPES.contains(type)) {
            errors.addError(key, "schedule_type must be one of " + String.join(", ", TYPES) + ".",
                    "schedule_type: should be either \"hourly\" or \"daily\" or \"weekly\" or \"monthly\", received: " + entry.get("schedule_type"));
            return null;
        }
        Integer hour = null;
        if (!type.equals("hourly")) {
            var h = entry.get("schedule_hour");
            if (!h.canConvertToExactIntegral() || h.asInt() < 0 || h.asInt() > 23) {
                errors.addError(key, "schedule_hour must be an integer from 0 to 23 for a " + type + " schedule.",
                        "schedule_hour: should be an integer between 0 and 23, received: " + h);
                return null;
            }
            hour = h.asInt();
        }
        String day = null;
        String frame = null;
        if (type.equals("weekly")) {
            day = text(entry, "schedule_day");
            if (day == null || !DAYS.contains(day)) {
                errors.addError(key, "schedule_day must be one of " + String.join(", ", DAYS) + " for a weekly schedule.",
                        "schedule_day: should be a day of the week, received: " + entry.get("schedule_day"));
                return null;
            }
        }
        if (type.equals("monthly")) {
            frame = text(entry, "schedule_frame");
            if (frame == null || !FRAMES.contains(frame)) {
                errors.addError(key, "schedule_frame must be one of first, mid, last for a monthly schedule.",
                        "schedule_frame: should be either \"first\" or \"mid\" or \"last\", received: " + entry.get("schedule_frame"));
                return null;
            }
            day = text(entry, "schedule_day");
            if (day != null && frame.equals("mid")) {
                errors.addError(key, "schedule_day must be empty for a mid-month schedule.",
                        "schedule_day: should be nil with schedule_frame \"mid\", received: " + entry.get("schedule_day"));
                return null;
            }
            if (day != null && !DAYS.contains(day)) {
                errors.addError(key, "schedule_day must be one of " + String.join(", ", DAYS) + " or empty for a monthly schedule.",
                        "schedule_day: should be a day of the week, received: " + entry.get("schedule_day"));
                return null;
            }
        }
        return new Schedule(type, hour, day, frame);
    }

    private static String text(Body entry, String field) {
        var value = entry.get(field);
        return value.isTextual() ? value.asText() : null;
    }

    /** The Quartz cron of a schedule: {@code 0 0 H * * ? *}, {@code 0 0 H ? * D *}, {@code 0 0 H L * ? *}, {@code D#1}... */
    public static String cron(Schedule s) {
        return switch (s.type()) {
            case "hourly" -> "0 0 * * * ? *";
            case "daily" -> "0 0 " + s.hour() + " * * ? *";
            case "weekly" -> "0 0 " + s.hour() + " ? * " + dayNumber(s.day()) + " *";
            case "monthly" -> monthly(s);
            default -> throw new IllegalArgumentException("Unknown schedule type " + s.type());
        };
    }

    private static String monthly(Schedule s) {
        if (s.day() == null) {
            String dayOfMonth = switch (s.frame()) {
                case "first" -> "1";
                case "mid" -> "15";
                default -> "L";
            };
            return "0 0 " + s.hour() + " " + dayOfMonth + " * ? *";
        }
        String weekday = s.frame().equals("first") ? dayNumber(s.day()) + "#1" : dayNumber(s.day()) + "L";
        return "0 0 " + s.hour() + " ? * " + weekday + " *";
    }

    /** Quartz numbers the days from Sunday = 1 to Saturday = 7. */
    private static int dayNumber(String day) {
        return DAYS.indexOf(day) + 1;
    }

    public static Schedule of(PulseChannel channel) {
        return new Schedule(channel.scheduleType, channel.scheduleHour, channel.scheduleDay, channel.scheduleFrame);
    }
}
