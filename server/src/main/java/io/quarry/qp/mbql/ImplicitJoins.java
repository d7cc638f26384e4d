package io.quarry.qp.mbql;

import io.quarry.qp.mbql.StageScope.Implicit;
import io.quarry.qp.mbql.StageScope.Join;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The first pass of SQL generation for a stage: the implicit joins (fields reached through a foreign key with
 * {@code source-field}) its clauses need, found by walking the MBQL before any SQL is generated, in the order the
 * compilers will meet them (that order is the order of the LEFT JOINs in FROM). The walk follows references to the
 * stage's named expressions into their definitions.
 *
 * <p>The walk is lenient: a reference it cannot resolve is skipped, and the compilers, reading the same reference
 * at the same point, fail with the message they always gave.
 */
final class ImplicitJoins {
    private final Map<String, Implicit> found = new LinkedHashMap<>();

    /** The scope with the implicit joins found so far and those the clauses need, read in that scope. */
    StageScope collect(StageScope scope, List<?> clauses) {
        Set<String> expanded = new HashSet<>();
        for (Object clause : clauses) {
            walk(scope, clause, expanded);
        }
        return scope.withImplicitJoins(found);
    }

    /**
     * A stage's clauses after its joins' conditions, in the order {@link StageCompiler} compiles them: the filter, then
     * a grouped stage's breakouts, order and aggregations, or a plain stage's fields (its expressions when it lists
     * none), its joins' listed fields and its order.
     */
    static List<Object> clausesAfterJoins(Map<String, Object> q, StageScope scope) {
        List<Object> clauses = new ArrayList<>();
        clauses.add(q.get("filter"));
        if (nonEmpty(q.get("breakout")) || nonEmpty(q.get("aggregation"))) {
            clauses.add(q.get("breakout"));
            clauses.add(q.get("order-by"));
            clauses.add(q.get("aggregation"));
            return clauses;
        }
        if (q.get("fields") != null) {
            clauses.add(q.get("fields"));
        } else {
            for (String name : scope.expressions.keySet()) {
                clauses.add(List.of("expression", name));
            }
        }
        for (Join j : scope.joins.values()) {
            if (j.fields() instanceof List<?>) {
                clauses.add(j.fields());
            }
        }
        clauses.add(q.get("order-by"));
        return clauses;
    }

    private static boolean nonEmpty(Object value) {
        return value instanceof List<?> l && !l.isEmpty();
    }

    private void walk(StageScope scope, Object clause, Set<String> expanded) {
        if (clause instanceof List<?> l) {
            Object op = l.isEmpty() ? null : l.get(0);
            if ("field".equals(op)) {
                if (l.size() > 2 && l.get(2) instanceof Map<?, ?> opts && opts.get("source-field") != null) {
                    add(scope, opts.get("source-field"), opts.get("source-field-join-alias") instanceof String s ? s : null);
                }
                return;
            }
            if ("expression".equals(op) && l.size() > 1) {
                String name = String.valueOf(l.get(1));
                if (scope.expressions.containsKey(name) && expanded.add(name)) {
                    walk(scope, scope.expressions.get(name), expanded);
                }
            }
            for (Object part : l) {
                walk(scope, part, expanded);
            }
        } else if (clause instanceof Map<?, ?> m) {
            for (Object value : m.values()) {
                walk(scope, value, expanded);
            }
        }
    }

    private void add(StageScope scope, Object sourceField, String fkJoinAlias) {
        Implicit join;
        try {
            join = scope.columnCompiler.implicitJoin(sourceField, fkJoinAlias);
        } catch (RuntimeException e) {
            return;
        }
        found.putIfAbsent(join.alias(), join);
    }
}
