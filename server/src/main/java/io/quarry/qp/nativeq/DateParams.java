package io.quarry.qp.nativeq;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Metabase's date parameter values, turned into a half-open range {@code [start, end)} (either end may be open):
 * relative ({@code past30days}, {@code next3months~}, {@code thisyear}, {@code lastmonth}, {@code today},
 * {@code past3months-from-2years}), single dates or date-times, ranges ({@code 2024-01-01~2024-01-31}, open on
 * either side), month-year ({@code 2024-01}) and quarter-year ({@code Q1-2024}). Filtering on a range is
 * {@code column >= start AND column < end}: bind values, any engine.
 */
public final class DateParams {
    private static final String UNITS = "(minute|hour|day|week|month|quarter|year)";
    private static final Pattern RELATIVE = Pattern.compile(
            "^(past|next)(\\d+)" + UNITS + "s(~)?(?:-from-(\\d+)" + UNITS + "s)?$");
    private static final Pattern CURRENT = Pattern.compile("^(this|last|next)" + UNITS + "$");
    private static final Pattern MONTH_YEAR = Pattern.compile("^(\\d{4})-(\\d{2})$");
    private static final Pattern QUARTER_YEAR = Pattern.compile("^Q([1-4])-(\\d{4})$");

    /** A half-open range; a null end is open. */
    public record Range(LocalDateTime start, LocalDateTime end) {
    }

    private DateParams() {
    }

    /**
     * The range a parameter value stands for, relative to {@code now} (in the report time zone). Weeks start on
     * {@code firstDayOfWeek}.
     */
    public static Range parse(String raw, LocalDateTime now, DayOfWeek firstDayOfWeek) {
        String value = raw.trim();
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.startsWith("exclude-")) {
            throw new TemplateException("Excluding dates (" + value + ") is not supported yet.");
        }
        if (lower.equals("today")) {
            lower = "thisday";
        } else if (lower.equals("yesterday")) {
            lower = "lastday";
        }
        Matcher current = CURRENT.matcher(lower);
        if (current.matches()) {
            Unit unit = unit(current.group(2));
            LocalDateTime start = unit.truncate(now, firstDayOfWeek);
            long shift = switch (current.group(1)) {
                case "last" -> -1;
                case "next" -> 1;
                default -> 0;
            };
            start = unit.plus(start, shift);
            return new Range(start, unit.plus(start, 1));
        }
        Matcher relative = RELATIVE.matcher(lower);
        if (relative.matches()) {
            boolean past = relative.group(1).equals("past");
            long amount = Long.parseLong(relative.group(2));
            Unit unit = unit(relative.group(3));
            boolean includeCurrent = relative.group(4) != null;
            LocalDateTime currentStart = unit.truncate(now, firstDayOfWeek);
            LocalDateTime start;
            LocalDateTime end;
            if (past) {
                end = includeCurrent ? unit.plus(currentStart, 1) : currentStart;
                start = unit.plus(currentStart, -amount);
            } else {
                start = includeCurrent ? currentStart : unit.plus(currentStart, 1);
                end = unit.plus(currentStart, amount + 1);
            }
            if (relative.group(5) != null) {
                Unit offsetUnit = unit(relative.group(6));
                long offset = Long.parseLong(relative.group(5)) * (past ? -1 : 1);
                start = offsetUnit.plus(start, offset);
                end = offsetUnit.plus(end, offset);
            }
            return new Range(start, end);
        }
        Matcher monthYear = MONTH_YEAR.matcher(value);
        if (monthYear.matches()) {
            LocalDateTime start = LocalDate.of(Integer.parseInt(monthYear.group(1)), month(monthYear.group(2)), 1).atStartOfDay();
            return new Range(start, start.plusMonths(1));
        }
        Matcher quarterYear = QUARTER_YEAR.matcher(value.toUpperCase(Locale.ROOT));
        if (quarterYear.matches()) {
            int quarter = Integer.parseInt(quarterYear.group(1));
            LocalDateTime start = LocalDate.of(Integer.parseInt(quarterYear.group(2)), (quarter - 1) * 3 + 1, 1).atStartOfDay();
            return new Range(start, start.plusMonths(3));
        }
        int tilde = value.indexOf('~');
        if (tilde >= 0) {
            String from = value.substring(0, tilde).trim();
            String to = value.substring(tilde + 1).trim();
            if (from.isEmpty() && to.isEmpty()) {
                throw invalid(raw);
            }
            LocalDateTime start = from.isEmpty() ? null : single(from, raw).start();
            LocalDateTime end = to.isEmpty() ? null : single(to, raw).end();
            if (start != null && end != null && !start.isBefore(end)) {
                throw new TemplateException("The date range " + raw + " ends before it starts.");
            }
            return new Range(start, end);
        }
        return single(value, raw);
    }

    /** A single date (the whole day) or date-time (that minute). */
    private static Range single(String value, String raw) {
        try {
            if (value.length() <= 10) {
                LocalDate day = LocalDate.parse(value);
                return new Range(day.atStartOfDay(), day.plusDays(1).atStartOfDay());
            }
            LocalDateTime at = LocalDateTime.parse(value.length() == 16 ? value + ":00" : value).truncatedTo(ChronoUnit.MINUTES);
            return new Range(at, at.plusMinutes(1));
        } catch (DateTimeParseException e) {
            throw invalid(raw);
        }
    }

    /** A {@code date} variable's value as a date to bind. */
    public static LocalDate parseDate(String raw) {
        try {
            String value = raw.trim();
            return LocalDate.parse(value.length() > 10 ? value.substring(0, 10) : value);
        } catch (DateTimeParseException e) {
            throw invalid(raw);
        }
    }

    private static TemplateException invalid(String raw) {
        return new TemplateException("Don't know how to parse date parameter value " + raw + ".");
    }

    private static int month(String text) {
        int month = Integer.parseInt(text);
        if (month < 1 || month > 12) {
            throw new TemplateException("Invalid month " + text + ".");
        }
        return month;
    }

    /** The units date parameters speak of (quarters included, which {@link ChronoUnit} lacks). */
    enum Unit {
        MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR;

        LocalDateTime plus(LocalDateTime t, long amount) {
            return switch (this) {
                case MINUTE -> t.plusMinutes(amount);
                case HOUR -> t.plusHours(amount);
                case DAY -> t.plusDays(amount);
                case WEEK -> t.plusWeeks(amount);
                case MONTH -> t.plusMonths(amount);
                case QUARTER -> t.plusMonths(3 * amount);
                case YEAR -> t.plusYears(amount);
            };
        }

        LocalDateTime truncate(LocalDateTime t, DayOfWeek firstDayOfWeek) {
            LocalDate day = t.toLocalDate();
            return switch (this) {
                case MINUTE -> t.truncatedTo(ChronoUnit.MINUTES);
                case HOUR -> t.truncatedTo(ChronoUnit.HOURS);
                case DAY -> day.atStartOfDay();
                case WEEK -> day.with(TemporalAdjusters.previousOrSame(firstDayOfWeek)).atStartOfDay();
                case MONTH -> day.withDayOfMonth(1).atStartOfDay();
                case QUARTER -> day.withDayOfMonth(1).withMonth((day.getMonthValue() - 1) / 3 * 3 + 1).atStartOfDay();
                case YEAR -> day.withDayOfYear(1).atStartOfDay();
            };
        }
    }

    private static Unit unit(String name) {
        return Unit.valueOf(name.toUpperCase(Locale.ROOT));
    }
}