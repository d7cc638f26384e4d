package io.quarry.qp.mbql;

import static io.quarry.qp.mbql.Clauses.invalid;
import static io.quarry.qp.mbql.Clauses.withRefOption;

import io.quarry.driver.Sql;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.TemporalUnit;
import java.util.Map;

/**
 * Temporal bucketing of a column: truncation to a unit, or extraction of a unit as an integer (days and weeks
 * follow the start-of-week setting).
 */
final class TemporalBucketing {
    private final MbqlCompiler.Context ctx;
    private final SqlDialect d;

    TemporalBucketing(StageScope scope) {
        this.ctx = scope.ctx;
        this.d = scope.d;
    }

    /** Applies a reference's temporal unit, unless its source already did. */
    Col bucket(Col col, Map<String, Object> opts) {
        Object unitKey = opts.get("temporal-unit");
        if (unitKey == null) {
            return col;
        }
        TemporalUnit unit = TemporalUnit.of(unitKey);
        if (unit == null) {
            throw invalid("Unknown temporal unit \"" + unitKey + "\".");
        }
        if (unit == TemporalUnit.DEFAULT || unit == col.upstreamUnit) {
            return col;
        }
        String type = col.effectiveType;
        if (!MbqlTypes.isTemporal(type) && !MbqlTypes.ANY.equals(type)) {
            throw invalid("The column " + col.name + " is not a date or time: it can't be grouped by " + unit.key + ".");
        }
        col.raw = col.sql;
        col.sql = applyUnit(unit, col.sql, type);
        if (unit.extracts()) {
            col.baseType = MbqlTypes.INTEGER;
            col.effectiveType = MbqlTypes.INTEGER;
            col.semanticType = null;
        }
        col.unit = unit;
        col.displayName = col.displayName + ": " + unit.displayName;
        col.fieldRef = withRefOption(col.fieldRef, "temporal-unit", unit.key);
        return col;
    }

    private Sql applyUnit(TemporalUnit unit, Sql sql, String type) {
        if (unit.truncates()) {
            Sql truncated = d.truncate(unit, sql, ctx.firstDayOfWeek());
            boolean dateOnly = MbqlTypes.isDateOnly(type);
            return dateOnly && unit.ordinal() >= TemporalUnit.DAY.ordinal() ? d.toDate(truncated) : truncated;
        }
        return extract(unit, sql);
    }

    /** An extraction unit as an integer expression; days and weeks follow the start-of-week setting. */
    Sql extract(TemporalUnit unit, Sql sql) {
        return switch (unit) {
            case SECOND_OF_MINUTE -> d.extract(SqlDialect.Part.SECOND, sql);
            case MINUTE_OF_HOUR -> d.extract(SqlDialect.Part.MINUTE, sql);
            case HOUR_OF_DAY -> d.extract(SqlDialect.Part.HOUR, sql);
            case DAY_OF_MONTH -> d.extract(SqlDialect.Part.DAY, sql);
            case DAY_OF_YEAR -> d.extract(SqlDialect.Part.DAY_OF_YEAR, sql);
            case MONTH_OF_YEAR -> d.extract(SqlDialect.Part.MONTH, sql);
            case QUARTER_OF_YEAR -> d.extract(SqlDialect.Part.QUARTER, sql);
            case YEAR_OF_ERA -> d.extract(SqlDialect.Part.YEAR, sql);
            case DAY_OF_WEEK_ISO -> d.extract(SqlDialect.Part.ISO_DAY_OF_WEEK, sql);
            case DAY_OF_WEEK -> dayOfWeek(sql, ctx.firstDayOfWeek().getValue());
            case WEEK_OF_YEAR_ISO -> d.extract(SqlDialect.Part.ISO_WEEK, sql);
            case WEEK_OF_YEAR, WEEK_OF_YEAR_INSTANCE -> weekOfYear(sql, ctx.firstDayOfWeek());
            case WEEK_OF_YEAR_US -> weekOfYear(sql, java.time.DayOfWeek.SUNDAY);
            default -> throw invalid("Not an extraction unit: " + unit.key);
        };
    }

    /** 1 for the first day of the week ({@code firstDay}: Monday = 1 … Sunday = 7), 7 for the last. */
    private Sql dayOfWeek(Sql sql, int firstDay) {
        Sql iso = d.extract(SqlDialect.Part.ISO_DAY_OF_WEEK, sql);
        if (firstDay == 1) {
            return iso;
        }
        return Sql.format("((%s + " + (7 - firstDay) + ") %% 7 + 1)", iso);
    }

    /**
     * Week of the year as Metabase counts it by default: week 1 starts on 1 January, week 2 on the first
     * {@code firstDay} after it.
     */
    private Sql weekOfYear(Sql sql, java.time.DayOfWeek firstDay) {
        Sql startOfYear = d.truncate(TemporalUnit.YEAR, sql, firstDay);
        Sql daysTillFirstFullWeek = Sql.format("(8 - %s)", dayOfWeek(startOfYear, firstDay.getValue()));
        return d.toInteger(Sql.format("(CEIL((%s - %s) / 7.0) + 1)", d.extract(SqlDialect.Part.DAY_OF_YEAR, sql),
                daysTillFirstFullWeek));
    }
}
