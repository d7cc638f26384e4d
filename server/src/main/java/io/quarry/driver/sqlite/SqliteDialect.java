package io.quarry.driver.sqlite;

import io.quarry.driver.AnsiDialect;
import io.quarry.driver.Sql;
import io.quarry.driver.TemporalUnit;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * SQLite: dates and times are text ({@code 2024-01-31 10:00:00}), computed with {@code DATE}, {@code DATETIME} and
 * {@code STRFTIME}; no percentiles, standard deviation or variance.
 */
public final class SqliteDialect extends AnsiDialect {
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final DateTimeFormatter DATE_TIME_MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    public SqliteDialect() {
        super("sqlite", "SQLite", SqliteDriver.FEATURES);
    }

    private static Sql strftimeInt(String format, Sql expr) {
        return Sql.format("CAST(STRFTIME('" + format.replace("%", "%%") + "', %s) AS INTEGER)", expr);
    }

    @Override
    public Sql truncate(TemporalUnit unit, Sql expr, DayOfWeek firstDayOfWeek) {
        return switch (unit) {
            case MILLISECOND -> Sql.format("STRFTIME('%%Y-%%m-%%d %%H:%%M:%%f', %s)", expr);
            case SECOND -> Sql.format("STRFTIME('%%Y-%%m-%%d %%H:%%M:%%S', %s)", expr);
            case MINUTE -> Sql.format("STRFTIME('%%Y-%%m-%%d %%H:%%M:00', %s)", expr);
            case HOUR -> Sql.format("STRFTIME('%%Y-%%m-%%d %%H:00:00', %s)", expr);
            case DAY -> Sql.format("DATE(%s)", expr);
            // %w: Sunday = 0. Days since the first day of the week, then back to that day.
            case WEEK -> Sql.format("DATE(%s, '-' || ((%s + " + (7 - firstDayOfWeek.getValue() % 7) + ") %% 7) || ' days')",
                    expr, strftimeInt("%w", expr));
            case MONTH -> Sql.format("DATE(%s, 'start of month')", expr);
            case QUARTER -> Sql.format("DATE(%s, 'start of month', '-' || ((%s - 1) %% 3) || ' months')", expr,
                    strftimeInt("%m", expr));
            case YEAR -> Sql.format("DATE(%s, 'start of year')", expr);
            default -> throw new IllegalArgumentException("Not a truncation unit: " + unit.key);
        };
    }

    @Override
    public Sql extract(Part part, Sql expr) {
        return switch (part) {
            case YEAR -> strftimeInt("%Y", expr);
            case QUARTER -> Sql.format("((%s + 2) / 3)", strftimeInt("%m", expr));
            case MONTH -> strftimeInt("%m", expr);
            case DAY -> strftimeInt("%d", expr);
            case DAY_OF_YEAR -> strftimeInt("%j", expr);
            case HOUR -> strftimeInt("%H", expr);
            case MINUTE -> strftimeInt("%M", expr);
            case SECOND -> strftimeInt("%S", expr);
            case ISO_DAY_OF_WEEK -> Sql.format("((%s + 6) %% 7 + 1)", strftimeInt("%w", expr));
            // The ISO week is the week of its Thursday: count the weeks from that Thursday's 1 January.
            case ISO_WEEK -> Sql.format("(CAST((JULIANDAY(DATE(%s, '-3 days', 'weekday 4')) - JULIANDAY(STRFTIME('%%Y-01-01', "
                    + "DATE(%s, '-3 days', 'weekday 4')))) / 7 AS INTEGER) + 1)", expr, expr);
        };
    }

    @Override
    public Sql addInterval(Sql expr, long amount, TemporalUnit unit) {
        String modifier = switch (unit) {
            case MILLISECOND -> String.format(java.util.Locale.ROOT, "%+.3f seconds", amount / 1000.0);
            case SECOND -> String.format("%+d seconds", amount);
            case MINUTE -> String.format("%+d minutes", amount);
            case HOUR -> String.format("%+d hours", amount);
            case DAY -> String.format("%+d days", amount);
            case WEEK -> String.format("%+d days", amount * 7);
            case MONTH -> String.format("%+d months", amount);
            case QUARTER -> String.format("%+d months", amount * 3);
            case YEAR -> String.format("%+d years", amount);
            default -> throw new IllegalArgumentException("Not an interval unit: " + unit.key);
        };
        return Sql.format("DATETIME(%s, '" + modifier + "')", expr);
    }

    @Override
    public Sql secondsBetween(Sql from, Sql to) {
        return Sql.format("((JULIANDAY(%s) - JULIANDAY(%s)) * 86400.0)", to, from);
    }

    @Override
    public Sql now() {
        return Sql.raw("DATETIME('now')");
    }

    @Override
    protected String floatType() {
        return "REAL";
    }

    @Override
    public Sql toInteger(Sql expr) {
        return Sql.format("CAST(%s AS INTEGER)", expr);
    }

    @Override
    public Sql toText(Sql expr) {
        return Sql.format("CAST(%s AS TEXT)", expr);
    }

    @Override
    public Sql toDate(Sql expr) {
        return Sql.format("DATE(%s)", expr);
    }

    @Override
    public Sql toTimestamp(Sql expr) {
        return Sql.format("DATETIME(%s)", expr);
    }

    @Override
    public Sql truncateNumber(Sql expr) {
        // CAST to INTEGER truncates toward zero.
        return Sql.format("CAST(%s AS INTEGER)", expr);
    }

    @Override
    public Sql concat(List<Sql> parts) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        return Sql.join(" || ", parts).parenthesized();
    }

    @Override
    public Sql substring(Sql text, Sql start, Sql length) {
        return length == null ? Sql.format("SUBSTR(%s, %s)", text, start) : Sql.format("SUBSTR(%s, %s, %s)", text, start, length);
    }

    @Override
    public Sql length(Sql text) {
        return Sql.format("LENGTH(%s)", text);
    }





    @Override
    public Sql unixSecondsToTimestamp(Sql seconds) {
        return Sql.format("DATETIME(%s, 'unixepoch')", seconds);
    }

    @Override
    public Sql booleanLiteral(boolean value) {
        return Sql.raw(value ? "1" : "0");
    }

    /** SQLite has no date types: dates and times are bound as the text SQLite's own functions produce. */
    @Override
    public Object bindValue(Object value) {
        if (value instanceof LocalDate date) {
            return date.toString();
        }
        if (value instanceof LocalDateTime t) {
            return (t.getNano() == 0 ? DATE_TIME : DATE_TIME_MILLIS).format(t);
        }
        if (value instanceof OffsetDateTime t) {
            return bindValue(t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
        }
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        return value;
    }

    @Override
    public boolean insertReturning() {
        return true;
    }
}
