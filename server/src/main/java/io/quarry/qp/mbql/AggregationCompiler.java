package io.quarry.qp.mbql;

import static io.quarry.qp.mbql.Clauses.describe;
import static io.quarry.qp.mbql.Clauses.integral;
import static io.quarry.qp.mbql.Clauses.invalid;
import static io.quarry.qp.mbql.Clauses.need;
import static io.quarry.qp.mbql.Clauses.number;
import static io.quarry.qp.mbql.Clauses.requireFeature;

import io.quarry.driver.Feature;
import io.quarry.driver.Sql;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.TemporalUnit;
import io.quarry.qp.mbql.StageScope.OrderEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Aggregations to SQL, with their names and display names; cumulative ones as window functions over the
 * breakouts.
 */
final class AggregationCompiler {
    private final StageScope scope;
    private final MbqlCompiler.Context ctx;
    private final SqlDialect d;

    AggregationCompiler(StageScope scope) {
        this.scope = scope;
        this.ctx = scope.ctx;
        this.d = scope.d;
    }

    static final Set<String> AGGREGATIONS = Set.of("count", "cum-count", "sum", "cum-sum", "avg", "distinct", "min", "max",
            "stddev", "var", "median", "percentile", "share", "count-where", "sum-where", "distinct-where", "metric",
            "aggregation-options");

