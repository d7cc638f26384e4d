package io.quarry.driver.mysql;

import io.quarry.driver.AnsiDialect;
import io.quarry.driver.Sql;
import io.quarry.driver.TemporalUnit;
import java.time.DayOfWeek;

/** MySQL 8 and MariaDB. */
public final class MySqlDialect extends AnsiDialect {
    public MySqlDialect() {
        super("mysql", "MySQL", MySqlDriver.FEATURES);
    }

    /** MySQL and MariaDB read a backslash in a string literal as an escape (unless NO_BACKSLASH_ESCAPES is set). */
    @Override
    public boolean backslashEscapes() {
        return true;
    }

    @Override
    public String quote(String identifier) {
        if (identifier.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("An identifier may not contain NUL characters");
        }
        return "`" + identifier.replace("`", "``") + "`";
    }

    @Override
    public int maxIdentifierLength() {
        return 64;
    }

    /** {@code STR_TO_DATE(DATE_FORMAT(expr, format), parse)}: MySQL truncates by formatting. */
    private static Sql formatted(Sql expr, String format, String parse) {
        return Sql.format("STR_TO_DATE(DATE_FORMAT(%s, '" + format.replace("%", "%%") + "'), '" + parse.replace("%", "%%") + "')",
                expr);
    }

    @Override
    public Sql truncate(TemporalUnit unit, Sql expr, DayOfWeek firstDayOfWeek) {
        return switch (unit) {
            case MILLISECOND -> expr;
            case SECOND -> formatted(expr, "%Y-%m-%d %H:%i:%s", "%Y-%m-%d %H:%i:%s");
            case MINUTE -> formatted(expr, "%Y-%m-%d %H:%i", "%Y-%m-%d %H:%i");
            case HOUR -> formatted(expr, "%Y-%m-%d %H", "%Y-%m-%d %H");
            case DAY -> Sql.format("DATE(%s)", expr);
            // WEEKDAY: Monday = 0; days since the first day of the week, then back to that day.
            case WEEK -> Sql.format("DATE(DATE_SUB(%s, INTERVAL ((WEEKDAY(%s) + " + (8 - firstDayOfWeek.getValue())
                    + ") %% 7) DAY))", expr, expr);
            case MONTH -> formatted(expr, "%Y-%m-01", "%Y-%m-%d");
            case QUARTER -> Sql.format("STR_TO_DATE(CONCAT(YEAR(%s), '-', QUARTER(%s) * 3 - 2, '-01'), '%%Y-%%m-%%d')", expr, expr);
            case YEAR -> Sql.format("STR_TO_DATE(CONCAT(YEAR(%s), '-01-01'), '%%Y-%%m-%%d')", expr);
            default -> throw new IllegalArgumentException("Not a truncation unit: " + unit.key);
        };
    }

    @Override
    public Sql extract(Part part, Sql expr) {
        return switch (part) {
            case YEAR -> Sql.format("YEAR(%s)", expr);
            case QUARTER -> Sql.format("QUARTER(%s)", expr);
            case MONTH -> Sql.format("MONTH(%s)", expr);
            case DAY -> Sql.format("DAYOFMONTH(%s)", expr);
            case DAY_OF_YEAR -> Sql.format("DAYOFYEAR(%s)", expr);
            case HOUR -> Sql.format("HOUR(%s)", expr);
            case MINUTE -> Sql.format("MINUTE(%s)", expr);
            case SECOND -> Sql.format("SECOND(%s)", expr);
            case ISO_DAY_OF_WEEK -> Sql.format("(WEEKDAY(%s) + 1)", expr);
            case ISO_WEEK -> Sql.format("WEEK(%s, 3)", expr);
        };
    }

    @Override
    public Sql addInterval(Sql expr, long amount, TemporalUnit unit) {
        String interval = switch (unit) {
            case MILLISECOND -> amount * 1000 + " MICROSECOND";
            case SECOND -> amount + " SECOND";
            case MINUTE -> amount + " MINUTE";
            case HOUR -> amount + " HOUR";
            case DAY -> amount + " DAY";
            case WEEK -> amount + " WEEK";
            case MONTH -> amount + " MONTH";
            case QUARTER -> amount + " QUARTER";
            case YEAR -> amount + " YEAR";
            default -> throw new IllegalArgumentException("Not an interval unit: " + unit.key);
        };
        return Sql.format("DATE_ADD(%s, INTERVAL " + interval + ")", expr);
    }

    @Override
    public Sql secondsBetween(Sql from, Sql to) {
        return Sql.format("(TIMESTAMPDIFF(MICROSECOND, %s, %s) / 1000000.0)", from, to);
    }

    /** MySQL counts whole units itself. */
    @Override
    public Sql datetimeDiff(TemporalUnit unit, Sql from, Sql to) {
        String field = switch (unit) {
            case SECOND -> "SECOND";
            case MINUTE -> "MINUTE";
            case HOUR -> "HOUR";
            case DAY -> "DAY";
            case WEEK -> "WEEK";
            case MONTH -> "MONTH";
            case QUARTER -> "QUARTER";
            case YEAR -> "YEAR";
            default -> throw new IllegalArgumentException("datetime-diff does not support the unit " + unit.key);
        };
        return Sql.format("TIMESTAMPDIFF(" + field + ", %s, %s)", from, to);
    }

    @Override
    protected String floatType() {
        return "DOUBLE";
    }

    @Override
    public Sql toInteger(Sql expr) {
        return Sql.format("CAST(%s AS SIGNED)", expr);
    }

    @Override
    public Sql toText(Sql expr) {
        return Sql.format("CAST(%s AS CHAR)", expr);
    }

    @Override
    public Sql toTimestamp(Sql expr) {
        return Sql.format("CAST(%s AS DATETIME)", expr);
    }

    @Override
    public Sql truncateNumber(Sql expr) {
        return Sql.format("TRUNCATE(%s, 0)", expr);
    }



    @Override
    public Sql unixSecondsToTimestamp(Sql seconds) {
        return Sql.format("FROM_UNIXTIME(%s)", seconds);
    }

    @Override
    public String limitOffset(Long limit, long offset) {
        // MySQL has no OFFSET without LIMIT: the largest limit stands for "all rows".
        return super.limitOffset(limit == null && offset > 0 ? Long.valueOf(Long.MAX_VALUE) : limit, offset);
    }

}
