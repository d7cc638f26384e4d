package io.quarry.render;

import java.math.BigDecimal;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Locale;

/**
 * Values as a person reads them in an e-mail, as Metabase's static formatting: numbers grouped with at most two
 * decimals, percentages as {@code 12.5%}, dates at the granularity of the column (a column of first-of-month midnights
 * is a month: {@code January 2024}). Temporal values keep the wall-clock time the result gives them (the result is
 * already in the report time zone).
 */
final class Formats {
    private static final Locale LOCALE = Locale.US;

    private Formats() {
    }

    /** How a temporal column's values are best shown, from the values themselves (results carry no unit here). */
    enum Granularity {
        YEAR("yyyy", "yyyy"),
        MONTH("MMMM yyyy", "MMM yyyy"),
        DAY("MMMM d, yyyy", "MMM d, yyyy"),
        MINUTE("MMMM d, yyyy, h:mm a", "MMM d, h:mm a"),
        TIME("h:mm a", "h:mm a");

        final DateTimeFormatter full;
        final DateTimeFormatter axis;

        Granularity(String full, String axis) {
            this.full = DateTimeFormatter.ofPattern(full, LOCALE);
            this.axis = DateTimeFormatter.ofPattern(axis, LOCALE);
        }

        /** The coarsest granularity that shows every value exactly. */
        static Granularity of(Collection<?> values) {
            boolean any = false;
            boolean timeOnly = true;
            boolean midnight = true;
            boolean firstOfMonth = true;
            boolean firstOfYear = true;
            for (Object value : values) {
                if (value instanceof String text && text.length() <= 18 && text.indexOf(':') > 0 && text.indexOf('-') < 0) {
                    any = true;
                    continue;
                }
                LocalDateTime t = parse(value);
                if (t == null) {
                    continue;
                }
                any = true;
                timeOnly = false;
                midnight &= t.toLocalTime().equals(LocalTime.MIDNIGHT);
                firstOfMonth &= t.getDayOfMonth() == 1;
                firstOfYear &= t.getDayOfYear() == 1;
            }
            if (!any) {
                return DAY;
            }
            if (timeOnly) {
                return TIME;
            }
            if (!midnight) {
                return MINUTE;
            }
            return firstOfYear ? YEAR : firstOfMonth ? MONTH : DAY;
        }
    }

    /** A temporal value as a local date-time, or null when it is none. */
    static LocalDateTime parse(Object value) {
        if (!(value instanceof String text) || text.length() < 10) {
            return null;
        }
        try {
            if (text.length() == 10) {
                return LocalDate.parse(text).atStartOfDay();
            }
            if (text.endsWith("Z") || text.matches(".*[+-]\\d\\d:?\\d\\d$")) {
                return OffsetDateTime.parse(text).toLocalDateTime();
            }
            return LocalDateTime.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** A value of a column in full (tables, scalars). */
    static String value(Object value, Tabular.Column col, Granularity granularity) {
        if (value == null) {
            return "";
        }
        if (value instanceof Number number) {
            return number(number, col != null && ColumnTypes.percentage(col));
        }
        if (col != null && col.temporal()) {
            return temporal(value, granularity != null ? granularity : Granularity.of(java.util.List.of(value)), false);
        }
        return String.valueOf(value);
    }

    static String temporal(Object value, Granularity granularity, boolean axis) {
        if (granularity == Granularity.TIME && value instanceof String text) {
            try {
                LocalTime time = LocalTime.parse(text.length() > 8 && text.charAt(8) != '.' ? text.substring(0, 8) : text);
                return (axis ? granularity.axis : granularity.full).format(time);
            } catch (DateTimeParseException e) {
                return text;
            }
        }
        LocalDateTime t = parse(value);
        if (t == null) {
            return String.valueOf(value);
        }
        return (axis ? granularity.axis : granularity.full).format(t);
    }

    static String number(Number number, boolean percentage) {
        BigDecimal decimal = decimal(number);
        if (decimal == null) {
            return String.valueOf(number);
        }
        if (percentage) {
            return format(decimal.movePointRight(2), 2) + "%";
        }
        return format(decimal, decimal.abs().compareTo(BigDecimal.ONE) < 0 && decimal.signum() != 0 ? 4 : 2);
    }

    static BigDecimal decimal(Number number) {
        if (number instanceof BigDecimal d) {
            return d;
        }
        if (number instanceof Double d && (d.isNaN() || d.isInfinite())) {
            return null;
        }
        if (number instanceof Float f && (f.isNaN() || f.isInfinite())) {
            return null;
        }
        return new BigDecimal(number.toString());
    }

    private static String format(BigDecimal value, int maxDecimals) {
        DecimalFormat format = new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(LOCALE));
        format.setMaximumFractionDigits(maxDecimals);
        return format.format(value);
    }

    /** A compact number for axis ticks and labels: 1.2k, 3.4M. */
    static String compact(double value) {
        double abs = Math.abs(value);
        if (abs >= 1_000_000_000) {
            return trim(value / 1_000_000_000) + "B";
        }
        if (abs >= 1_000_000) {
            return trim(value / 1_000_000) + "M";
        }
        if (abs >= 10_000) {
            return trim(value / 1_000) + "k";
        }
        return format(BigDecimal.valueOf(value), abs < 1 && abs > 0 ? 3 : 2);
    }

    private static String trim(double value) {
        return format(BigDecimal.valueOf(value), 1);
    }
}
