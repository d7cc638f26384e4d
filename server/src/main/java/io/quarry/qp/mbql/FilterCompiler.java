package io.quarry.qp.mbql;

import static io.quarry.qp.mbql.Clauses.DATE;
import static io.quarry.qp.mbql.Clauses.asDateTime;
import static io.quarry.qp.mbql.Clauses.describe;
import static io.quarry.qp.mbql.Clauses.intervalUnit;
import static io.quarry.qp.mbql.Clauses.invalid;
import static io.quarry.qp.mbql.Clauses.need;
import static io.quarry.qp.mbql.Clauses.number;
import static io.quarry.qp.mbql.Clauses.parseNumber;
import static io.quarry.qp.mbql.Clauses.parseTemporal;
import static io.quarry.qp.mbql.Clauses.ref;
import static io.quarry.qp.mbql.Clauses.temporalLiteral;
import static io.quarry.qp.mbql.Clauses.wholeNumber;

import io.quarry.driver.Sql;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.TemporalUnit;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Conditions to SQL: boolean logic, comparisons (on dates as half-open ranges on the raw column), null and
 * emptiness tests, string matching, time intervals.
 */
final class FilterCompiler {
    private final StageScope scope;
    private final MbqlCompiler.Context ctx;
    private final SqlDialect d;

    FilterCompiler(StageScope scope) {
        this.scope = scope;
        this.ctx = scope.ctx;
        this.d = scope.d;
    }

    /** A condition, as SQL. */
    Sql filter(Object x) {
        if (x instanceof Boolean b) {
            return d.booleanLiteral(b);
        }
        if (!(x instanceof List<?> l) || l.isEmpty() || !(l.get(0) instanceof String op)) {
            throw invalid("Unknown filter " + describe(x) + ".");
        }
        List<?> args = l.subList(1, l.size());
        switch (op) {
            case "and", "or" -> {
                if (args.isEmpty()) {
                    return d.booleanLiteral(op.equals("and"));
                }
                List<Sql> parts = new ArrayList<>();
                for (Object arg : args) {
                    parts.add(filter(arg));
                }
                return parts.size() == 1 ? parts.get(0) : Sql.join(op.equals("and") ? " AND " : " OR ", parts).parenthesized();
            }
            case "not" -> {
                need(args, 1, op);
                Object inner = args.get(0);
                Sql negated = Sql.format("(NOT %s)", filter(inner));
                if (inner instanceof List<?> il && !il.isEmpty() && Set.of("contains", "starts-with", "ends-with").contains(il.get(0))
                        && il.size() > 1) {
                    return Sql.format("(%s OR %s IS NULL)", negated, scope.expressionCompiler.expr(il.get(1)).sql());
                }
                return negated;
            }
            case "=", "!=", "in", "not-in" -> {
                need(args, 2, op);
                return equality(op.equals("=") || op.equals("in"), args.get(0), args.subList(1, args.size()));
            }
            case "<", ">", "<=", ">=" -> {
                need(args, 2, op);
                return comparison(op, args.get(0), args.get(1));
            }
            case "between" -> {
                need(args, 3, op);
                return between(args.get(0), args.get(1), args.get(2));
            }
            case "is-null", "not-null" -> {
                need(args, 1, op);
                return Sql.format(op.equals("is-null") ? "(%s IS NULL)" : "(%s IS NOT NULL)", scope.expressionCompiler.expr(args.get(0)).sql());
            }
            case "is-empty", "not-empty" -> {
                need(args, 1, op);
                Typed t = scope.expressionCompiler.expr(args.get(0));
                boolean text = MbqlTypes.isText(t.type());
                if (op.equals("is-empty")) {
                    return text ? Sql.format("(%s IS NULL OR %s = %s)", t.sql(), t.sql(), Sql.param(""))
                            : Sql.format("(%s IS NULL)", t.sql());
                }
                return text ? Sql.format("(%s IS NOT NULL AND %s <> %s)", t.sql(), t.sql(), Sql.param(""))
                        : Sql.format("(%s IS NOT NULL)", t.sql());
            }
            case "contains", "starts-with", "ends-with", "does-not-contain" -> {
                return stringFilter(op, args);
            }
            case "inside" -> {
                need(args, 6, op);
                Sql lat = scope.expressionCompiler.expr(args.get(0)).sql();
                Sql lon = scope.expressionCompiler.expr(args.get(1)).sql();
                return Sql.format("(%s BETWEEN %s AND %s AND %s BETWEEN %s AND %s)", lat, numberParam(args.get(4)),
                        numberParam(args.get(2)), lon, numberParam(args.get(3)), numberParam(args.get(5)));
            }
            case "time-interval" -> {
                return timeInterval(args);
            }
            case "relative-time-interval" -> {
                return relativeTimeInterval(args);
            }
            case "during" -> {
                need(args, 3, op);
                TemporalUnit unit = intervalUnit(args.get(2));
                LocalDateTime start = unit.truncate(asDateTime(temporalLiteral(args.get(1))), ctx.firstDayOfWeek());
                return range(rawColumn(args.get(0)), start, unit.plus(start, 1));
            }
            case "segment" -> throw new IllegalStateException("The pass expand-segments leaves no segment in a condition.");
            case "field", "expression" -> {
                Typed t = scope.expressionCompiler.expr(x);
                return Sql.format("(%s = %s)", t.sql(), d.booleanLiteral(true));
            }
            default -> throw invalid("Unknown filter \"" + op + "\".");
        }
    }

