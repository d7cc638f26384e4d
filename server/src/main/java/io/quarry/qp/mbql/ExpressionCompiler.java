package io.quarry.qp.mbql;

import static io.quarry.qp.mbql.Clauses.describe;
import static io.quarry.qp.mbql.Clauses.integral;
import static io.quarry.qp.mbql.Clauses.intervalUnit;
import static io.quarry.qp.mbql.Clauses.invalid;
import static io.quarry.qp.mbql.Clauses.need;
import static io.quarry.qp.mbql.Clauses.number;
import static io.quarry.qp.mbql.Clauses.requireFeature;
import static io.quarry.qp.mbql.Clauses.temporalLiteral;
import static io.quarry.qp.mbql.Clauses.wholeNumber;

import io.quarry.driver.Feature;
import io.quarry.driver.Sql;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.TemporalUnit;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Expressions to SQL: references, literals, arithmetic, string, number and date functions; conditions are
 * handed to the {@link FilterCompiler}.
 */
final class ExpressionCompiler {
    private final StageScope scope;
    private final MbqlCompiler.Context ctx;
    private final SqlDialect d;

    ExpressionCompiler(StageScope scope) {
        this.scope = scope;
        this.ctx = scope.ctx;
        this.d = scope.d;
    }

    private static final Set<String> FILTERS = Set.of("and", "or", "not", "=", "!=", "<", ">", "<=", ">=", "between", "inside",
            "is-null", "not-null", "is-empty", "not-empty", "contains", "does-not-contain", "starts-with", "ends-with",
            "time-interval", "relative-time-interval", "during", "segment", "in", "not-in");

    /** Any expression: references, literals, arithmetic, string and date functions, or a condition. */
    Typed expr(Object x) {
        if (x == null) {
            return new Typed(Sql.raw("NULL"), MbqlTypes.ANY, null);
        }
        if (x instanceof Number n) {
            return new Typed(Sql.param(number(n)), integral(n) ? MbqlTypes.INTEGER : MbqlTypes.FLOAT, null);
        }
        if (x instanceof String s) {
            return new Typed(Sql.param(s), MbqlTypes.TEXT, null);
        }
        if (x instanceof Boolean b) {
            return new Typed(Sql.param(d.bindValue(b)), MbqlTypes.BOOLEAN, null);
        }
        if (!(x instanceof List<?> l) || l.isEmpty() || !(l.get(0) instanceof String op)) {
            throw invalid("Unknown expression " + describe(x) + ".");
        }
        List<?> args = l.subList(1, l.size());
        switch (op) {
            case "field", "expression" -> {
                Col c = scope.columnCompiler.column(l);
                return new Typed(c.sql, c.effectiveType, c);
            }
            case "value" -> {
                return literal(args.isEmpty() ? null : args.get(0), args.size() > 1 && args.get(1) instanceof Map<?, ?> m
                        ? baseTypeOption(m) : null);
            }
            case "+", "-", "*" -> {
                return arithmetic(op, args);
            }
            case "coalesce" -> {
                need(args, 1, op);
                List<Sql> parts = new ArrayList<>();
                String type = null;
                for (Object arg : args) {
                    Typed t = expr(arg);
                    parts.add(t.sql());
                    if (type == null && !MbqlTypes.ANY.equals(t.type())) {
                        type = t.type();
                    }
                }
                return new Typed(Sql.format("COALESCE(%s)", Sql.join(", ", parts)), type == null ? MbqlTypes.ANY : type, null);
            }
            case "case", "if" -> {
                return caseExpr(args);
            }
            case "interval" -> throw invalid("An interval can only be added to or subtracted from a date.");
            case "aggregation" -> throw invalid("An aggregation reference can only be used in \"order-by\".");
            case "concat", "substring", "upper", "lower", "trim", "ltrim", "rtrim", "length", "replace" -> {
                return textFunction(op, args);
            }
            case "/", "round", "ceil", "floor", "abs", "power", "sqrt", "exp", "log" -> {
                return numberFunction(op, args);
            }
            case "datetime-add", "datetime-subtract", "datetime-diff", "now", "today", "get-year", "get-quarter", "get-month",
                 "get-week", "get-day", "get-day-of-week", "get-hour", "get-minute", "get-second", "temporal-extract",
                 "relative-datetime", "absolute-datetime", "date" -> {
                return temporalFunction(op, args);
            }
            case "text", "integer", "float" -> {
                return conversion(op, args);
            }
            default -> {
                if (FILTERS.contains(op)) {
                    return new Typed(scope.filterCompiler.filter(x), MbqlTypes.BOOLEAN, null);
                }
                if (AggregationCompiler.AGGREGATIONS.contains(op)) {
                    throw invalid("The aggregation \"" + op + "\" can only be used in \"aggregation\".");
                }
                throw invalid("Unknown expression \"" + op + "\".");
            }
        }
    }

