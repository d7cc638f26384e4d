package io.quarry.qp.mbql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A segment used as a condition ({@code ["segment", 3]}) becomes its filter, wrapped in {@code ["and", filter]} (the
 * same SQL, and a {@code not} around it negates it exactly as it negated the segment). Expanded wherever a condition
 * or an expression may stand: the stage's filter, expressions, aggregations' arguments, order-by and join conditions;
 * not in breakouts or fields (a segment there fails as before), nor as an aggregation itself. A segment that uses
 * itself fails.
 */
final class ExpandSegmentsPass implements MbqlPass {
    @Override
    public String name() {
        return "expand-segments";
    }

    @Override
    public Map<String, Object> apply(Map<String, Object> query, Input input) {
        if (query.get("native") != null) {
            return query;
        }
        Expansion expansion = new Expansion(input.context().references());
        Map<String, Object> out = new LinkedHashMap<>(query);
        if (query.get("filter") != null) {
            out.put("filter", expansion.expression(query.get("filter")));
        }
        if (query.get("expressions") instanceof Map<?, ?> expressions) {
            Map<String, Object> expanded = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : expressions.entrySet()) {
                expanded.put(String.valueOf(e.getKey()), expansion.expression(e.getValue()));
            }
            out.put("expressions", expanded);
        }
        if (query.get("aggregation") instanceof List<?> aggregations) {
            List<Object> expanded = new ArrayList<>();
            for (Object aggregation : aggregations) {
                expanded.add(expansion.aggregation(aggregation));
            }
            out.put("aggregation", expanded);
        }
        if (query.get("order-by") instanceof List<?> orderBy) {
            List<Object> expanded = new ArrayList<>();
            for (Object clause : orderBy) {
                expanded.add(clause instanceof List<?> l && l.size() == 2 && ("asc".equals(l.get(0)) || "desc".equals(l.get(0)))
                        ? java.util.Arrays.asList(l.get(0), expansion.expression(l.get(1))) : clause);
            }
            out.put("order-by", expanded);
        }
        if (query.get("joins") instanceof List<?> joins) {
            List<Object> expanded = new ArrayList<>();
            for (Object join : joins) {
                if (join instanceof Map<?, ?> j && j.get("condition") != null) {
                    Map<String, Object> copy = new LinkedHashMap<>(Clauses.cast(j));
                    copy.put("condition", expansion.expression(j.get("condition")));
                    expanded.add(copy);
                } else {
                    expanded.add(join);
                }
            }
            out.put("joins", expanded);
        }
        return out.equals(query) ? query : out;
    }

    private static final class Expansion {
        private final MbqlReferences references;
        private final Set<Long> expanding = new HashSet<>();

        Expansion(MbqlReferences references) {
            this.references = references;
        }

        /** An aggregation: expanded inside, but a segment as the aggregation itself stays (it is no aggregation). */
        Object aggregation(Object clause) {
            String op = Clauses.operator(clause);
            if (op == null || op.equals("segment")) {
                return clause;
            }
            List<?> l = (List<?>) clause;
            List<Object> out = new ArrayList<>(l.size());
            out.add(op);
            for (int i = 1; i < l.size(); i++) {
                out.add(op.equals("aggregation-options") && i == 1 ? aggregation(l.get(i)) : expression(l.get(i)));
            }
            return out;
        }

        /** A condition or expression (or any list or options of them), every segment in it expanded. */
        Object expression(Object clause) {
            if (clause instanceof Map<?, ?> map) {
                Map<Object, Object> out = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    out.put(e.getKey(), expression(e.getValue()));
                }
                return out;
            }
            if (!(clause instanceof List<?> l)) {
                return clause;
            }
            if ("segment".equals(Clauses.operator(l))) {
                return segment(l.subList(1, l.size()));
            }
            List<Object> out = new ArrayList<>(l.size());
            for (Object item : l) {
                out.add(expression(item));
            }
            return out;
        }

        private Object segment(List<?> args) {
            Clauses.need(args, 1, "segment");
            if (!(args.get(0) instanceof Number id)) {
                throw Clauses.invalid("A segment is referred to by its id.");
            }
            Object definition = references.segment(id.longValue());
            if (definition == null) {
                throw Clauses.invalid("Segment " + id + " not found.");
            }
            if (!expanding.add(id.longValue())) {
                throw Clauses.invalid("Segment " + id + " refers to itself.");
            }
            try {
                List<Object> and = new ArrayList<>();
                and.add("and");
                and.add(expression(LegacyNormalizer.clause(definition)));
                return and;
            } finally {
                expanding.remove(id.longValue());
            }
        }
    }
}