    private Sql equality(boolean equal, Object lhs, List<?> values) {
        Typed left = scope.expressionCompiler.expr(lhs);
        TemporalUnit unit = rangeUnit(lhs, left, values);
        if (unit != null) {
            Sql raw = rawColumn(lhs);
            List<Sql> ranges = new ArrayList<>();
            for (Object v : values) {
                LocalDateTime start = unit.truncate(temporalValue(v, unit), ctx.firstDayOfWeek());
                ranges.add(range(raw, start, unit.plus(start, 1), left.col()));
            }
            Sql any = ranges.size() == 1 ? ranges.get(0) : Sql.join(" OR ", ranges).parenthesized();
            return equal ? any : Sql.format("(NOT %s OR %s IS NULL)", any, raw);
        }
        List<Sql> params = new ArrayList<>();
        boolean hasNull = false;
        for (Object v : values) {
            if (v == null) {
                hasNull = true;
            } else {
                params.add(value(v, left));
            }
        }
        if (params.isEmpty()) {
            return Sql.format(equal ? "(%s IS NULL)" : "(%s IS NOT NULL)", left.sql());
        }
        Sql test = params.size() == 1 ? Sql.format(equal ? "%s = %s" : "%s <> %s", left.sql(), params.get(0))
                : Sql.format(equal ? "%s IN (%s)" : "%s NOT IN (%s)", left.sql(), Sql.join(", ", params));
        if (equal) {
            return hasNull ? Sql.format("(%s OR %s IS NULL)", test, left.sql()) : test.parenthesized();
        }
        // != keeps rows where the column is NULL (Metabase's rule), unless NULL itself was excluded
        return hasNull ? Sql.format("(%s AND %s IS NOT NULL)", test, left.sql()) : Sql.format("(%s OR %s IS NULL)", test, left.sql());
    }

    private Sql comparison(String op, Object lhs, Object rhs) {
        Typed left = scope.expressionCompiler.expr(lhs);
        TemporalUnit unit = rangeUnit(lhs, left, List.of(rhs));
        if (unit != null) {
            Sql raw = rawColumn(lhs);
            LocalDateTime start = unit.truncate(temporalValue(rhs, unit), ctx.firstDayOfWeek());
            LocalDateTime end = unit.plus(start, 1);
            return switch (op) {
                case "<" -> Sql.format("(%s < %s)", raw, temporalParam(start, left.col()));
                case "<=" -> Sql.format("(%s < %s)", raw, temporalParam(end, left.col()));
                case ">" -> Sql.format("(%s >= %s)", raw, temporalParam(end, left.col()));
                default -> Sql.format("(%s >= %s)", raw, temporalParam(start, left.col()));
            };
        }
        return Sql.format("(%s " + op + " %s)", left.sql(), value(rhs, left));
    }

