package io.quarry.driver;

import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;

/**
 * Metabase's temporal units: truncations ({@code month} → the first instant of the month) and extractions
 * ({@code month-of-year} → 1..12). Truncation also happens in Java, for the bounds of date filters.
 */
public enum TemporalUnit {
    DEFAULT("default", "Default", Kind.NONE),
    MILLISECOND("millisecond", "Millisecond", Kind.TRUNCATE),
    SECOND("second", "Second", Kind.TRUNCATE),
    MINUTE("minute", "Minute", Kind.TRUNCATE),
    HOUR("hour", "Hour", Kind.TRUNCATE),
    DAY("day", "Day", Kind.TRUNCATE),
    WEEK("week", "Week", Kind.TRUNCATE),
    MONTH("month", "Month", Kind.TRUNCATE),
    QUARTER("quarter", "Quarter", Kind.TRUNCATE),
    YEAR("year", "Year", Kind.TRUNCATE),
    SECOND_OF_MINUTE("second-of-minute", "Second of minute", Kind.EXTRACT),
    MINUTE_OF_HOUR("minute-of-hour", "Minute of hour", Kind.EXTRACT),
    HOUR_OF_DAY("hour-of-day", "Hour of day", Kind.EXTRACT),
    DAY_OF_WEEK("day-of-week", "Day of week", Kind.EXTRACT),
    DAY_OF_WEEK_ISO("day-of-week-iso", "Day of week (ISO)", Kind.EXTRACT),
    DAY_OF_MONTH("day-of-month", "Day of month", Kind.EXTRACT),
    DAY_OF_YEAR("day-of-year", "Day of year", Kind.EXTRACT),
    WEEK_OF_YEAR("week-of-year", "Week of year", Kind.EXTRACT),
    WEEK_OF_YEAR_ISO("week-of-year-iso", "Week of year (ISO)", Kind.EXTRACT),
    WEEK_OF_YEAR_US("week-of-year-us", "Week of year (US)", Kind.EXTRACT),
    WEEK_OF_YEAR_INSTANCE("week-of-year-instance", "Week of year", Kind.EXTRACT),
    MONTH_OF_YEAR("month-of-year", "Month of year", Kind.EXTRACT),
    QUARTER_OF_YEAR("quarter-of-year", "Quarter of year", Kind.EXTRACT),
    YEAR_OF_ERA("year-of-era", "Year", Kind.EXTRACT);

    public enum Kind { NONE, TRUNCATE, EXTRACT }

    /** Metabase's key ({@code "month-of-year"}). */
    public final String key;
    /** The name people see ({@code "Month of year"}). */
    public final String displayName;
    public final Kind kind;

    TemporalUnit(String key, String displayName, Kind kind) {
        this.key = key;
        this.displayName = displayName;
        this.kind = kind;
    }

    public boolean truncates() {
        return kind == Kind.TRUNCATE;
    }

    public boolean extracts() {
        return kind == Kind.EXTRACT;
    }

    /** The unit for a key ({@code "month"}, {@code "MONTH"}, {@code "month_of_year"}); null when unknown. */
    public static TemporalUnit of(Object key) {
        if (!(key instanceof String s)) {
            return null;
        }
        String k = s.toLowerCase(Locale.ROOT).replace('_', '-');
        for (TemporalUnit unit : values()) {
            if (unit.key.equals(k)) {
                return unit;
            }
        }
        return null;
    }

    /** The start of the unit containing {@code t}; weeks start on {@code firstDay}. */
    public LocalDateTime truncate(LocalDateTime t, DayOfWeek firstDay) {
        return switch (this) {
            case MILLISECOND -> t.truncatedTo(ChronoUnit.MILLIS);
            case SECOND -> t.truncatedTo(ChronoUnit.SECONDS);
            case MINUTE -> t.truncatedTo(ChronoUnit.MINUTES);
            case HOUR -> t.truncatedTo(ChronoUnit.HOURS);
            case DAY -> t.truncatedTo(ChronoUnit.DAYS);
            case WEEK -> t.truncatedTo(ChronoUnit.DAYS).with(TemporalAdjusters.previousOrSame(firstDay));
            case MONTH -> t.truncatedTo(ChronoUnit.DAYS).withDayOfMonth(1);
            case QUARTER -> t.truncatedTo(ChronoUnit.DAYS).withDayOfMonth(1).withMonth((t.getMonthValue() - 1) / 3 * 3 + 1);
            case YEAR -> t.truncatedTo(ChronoUnit.DAYS).withDayOfYear(1);
            default -> throw new IllegalStateException("Not a truncation unit: " + key);
        };
    }

    /** {@code t} plus {@code amount} of this unit. */
    public LocalDateTime plus(LocalDateTime t, long amount) {
        return switch (this) {
            case MILLISECOND -> t.plus(amount, ChronoUnit.MILLIS);
            case SECOND -> t.plusSeconds(amount);
            case MINUTE -> t.plusMinutes(amount);
            case HOUR -> t.plusHours(amount);
            case DAY -> t.plusDays(amount);
            case WEEK -> t.plusWeeks(amount);
            case MONTH -> t.plusMonths(amount);
            case QUARTER -> t.plusMonths(3 * amount);
            case YEAR -> t.plusYears(amount);
            default -> throw new IllegalStateException("Not a truncation unit: " + key);
        };
    }
}