    /** Text functions: concatenation, substrings, case, trimming, length, replacement. */
    private Typed textFunction(String op, List<?> args) {
        switch (op) {
            case "concat" -> {
                need(args, 1, op);
                List<Sql> parts = new ArrayList<>();
                for (Object arg : args) {
                    Typed t = expr(arg);
                    parts.add(MbqlTypes.isText(t.type()) || MbqlTypes.ANY.equals(t.type()) ? t.sql() : d.toText(t.sql()));
                }
                return new Typed(d.concat(parts), MbqlTypes.TEXT, null);
            }
            case "substring" -> {
                need(args, 2, op);
                return new Typed(d.substring(expr(args.get(0)).sql(), expr(args.get(1)).sql(),
                        args.size() > 2 ? expr(args.get(2)).sql() : null), MbqlTypes.TEXT, null);
            }
            case "upper", "lower", "trim", "ltrim", "rtrim" -> {
                need(args, 1, op);
                return new Typed(Sql.format(op.toUpperCase(Locale.ROOT) + "(%s)", expr(args.get(0)).sql()), MbqlTypes.TEXT, null);
            }
            case "length" -> {
                need(args, 1, op);
                return new Typed(d.length(expr(args.get(0)).sql()), MbqlTypes.INTEGER, null);
            }
            case "replace" -> {
                need(args, 3, op);
                return new Typed(Sql.format("REPLACE(%s, %s, %s)", expr(args.get(0)).sql(), expr(args.get(1)).sql(),
                        expr(args.get(2)).sql()), MbqlTypes.TEXT, null);
            }
            default -> throw new IllegalStateException("Not handled here: " + op);
        }
    }

    /** Number functions: division, rounding, absolute value, powers, roots, logarithms. */
    private Typed numberFunction(String op, List<?> args) {
        switch (op) {
            case "/" -> {
                need(args, 2, op);
                Sql out = d.toFloat(expr(args.get(0)).sql());
                for (Object denominator : args.subList(1, args.size())) {
                    out = Sql.format("(%s / NULLIF(%s, 0))", out, d.toFloat(expr(denominator).sql()));
                }
                return new Typed(out, MbqlTypes.FLOAT, null);
            }
            case "round", "ceil", "floor" -> {
                need(args, 1, op);
                return new Typed(Sql.format(op.toUpperCase(Locale.ROOT) + "(%s)", expr(args.get(0)).sql()), MbqlTypes.INTEGER, null);
            }
            case "abs" -> {
                need(args, 1, op);
                Typed t = expr(args.get(0));
                return new Typed(Sql.format("ABS(%s)", t.sql()), t.type(), null);
            }
            case "power" -> {
                need(args, 2, op);
                return new Typed(d.power(expr(args.get(0)).sql(), expr(args.get(1)).sql()), MbqlTypes.FLOAT, null);
            }
            case "sqrt", "exp" -> {
                need(args, 1, op);
                return new Typed(Sql.format(op.toUpperCase(Locale.ROOT) + "(%s)", d.toFloat(expr(args.get(0)).sql())),
                        MbqlTypes.FLOAT, null);
            }
            case "log" -> {
                need(args, 1, op);
                return new Typed(d.log10(d.toFloat(expr(args.get(0)).sql())), MbqlTypes.FLOAT, null);
            }
            default -> throw new IllegalStateException("Not handled here: " + op);
        }
    }