    private Sql between(Object lhs, Object low, Object high) {
        Typed left = scope.expressionCompiler.expr(lhs);
        TemporalUnit unit = rangeUnit(lhs, left, List.of(low, high));
        if (unit != null) {
            LocalDateTime start = unit.truncate(temporalValue(low, unit), ctx.firstDayOfWeek());
            LocalDateTime end = unit.plus(unit.truncate(temporalValue(high, unit), ctx.firstDayOfWeek()), 1);
            return range(rawColumn(lhs), start, end, left.col());
        }
        return Sql.format("(%s BETWEEN %s AND %s)", left.sql(), value(low, left), value(high, left));
    }

    /**
     * The unit by which a comparison with date values becomes a half-open range on the raw column: the reference's
     * truncation unit, or day when a date-time column is compared with a plain date; null when the comparison stays
     * as written.
     */
    private TemporalUnit rangeUnit(Object lhs, Typed left, List<?> values) {
        if (values.isEmpty() || values.stream().anyMatch(v -> !isTemporalValue(v))) {
            return null;
        }
        Col col = left.col();
        if (col == null) {
            return null;
        }
        if (col.unit != null && col.unit != col.upstreamUnit) {
            return col.unit.truncates() ? col.unit : null;
        }
        if (col.unit != null) {
            return null;
        }
        if (!MbqlTypes.hasDate(col.effectiveType)) {
            return null;
        }
        boolean dateOnly = MbqlTypes.isDateOnly(col.effectiveType);
        for (Object v : values) {
            if (v instanceof String s && DATE.matcher(s).matches() && !dateOnly) {
                return TemporalUnit.DAY;
            }
            if (v instanceof List<?> rel && "relative-datetime".equals(rel.get(0)) && rel.size() > 2) {
                TemporalUnit unit = TemporalUnit.of(rel.get(2));
                return unit != null && unit.truncates() ? unit : null;
            }
        }
        return null;
    }

    private static boolean isTemporalValue(Object v) {
        if (v instanceof String s) {
            return parseTemporal(s) != null;
        }
        return v instanceof List<?> l && !l.isEmpty() && ("relative-datetime".equals(l.get(0)) || "absolute-datetime".equals(l.get(0)));
    }

    /** A date value of a filter, as the local date-time it denotes. */
    private LocalDateTime temporalValue(Object v, TemporalUnit unit) {
        if (v instanceof List<?> l && "relative-datetime".equals(l.get(0))) {
            return scope.expressionCompiler.relativeDateTime(l.subList(1, l.size()), unit);
        }
        if (v instanceof List<?> l && "absolute-datetime".equals(l.get(0))) {
            return asDateTime(temporalLiteral(l.size() > 1 ? l.get(1) : null));
        }
        return asDateTime(temporalLiteral(v));
    }

    /** The column a reference names, without its temporal unit (the raw values a date range compares). */
    private Sql rawColumn(Object ref) {
        Typed t = scope.expressionCompiler.expr(ref);
        if (t.col() != null && t.col().raw != null) {
            return t.col().raw;
        }
        return t.sql();
    }

    private Sql range(Sql raw, LocalDateTime start, LocalDateTime end) {
        return range(raw, start, end, null);
    }

    /** {@code start <= raw < end}. */
    private Sql range(Sql raw, LocalDateTime start, LocalDateTime end, Col col) {
        return Sql.format("(%s >= %s AND %s < %s)", raw, temporalParam(start, col), raw, temporalParam(end, col));
    }

