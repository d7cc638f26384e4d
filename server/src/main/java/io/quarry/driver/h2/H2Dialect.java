package io.quarry.driver.h2;

import io.quarry.driver.AnsiDialect;
import io.quarry.driver.Sql;
import io.quarry.driver.TemporalUnit;

/** H2 2.x: compiles exactly the features {@link H2Driver} advertises. */
public final class H2Dialect extends AnsiDialect {
    public H2Dialect() {
        super("h2", "H2", H2Driver.FEATURES);
    }

    @Override
    public String sqlName() {
        return "H2 (2.x)";
    }

    @Override
    protected Sql dateTrunc(String unit, Sql expr) {
        return Sql.format("DATE_TRUNC('" + unit.toUpperCase(java.util.Locale.ROOT) + "', %s)", expr);
    }

    @Override
    public Sql extract(Part part, Sql expr) {
        String field = switch (part) {
            case YEAR -> "YEAR";
            case QUARTER -> "QUARTER";
            case MONTH -> "MONTH";
            case DAY -> "DAY";
            case DAY_OF_YEAR -> "DAY_OF_YEAR";
            case HOUR -> "HOUR";
            case MINUTE -> "MINUTE";
            case SECOND -> "SECOND";
            case ISO_DAY_OF_WEEK -> "ISO_DAY_OF_WEEK";
            case ISO_WEEK -> "ISO_WEEK";
        };
        return Sql.format("EXTRACT(" + field + " FROM %s)", expr);
    }

    @Override
    public Sql addInterval(Sql expr, long amount, TemporalUnit unit) {
        String field = switch (unit) {
            case MILLISECOND -> "MILLISECOND";
            case SECOND -> "SECOND";
            case MINUTE -> "MINUTE";
            case HOUR -> "HOUR";
            case DAY -> "DAY";
            case WEEK -> "WEEK";
            case MONTH -> "MONTH";
            case QUARTER -> "QUARTER";
            case YEAR -> "YEAR";
            default -> throw new IllegalArgumentException("Not an interval unit: " + unit.key);
        };
        return Sql.format("DATEADD(" + field + ", " + amount + ", %s)", expr);
    }

    @Override
    public Sql secondsBetween(Sql from, Sql to) {
        return Sql.format("(DATEDIFF(MILLISECOND, %s, %s) / 1000.0)", from, to);
    }

    @Override
    public Sql now() {
        return Sql.raw("LOCALTIMESTAMP");
    }

    @Override
    public Sql unixSecondsToTimestamp(Sql seconds) {
        return Sql.format("DATEADD(MILLISECOND, CAST(%s * 1000 AS BIGINT), TIMESTAMP '1970-01-01 00:00:00')", seconds);
    }

    @Override
    public Sql median(Sql expr) {
        return Sql.format("MEDIAN(%s)", expr);
    }
}