    /** Date functions: arithmetic, differences, now and today, extraction, relative and absolute dates. */
    private Typed temporalFunction(String op, List<?> args) {
        switch (op) {
            case "datetime-add", "datetime-subtract" -> {
                need(args, 3, op);
                Typed base = temporalExpr(args.get(0));
                TemporalUnit unit = intervalUnit(args.get(2));
                long amount = wholeNumber(args.get(1), "amount of " + op);
                return new Typed(d.addInterval(base.sql(), op.equals("datetime-add") ? amount : -amount, unit), base.type(), null);
            }
            case "datetime-diff" -> {
                need(args, 3, op);
                TemporalUnit unit = intervalUnit(args.get(2));
                if (unit == TemporalUnit.MILLISECOND) {
                    throw invalid("datetime-diff counts seconds at the finest.");
                }
                Sql from = temporalExpr(args.get(0)).sql();
                Sql to = temporalExpr(args.get(1)).sql();
                requireFeature(d, Feature.DATETIME_DIFF, "datetime-diff");
                return new Typed(d.datetimeDiff(unit, from, to), MbqlTypes.INTEGER, null);
            }
            case "now" -> {
                return new Typed(d.now(), MbqlTypes.DATE_TIME_LOCAL_TZ, null);
            }
            case "today" -> {
                return new Typed(d.toDate(d.now()), MbqlTypes.DATE, null);
            }
            case "get-year", "get-quarter", "get-month", "get-week", "get-day", "get-day-of-week", "get-hour", "get-minute",
                 "get-second" -> {
                need(args, 1, op);
                return new Typed(scope.temporalBucketing.extract(extractionUnit(op, args.size() > 1 ? args.get(1) : null), temporalExpr(args.get(0)).sql()),
                        MbqlTypes.INTEGER, null);
            }
            case "temporal-extract" -> {
                need(args, 2, op);
                TemporalUnit unit = TemporalUnit.of(args.get(1));
                if (unit == null || !unit.extracts()) {
                    throw invalid("Unknown unit to extract: " + describe(args.get(1)) + ".");
                }
                return new Typed(scope.temporalBucketing.extract(unit, temporalExpr(args.get(0)).sql()), MbqlTypes.INTEGER, null);
            }
            case "relative-datetime" -> {
                return new Typed(Sql.param(d.bindValue(relativeDateTime(args, null))), MbqlTypes.DATE_TIME, null);
            }
            case "absolute-datetime" -> {
                need(args, 1, op);
                Object value = temporalLiteral(args.get(0));
                TemporalUnit unit = args.size() > 1 ? TemporalUnit.of(args.get(1)) : null;
                if (unit != null && unit.truncates() && value instanceof LocalDateTime t) {
                    value = unit.truncate(t, ctx.firstDayOfWeek());
                }
                return new Typed(Sql.param(d.bindValue(value)), value instanceof LocalDate ? MbqlTypes.DATE : MbqlTypes.DATE_TIME, null);
            }
            case "date" -> {
                need(args, 1, op);
                return new Typed(d.toDate(temporalExpr(args.get(0)).sql()), MbqlTypes.DATE, null);
            }
            default -> throw new IllegalStateException("Not handled here: " + op);
        }
    }

    /** Conversions to text, integer and float. */
    private Typed conversion(String op, List<?> args) {
        switch (op) {
            case "text" -> {
                need(args, 1, op);
                return new Typed(d.toText(expr(args.get(0)).sql()), MbqlTypes.TEXT, null);
            }
            case "integer" -> {
                need(args, 1, op);
                return new Typed(d.toInteger(expr(args.get(0)).sql()), MbqlTypes.INTEGER, null);
            }
            case "float" -> {
                need(args, 1, op);
                return new Typed(d.toFloat(expr(args.get(0)).sql()), MbqlTypes.FLOAT, null);
            }
            default -> throw new IllegalStateException("Not handled here: " + op);
        }
    }

    private Typed arithmetic(String op, List<?> args) {
        need(args, 2, op);
        List<Object> intervals = new ArrayList<>();
        List<Object> others = new ArrayList<>();
        for (Object arg : args) {
            if (arg instanceof List<?> l && !l.isEmpty() && "interval".equals(l.get(0))) {
                intervals.add(arg);
            } else {
                others.add(arg);
            }
        }
        if (!intervals.isEmpty()) {
            if (op.equals("*") || others.size() != 1 || (op.equals("-") && !others.get(0).equals(args.get(0)))) {
                throw invalid("An interval can only be added to or subtracted from one date.");
            }
            Typed base = temporalExpr(others.get(0));
            Sql out = base.sql();
            for (Object interval : intervals) {
                List<?> i = (List<?>) interval;
                long amount = wholeNumber(i.size() > 1 ? i.get(1) : null, "interval amount");
                out = d.addInterval(out, op.equals("-") ? -amount : amount, intervalUnit(i.size() > 2 ? i.get(2) : null));
            }
            return new Typed(out, base.type(), null);
        }
        List<Sql> parts = new ArrayList<>();
        boolean integral = true;
        String temporal = null;
        for (Object arg : args) {
            Typed t = expr(arg);
            parts.add(t.sql());
            integral &= MbqlTypes.isInteger(t.type());
            if (MbqlTypes.isTemporal(t.type())) {
                temporal = t.type();
            }
        }
        String type = temporal != null ? temporal : integral ? MbqlTypes.INTEGER : MbqlTypes.FLOAT;
        return new Typed(Sql.join(" " + op + " ", parts).parenthesized(), type, null);
    }