    static boolean hasCumulative(Object clause) {
        if (clause instanceof List<?> l) {
            if (!l.isEmpty() && ("cum-sum".equals(l.get(0)) || "cum-count".equals(l.get(0)))) {
                return true;
            }
            for (Object item : l) {
                if (hasCumulative(item)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A compiled aggregation. */
    record Agg(Sql sql, String name, String displayName, String baseType, String semanticType) {
    }

    Agg aggregation(Object clause, int index) {
        if (!(clause instanceof List<?> l) || l.isEmpty() || !(l.get(0) instanceof String op)) {
            throw invalid("Unknown aggregation " + describe(clause) + ".");
        }
        if (op.equals("aggregation-options")) {
            Agg inner = aggregation(l.size() > 1 ? l.get(1) : null, index);
            Map<?, ?> opts = l.size() > 2 && l.get(2) instanceof Map<?, ?> m ? m : Map.of();
            String name = opts.get("name") instanceof String s && !s.isBlank() ? s : inner.name();
            String display = opts.get("display-name") instanceof String s && !s.isBlank() ? s
                    : opts.get("name") instanceof String s && !s.isBlank() ? s : inner.displayName();
            return new Agg(inner.sql(), name, display, inner.baseType(), inner.semanticType());
        }
        if (op.equals("metric")) {
            throw new IllegalStateException("The pass expand-metrics leaves no metric in an aggregation.");
        }
        List<?> args = l.subList(1, l.size());
        switch (op) {
            case "count" -> {
                if (args.isEmpty()) {
                    return new Agg(Sql.raw("COUNT(*)"), "count", "Count", MbqlTypes.BIG_INTEGER, "type/Quantity");
                }
                Typed t = scope.expressionCompiler.expr(args.get(0));
                return new Agg(Sql.format("COUNT(%s)", t.sql()), "count", "Count of " + display(args.get(0)), MbqlTypes.BIG_INTEGER,
                        "type/Quantity");
            }
            case "cum-count" -> {
                Sql count = args.isEmpty() ? Sql.raw("COUNT(*)") : Sql.format("COUNT(%s)", scope.expressionCompiler.expr(args.get(0)).sql());
                String display = args.isEmpty() ? "Cumulative count" : "Cumulative count of " + display(args.get(0));
                return new Agg(cumulative(count), "cum_count", display, MbqlTypes.BIG_INTEGER, "type/Quantity");
            }
            case "sum", "cum-sum", "min", "max" -> {
                need(args, 1, op);
                Typed t = scope.expressionCompiler.expr(args.get(0));
                String semantic = t.col() == null || isKey(t.col().semanticType) ? null : t.col().semanticType;
                String type = MbqlTypes.ANY.equals(t.type()) ? MbqlTypes.FLOAT : t.type();
                return switch (op) {
                    case "sum" -> new Agg(Sql.format("SUM(%s)", t.sql()), "sum", "Sum of " + display(args.get(0)), type, semantic);
                    case "cum-sum" -> new Agg(cumulative(Sql.format("SUM(%s)", t.sql())), "sum",
                            "Cumulative sum of " + display(args.get(0)), type, semantic);
                    case "min" -> new Agg(Sql.format("MIN(%s)", t.sql()), "min", "Min of " + display(args.get(0)), t.type(), semantic);
                    default -> new Agg(Sql.format("MAX(%s)", t.sql()), "max", "Max of " + display(args.get(0)), t.type(), semantic);
                };
            }
            case "avg" -> {
                need(args, 1, op);
                Typed t = scope.expressionCompiler.expr(args.get(0));
                return new Agg(Sql.format("AVG(%s)", numeric(t)), "avg", "Average of " + display(args.get(0)), MbqlTypes.FLOAT, null);
            }
            case "distinct" -> {
                need(args, 1, op);
                return new Agg(Sql.format("COUNT(DISTINCT %s)", scope.expressionCompiler.expr(args.get(0)).sql()), "count",
                        "Distinct values of " + display(args.get(0)), MbqlTypes.BIG_INTEGER, "type/Quantity");
            }
            case "stddev", "var", "median", "percentile" -> {
                return statistic(op, args);
            }
            case "share", "count-where", "sum-where", "distinct-where" -> {
                return conditional(op, args);
            }
            case "+", "-", "*", "/" -> {
                return arithmetic(op, args, index);
            }
            default -> throw invalid("Unknown aggregation \"" + op + "\".");
        }
    }

    /** Statistics of a numeric column: standard deviation, variance, median, percentiles. */
    private Agg statistic(String op, List<?> args) {
        switch (op) {
            case "stddev" -> {
                need(args, 1, op);
                Sql column = numeric(scope.expressionCompiler.expr(args.get(0)));
                requireFeature(d, Feature.STANDARD_DEVIATION_AGGREGATIONS, "Standard deviation");
                return new Agg(d.stddev(column), "stddev", "Standard deviation of " + display(args.get(0)),
                        MbqlTypes.FLOAT, null);
            }
            case "var" -> {
                need(args, 1, op);
                Sql column = numeric(scope.expressionCompiler.expr(args.get(0)));
                requireFeature(d, Feature.STANDARD_DEVIATION_AGGREGATIONS, "Variance");
                return new Agg(d.variance(column), "var", "Variance of " + display(args.get(0)),
                        MbqlTypes.FLOAT, null);
            }
            case "median" -> {
                need(args, 1, op);
                Sql column = numeric(scope.expressionCompiler.expr(args.get(0)));
                requireFeature(d, Feature.PERCENTILE_AGGREGATIONS, "Median");
                return new Agg(d.median(column), "median", "Median of " + display(args.get(0)), MbqlTypes.FLOAT,
                        null);
            }
            case "percentile" -> {
                need(args, 2, op);
                if (!(args.get(1) instanceof Number p) || p.doubleValue() < 0 || p.doubleValue() > 1) {
                    throw invalid("A percentile is a number from 0 to 1.");
                }
                Sql column = numeric(scope.expressionCompiler.expr(args.get(0)));
                requireFeature(d, Feature.PERCENTILE_AGGREGATIONS, "Percentile");
                return new Agg(d.percentile(column, p.doubleValue()), "percentile",
                        number(p) + "th percentile of " + display(args.get(0)), MbqlTypes.FLOAT, null);
            }
            default -> throw new IllegalStateException("Not handled here: " + op);
        }
    }

    /** Aggregations of the rows matching a condition: share, count, sum and distinct count. */
    private Agg conditional(String op, List<?> args) {
        switch (op) {
            case "share" -> {
                need(args, 1, op);
                // a float division: MySQL divides exact numbers to 4 decimal places only
                Sql matching = d.toFloat(Sql.format("SUM(CASE WHEN %s THEN 1 ELSE 0 END)", scope.filterCompiler.filter(args.get(0))));
                return new Agg(Sql.format("(%s / NULLIF(COUNT(*), 0))", matching),
                        "share", "Share of rows matching condition", MbqlTypes.FLOAT, null);
            }
            case "count-where" -> {
                need(args, 1, op);
                return new Agg(Sql.format("SUM(CASE WHEN %s THEN 1 ELSE 0 END)", scope.filterCompiler.filter(args.get(0))), "count-where",
                        "Count of rows matching condition", MbqlTypes.BIG_INTEGER, "type/Quantity");
            }
            case "sum-where" -> {
                need(args, 2, op);
                Typed t = scope.expressionCompiler.expr(args.get(0));
                return new Agg(Sql.format("SUM(CASE WHEN %s THEN %s ELSE 0 END)", scope.filterCompiler.filter(args.get(1)), t.sql()),
                        "sum_where_" + columnName(t, args.get(0)), "Sum of " + display(args.get(0)) + " matching condition",
                        MbqlTypes.ANY.equals(t.type()) ? MbqlTypes.FLOAT : t.type(), null);
            }
            case "distinct-where" -> {
                need(args, 2, op);
                return new Agg(Sql.format("COUNT(DISTINCT CASE WHEN %s THEN %s END)", scope.filterCompiler.filter(args.get(1)), scope.expressionCompiler.expr(args.get(0)).sql()),
                        "distinct_where_" + columnName(scope.expressionCompiler.expr(args.get(0)), args.get(0)),
                        "Distinct values of " + display(args.get(0)) + " matching condition", MbqlTypes.BIG_INTEGER, null);
            }
            default -> throw new IllegalStateException("Not handled here: " + op);
        }
    }

    /** Arithmetic between aggregations (and expressions): {@code ["/", ["sum", x], ["count"]]}. */
    private Agg arithmetic(String op, List<?> args, int index) {
        switch (op) {
            case "+", "-", "*", "/" -> {
                need(args, 2, op);
                List<Sql> parts = new ArrayList<>();
                List<String> displays = new ArrayList<>();
                boolean integral = !op.equals("/");
                for (Object arg : args) {
                    Typed part;
                    String partDisplay;
                    if (arg instanceof List<?> al && !al.isEmpty() && (AGGREGATIONS.contains(String.valueOf(al.get(0)))
                            || Set.of("+", "-", "*", "/").contains(String.valueOf(al.get(0))))) {
                        Agg inner = aggregation(arg, index);
                        part = new Typed(inner.sql(), inner.baseType(), null);
                        partDisplay = inner.displayName();
                    } else {
                        part = scope.expressionCompiler.expr(arg);
                        partDisplay = display(arg);
                    }
                    integral &= MbqlTypes.isInteger(part.type());
                    parts.add(op.equals("/") ? d.toFloat(part.sql()) : part.sql());
                    displays.add(partDisplay);
                }
                Sql sql;
                if (op.equals("/")) {
                    sql = parts.get(0);
                    for (Sql denominator : parts.subList(1, parts.size())) {
                        sql = Sql.format("(%s / NULLIF(%s, 0))", sql, denominator);
                    }
                } else {
                    sql = Sql.join(" " + op + " ", parts).parenthesized();
                }
                String symbol = switch (op) {
                    case "*" -> "×";
                    case "/" -> "÷";
                    default -> op;
                };
                return new Agg(sql, "expression", String.join(" " + symbol + " ", displays),
                        integral ? MbqlTypes.BIG_INTEGER : MbqlTypes.FLOAT, null);
            }
            default -> throw new IllegalStateException("Not handled here: " + op);
        }
    }

    private Sql numeric(Typed t) {
        return MbqlTypes.isInteger(t.type()) ? d.toFloat(t.sql()) : t.sql();
    }

    private static boolean isKey(String semanticType) {
        return "type/PK".equals(semanticType) || "type/FK".equals(semanticType);
    }

    private String columnName(Typed t, Object clause) {
        return t.col() != null ? t.col().name : "expression";
    }

    /**
     * A running total over the groups, as Metabase computes cumulative aggregations: summed over the rows ordered by
     * the query's order, partitioned by every breakout but the finest date (or the last one). Without breakouts it
     * is the plain aggregate.
     */
    private Sql cumulative(Sql aggregate) {
        if (scope.grouping.breakoutRefs().isEmpty()) {
            return aggregate;
        }
        int main = scope.grouping.breakoutRefs().size() - 1;
        TemporalUnit finest = null;
        for (int i = 0; i < scope.grouping.breakoutCols().size(); i++) {
            TemporalUnit u = scope.grouping.breakoutCols().get(i).unit;
            if (u != null && u.truncates() && (finest == null || u.ordinal() < finest.ordinal())) {
                finest = u;
                main = i;
            }
        }
        List<Sql> partition = new ArrayList<>();
        for (int i = 0; i < scope.grouping.breakoutRefs().size(); i++) {
            if (i != main) {
                partition.add(scope.grouping.breakoutRefs().get(i));
            }
        }
        List<Sql> orderBy = new ArrayList<>();
        boolean mainOrdered = false;
        for (OrderEntry e : scope.grouping.order()) {
            if (e.breakout() >= 0) {
                orderBy.add(Sql.format("%s " + e.direction(), scope.grouping.breakoutRefs().get(e.breakout())));
                mainOrdered |= e.breakout() == main;
            }
        }
        if (!mainOrdered) {
            orderBy.add(Sql.format("%s ASC", scope.grouping.breakoutRefs().get(main)));
        }
        Sql over = partition.isEmpty() ? Sql.format("ORDER BY %s", Sql.join(", ", orderBy))
                : Sql.format("PARTITION BY %s ORDER BY %s", Sql.join(", ", partition), Sql.join(", ", orderBy));
        return Sql.format("SUM(%s) OVER (%s ROWS UNBOUNDED PRECEDING)", aggregate, over);
    }

    /** How an aggregation's argument reads in a display name ("Total", "Product → Price", "my expression"). */
    private String display(Object clause) {
        if (clause instanceof List<?> l && !l.isEmpty() && ("field".equals(l.get(0)) || "expression".equals(l.get(0)))) {
            return scope.unnested().columnCompiler.column(l).displayName;
        }
        if (clause instanceof List<?> l && !l.isEmpty() && Set.of("+", "-", "*", "/").contains(String.valueOf(l.get(0)))) {
            List<String> parts = new ArrayList<>();
            for (Object arg : l.subList(1, l.size())) {
                parts.add(display(arg));
            }
            String symbol = switch (String.valueOf(l.get(0))) {
                case "*" -> "×";
                case "/" -> "÷";
                default -> String.valueOf(l.get(0));
            };
            return String.join(" " + symbol + " ", parts);
        }
        if (clause instanceof Number || clause instanceof String) {
            return String.valueOf(clause);
        }
        return "Custom expression";
    }
}