    /** A date bound typed like the column: a date for date columns, an instant in UTC for time-zoned ones. */
    private Sql temporalParam(LocalDateTime t, Col col) {
        Object value = t;
        if (col != null && MbqlTypes.isDateOnly(col.effectiveType) && t.toLocalTime().equals(java.time.LocalTime.MIDNIGHT)) {
            value = t.toLocalDate();
        } else if (col != null && MbqlTypes.isTimeZoned(col.effectiveType)) {
            value = t.atOffset(ZoneOffset.UTC);
        }
        return Sql.param(d.bindValue(value));
    }

    private Sql timeInterval(List<?> args) {
        need(args, 3, "time-interval");
        TemporalUnit unit = intervalUnit(args.get(2));
        Object n = args.get(1);
        long amount;
        if (n instanceof String s) {
            amount = switch (s.toLowerCase(Locale.ROOT)) {
                case "current" -> 0;
                case "last" -> -1;
                case "next" -> 1;
                default -> throw invalid("time-interval takes a number, \"current\", \"last\" or \"next\".");
            };
        } else {
            amount = wholeNumber(n, "time-interval amount");
        }
        boolean includeCurrent = args.size() > 3 && args.get(3) instanceof Map<?, ?> opts
                && Boolean.TRUE.equals(opts.get("include-current") != null ? opts.get("include-current") : opts.get("include_current"));
        LocalDateTime current = unit.truncate(ctx.now(), ctx.firstDayOfWeek());
        LocalDateTime start;
        LocalDateTime end;
        if (amount == 0) {
            start = current;
            end = unit.plus(current, 1);
        } else if (amount < 0) {
            start = unit.plus(current, amount);
            end = includeCurrent ? unit.plus(current, 1) : current;
        } else {
            start = includeCurrent ? current : unit.plus(current, 1);
            end = unit.plus(current, amount + 1);
        }
        Typed col = scope.expressionCompiler.expr(args.get(0));
        return range(rawColumn(args.get(0)), start, end, col.col());
    }

    private Sql relativeTimeInterval(List<?> args) {
        need(args, 5, "relative-time-interval");
        long value = wholeNumber(args.get(1), "relative-time-interval amount");
        TemporalUnit unit = intervalUnit(args.get(2));
        long offset = wholeNumber(args.get(3), "relative-time-interval offset");
        TemporalUnit offsetUnit = intervalUnit(args.get(4));
        LocalDateTime current = unit.truncate(ctx.now(), ctx.firstDayOfWeek());
        LocalDateTime start = value < 0 ? unit.plus(current, value) : unit.plus(current, 1);
        LocalDateTime end = value < 0 ? current : unit.plus(current, value + 1);
        start = offsetUnit.plus(start, offset);
        end = offsetUnit.plus(end, offset);
        Typed col = scope.expressionCompiler.expr(args.get(0));
        return range(rawColumn(args.get(0)), start, end, col.col());
    }