    private Typed caseExpr(List<?> args) {
        if (args.isEmpty() || !(args.get(0) instanceof List<?> branches) || branches.isEmpty()) {
            throw invalid("\"case\" needs a list of [condition, value] branches.");
        }
        List<Sql> parts = new ArrayList<>();
        String type = null;
        for (Object branch : branches) {
            if (!(branch instanceof List<?> pair) || pair.size() != 2) {
                throw invalid("Every branch of \"case\" is a [condition, value] pair.");
            }
            Typed value = expr(pair.get(1));
            if (type == null && !MbqlTypes.ANY.equals(value.type())) {
                type = value.type();
            }
            parts.add(Sql.format("WHEN %s THEN %s", scope.filterCompiler.filter(pair.get(0)), value.sql()));
        }
        Object otherwise = args.size() > 1 && args.get(1) instanceof Map<?, ?> opts ? opts.get("default")
                : args.size() > 1 ? args.get(1) : null;
        if (otherwise != null) {
            Typed value = expr(otherwise);
            if (type == null) {
                type = value.type();
            }
            parts.add(Sql.format("ELSE %s", value.sql()));
        }
        return new Typed(Sql.format("CASE %s END", Sql.join(" ", parts)), type == null ? MbqlTypes.ANY : type, null);
    }

    /** An expression in a date context: text literals are dates or date-times. */
    Typed temporalExpr(Object x) {
        if (x instanceof String s) {
            Object value = temporalLiteral(s);
            return new Typed(Sql.param(d.bindValue(value)), value instanceof LocalDate ? MbqlTypes.DATE : MbqlTypes.DATE_TIME, null);
        }
        return expr(x);
    }

    private Typed literal(Object value, String baseType) {
        if (value instanceof String s && baseType != null && MbqlTypes.isTemporal(baseType)) {
            return temporalExpr(s);
        }
        if (value instanceof List<?> || value instanceof Map<?, ?>) {
            throw invalid("A value must be a number, text, a boolean or null.");
        }
        return expr(value);
    }

    /** The {@code base_type} (or {@code base-type}) of a value's options. */
    private static String baseTypeOption(Map<?, ?> options) {
        Object type = options.get("base_type") != null ? options.get("base_type") : options.get("base-type");
        if (type != null && !(type instanceof String)) {
            throw invalid("The base type of a value must be text, like \"type/Integer\".");
        }
        return (String) type;
    }

    private static TemporalUnit extractionUnit(String op, Object mode) {
        String m = mode == null ? null : String.valueOf(mode).toLowerCase(Locale.ROOT);
        return switch (op) {
            case "get-year" -> TemporalUnit.YEAR_OF_ERA;
            case "get-quarter" -> TemporalUnit.QUARTER_OF_YEAR;
            case "get-month" -> TemporalUnit.MONTH_OF_YEAR;
            case "get-week" -> "us".equals(m) ? TemporalUnit.WEEK_OF_YEAR_US
                    : "instance".equals(m) ? TemporalUnit.WEEK_OF_YEAR_INSTANCE : TemporalUnit.WEEK_OF_YEAR_ISO;
            case "get-day" -> TemporalUnit.DAY_OF_MONTH;
            case "get-day-of-week" -> "iso".equals(m) ? TemporalUnit.DAY_OF_WEEK_ISO : TemporalUnit.DAY_OF_WEEK;
            case "get-hour" -> TemporalUnit.HOUR_OF_DAY;
            case "get-minute" -> TemporalUnit.MINUTE_OF_HOUR;
            default -> TemporalUnit.SECOND_OF_MINUTE;
        };
    }

    /** {@code [n, unit]} or {@code ["current"]}: now, moved by n units and truncated to the unit. */
    LocalDateTime relativeDateTime(List<?> args, TemporalUnit columnUnit) {
        if (args.isEmpty() || "current".equals(args.get(0))) {
            TemporalUnit unit = columnUnit != null && columnUnit.truncates() ? columnUnit : null;
            return unit == null ? ctx.now() : unit.truncate(ctx.now(), ctx.firstDayOfWeek());
        }
        long amount = wholeNumber(args.get(0), "relative-datetime amount");
        TemporalUnit unit = args.size() > 1 ? intervalUnit(args.get(1)) : TemporalUnit.DAY;
        return unit.truncate(unit.plus(ctx.now(), amount), ctx.firstDayOfWeek());
    }
}
