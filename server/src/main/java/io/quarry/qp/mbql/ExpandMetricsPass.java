package io.quarry.qp.mbql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A metric used as an aggregation ({@code ["metric", 4]}) becomes its definition, wrapped in
 * {@code ["aggregation-options", definition, {}]} so that it still reads as an aggregation where arithmetic mixes
 * aggregations and expressions; the wrapper changes neither the SQL nor the column's names. Only aggregation
 * positions are expanded (the stage's aggregations, the inside of {@code aggregation-options}, the aggregations of
 * arithmetic between aggregations); elsewhere a metric stays and fails as before. A metric that uses itself fails.
 */
final class ExpandMetricsPass implements MbqlPass {
    private static final Set<String> ARITHMETIC = Set.of("+", "-", "*", "/");

    @Override
    public String name() {
        return "expand-metrics";
    }

    @Override
    public Map<String, Object> apply(Map<String, Object> query, Input input) {
        if (query.get("native") != null || !(query.get("aggregation") instanceof List<?> aggregations)) {
            return query;
        }
        Expansion expansion = new Expansion(input.context().references());
        List<Object> expanded = new ArrayList<>(aggregations.size());
        for (Object aggregation : aggregations) {
            expanded.add(expansion.aggregation(aggregation));
        }
        if (expanded.equals(aggregations)) {
            return query;
        }
        Map<String, Object> out = new LinkedHashMap<>(query);
        out.put("aggregation", expanded);
        return out;
    }

    private static final class Expansion {
        private final MbqlReferences references;
        private final Set<Long> expanding = new HashSet<>();

        Expansion(MbqlReferences references) {
            this.references = references;
        }

        /** A clause in an aggregation position, its metrics expanded. */
        Object aggregation(Object clause) {
            String op = Clauses.operator(clause);
            if (op == null) {
                return clause;
            }
            List<?> l = (List<?>) clause;
            if (op.equals("metric")) {
                return metric(l);
            }
            if (op.equals("aggregation-options") && l.size() > 1) {
                List<Object> out = new ArrayList<>(l);
                out.set(1, aggregation(l.get(1)));
                return out;
            }
            if (ARITHMETIC.contains(op)) {
                List<Object> out = new ArrayList<>(l);
                for (int i = 1; i < out.size(); i++) {
                    String argOp = Clauses.operator(out.get(i));
                    if (argOp != null && (AggregationCompiler.AGGREGATIONS.contains(argOp) || ARITHMETIC.contains(argOp))) {
                        out.set(i, aggregation(out.get(i)));
                    }
                }
                return out;
            }
            return clause;
        }

        private Object metric(List<?> clause) {
            Object id = clause.size() > 1 ? clause.get(1) : null;
            Object definition = id instanceof Number n ? references.metric(n.longValue()) : null;
            if (definition == null) {
                throw Clauses.invalid("Metric " + id + " not found.");
            }
            long metricId = ((Number) id).longValue();
            if (!expanding.add(metricId)) {
                throw Clauses.invalid("Metric " + id + " refers to itself.");
            }
            try {
                List<Object> wrapped = new ArrayList<>();
                wrapped.add("aggregation-options");
                wrapped.add(aggregation(LegacyNormalizer.clause(definition)));
                wrapped.add(new LinkedHashMap<>());
                return wrapped;
            } finally {
                expanding.remove(metricId);
            }
        }
    }
}