    private Sql stringFilter(String op, List<?> args) {
        // [op, field, value, opts] (legacy) or [op, {opts}, field, value, value...] (several values)
        Map<?, ?> opts = null;
        List<?> rest = args;
        if (!args.isEmpty() && args.get(0) instanceof Map<?, ?> m) {
            opts = m;
            rest = args.subList(1, args.size());
        } else if (!args.isEmpty() && args.get(args.size() - 1) instanceof Map<?, ?> m) {
            opts = m;
            rest = args.subList(0, args.size() - 1);
        }
        need(rest, 2, op);
        boolean caseSensitive = opts == null || !Boolean.FALSE.equals(opts.get("case-sensitive") != null
                ? opts.get("case-sensitive") : opts.get("case_sensitive"));
        Typed field = scope.expressionCompiler.expr(rest.get(0));
        Sql subject = MbqlTypes.isText(field.type()) || MbqlTypes.ANY.equals(field.type()) ? field.sql() : d.toText(field.sql());
        if (!caseSensitive) {
            subject = Sql.format("LOWER(%s)", subject);
        }
        String likeOp = op.equals("does-not-contain") ? "contains" : op;
        List<Sql> tests = new ArrayList<>();
        for (Object value : rest.subList(1, rest.size())) {
            Sql pattern;
            if (value instanceof String s) {
                String escaped = s.replace("!", "!!").replace("%", "!%").replace("_", "!_");
                if (!caseSensitive) {
                    escaped = escaped.toLowerCase(Locale.ROOT);
                }
                pattern = Sql.param(switch (likeOp) {
                    case "starts-with" -> escaped + "%";
                    case "ends-with" -> "%" + escaped;
                    default -> "%" + escaped + "%";
                });
                tests.add(Sql.format("%s LIKE %s ESCAPE '!'", subject, pattern));
            } else {
                Sql v = scope.expressionCompiler.expr(value).sql();
                List<Sql> parts = new ArrayList<>();
                if (!likeOp.equals("starts-with")) {
                    parts.add(Sql.param("%"));
                }
                parts.add(v);
                if (!likeOp.equals("ends-with")) {
                    parts.add(Sql.param("%"));
                }
                Sql p = d.concat(parts);
                tests.add(Sql.format("%s LIKE %s", subject, caseSensitive ? p : Sql.format("LOWER(%s)", p)));
            }
        }
        if (op.equals("does-not-contain")) {
            List<Sql> negated = new ArrayList<>();
            for (Sql t : tests) {
                negated.add(Sql.format("(NOT (%s) OR %s IS NULL)", t, field.sql()));
            }
            return negated.size() == 1 ? negated.get(0) : Sql.join(" AND ", negated).parenthesized();
        }
        return tests.size() == 1 ? tests.get(0).parenthesized() : Sql.join(" OR ", tests).parenthesized();
    }

    /** A literal compared with {@code against}, bound as the type the column needs. */
    private Sql value(Object v, Typed against) {
        if (v instanceof List<?> || v instanceof Map<?, ?>) {
            if (v instanceof List<?> l && !l.isEmpty() && "value".equals(l.get(0))) {
                return value(l.size() > 1 ? l.get(1) : null, against);
            }
            return scope.expressionCompiler.expr(v).sql();
        }
        String type = against.type() == null ? MbqlTypes.ANY : against.type();
        Object bound = v;
        if (v instanceof String s) {
            if (MbqlTypes.isNumber(type)) {
                bound = parseNumber(s);
            } else if (MbqlTypes.isTemporal(type)) {
                Object t = parseTemporal(s);
                if (t != null) {
                    bound = MbqlTypes.isDateOnly(type) && t instanceof LocalDateTime ldt ? ldt.toLocalDate()
                            : !MbqlTypes.isDateOnly(type) && t instanceof LocalDate ld ? ld.atStartOfDay()
                            : MbqlTypes.isTimeZoned(type) && t instanceof LocalDateTime ldt ? ldt.atOffset(ZoneOffset.UTC) : t;
                }
            } else if (MbqlTypes.isa(type, MbqlTypes.BOOLEAN) && ("true".equalsIgnoreCase(s) || "false".equalsIgnoreCase(s))) {
                bound = Boolean.parseBoolean(s);
            } else if (MbqlTypes.isa(type, MbqlTypes.UUID) && d.hasUuidType()) {
                try {
                    bound = java.util.UUID.fromString(s);
                } catch (IllegalArgumentException notUuid) {
                    return Sql.param(s); // compared as text below
                }
            }
        } else if (v instanceof Number n) {
            bound = MbqlTypes.isText(type) ? String.valueOf(number(n)) : number(n);
        }
        return Sql.param(d.bindValue(bound));
    }

    private Sql numberParam(Object v) {
        if (!(v instanceof Number n)) {
            throw invalid("\"inside\" takes numbers for its bounds.");
        }
        return Sql.param(number(n));
    }
}
