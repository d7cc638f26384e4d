package io.quarry.qp.mbql;

import io.quarry.qp.QueryFailure;
import io.quarry.qp.nativeq.DateParams;
import io.quarry.qp.nativeq.TemplateException;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parameters of a structured query (dashboard and question filters) as filter clauses: each parameter that targets a
 * column ({@code ["dimension", <field ref>]}) and has a value becomes one clause, by its type — {@code category},
 * {@code string/contains}, {@code number/between}, {@code date/relative} … — and all of them are added to the query's
 * last stage with AND. Values stay values: they reach SQL as bind parameters like any other filter value.
 */
final class MbqlParameters {
    private MbqlParameters() {
    }

    /** The inner query with the parameters' filters added. */
    static Map<String, Object> apply(Map<String, Object> inner, List<Map<String, Object>> parameters, LocalDateTime now,
                                     DayOfWeek firstDayOfWeek) {
        if (parameters == null || parameters.isEmpty()) {
            return inner;
        }
        List<Object> filters = new ArrayList<>();
        for (Map<String, Object> parameter : parameters) {
            Object clause = filter(parameter, now, firstDayOfWeek);
            if (clause != null) {
                filters.add(clause);
            }
        }
        if (filters.isEmpty()) {
            return inner;
        }
        Map<String, Object> out = new LinkedHashMap<>(inner);
        List<Object> and = new ArrayList<>();
        and.add("and");
        if (inner.get("filter") != null) {
            and.add(inner.get("filter"));
        }
        and.addAll(filters);
        out.put("filter", and.size() == 2 ? and.get(1) : and);
        return out;
    }

    /** The filter clause for one parameter, or null when it has no value or does not target a column. */
    static Object filter(Map<String, Object> parameter, LocalDateTime now, DayOfWeek firstDayOfWeek) {
        Object target = parameter.get("target");
        if (!(target instanceof List<?> t) || t.size() < 2 || !"dimension".equals(t.get(0)) || !(t.get(1) instanceof List<?> ref)
                || ref.isEmpty() || !("field".equals(ref.get(0)) || "expression".equals(ref.get(0)))) {
            return null;
        }
        List<Object> values = values(parameter.get("value"));
        if (values.isEmpty()) {
            return null;
        }
        Object column = LegacyNormalizer.clause(ref);
        String type = parameter.get("type") == null ? "category" : String.valueOf(parameter.get("type")).toLowerCase(Locale.ROOT);
        if (type.startsWith("date/") || type.equals("date")) {
            return dateFilter(withoutUnit(column), values, now, firstDayOfWeek);
        }
        boolean caseSensitive = parameter.get("options") instanceof Map<?, ?> options
                && Boolean.TRUE.equals(options.get("case-sensitive"));
        return switch (type) {
            case "string/!=", "number/!=" -> clause("!=", column, values);
            case "string/contains", "string/does-not-contain", "string/starts-with", "string/ends-with" -> {
                String op = type.substring("string/".length());
                List<Object> each = new ArrayList<>();
                for (Object value : values) {
                    each.add(new ArrayList<>(List.of(op, column, value, Map.of("case-sensitive", caseSensitive))));
                }
                yield each.size() == 1 ? each.get(0) : combine(op.equals("does-not-contain") ? "and" : "or", each);
            }
            case "number/between" -> {
                Object low = values.get(0);
                Object high = values.size() > 1 ? values.get(1) : null;
                if (low != null && high != null) {
                    yield new ArrayList<>(List.of("between", column, low, high));
                }
                yield low != null ? new ArrayList<>(List.of(">=", column, low)) : new ArrayList<>(List.of("<=", column, high));
            }
            case "number/>=" -> new ArrayList<>(List.of(">=", column, values.get(0)));
            case "number/<=" -> new ArrayList<>(List.of("<=", column, values.get(0)));
            default -> clause("=", column, values);
        };
    }

    private static Object dateFilter(Object column, List<Object> values, LocalDateTime now, DayOfWeek firstDayOfWeek) {
        List<Object> each = new ArrayList<>();
        for (Object value : values) {
            DateParams.Range range;
            try {
                range = DateParams.parse(String.valueOf(value), now, firstDayOfWeek);
            } catch (TemplateException e) {
                throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, e.getMessage());
            }
            List<Object> bounds = new ArrayList<>();
            if (range.start() != null) {
                bounds.add(new ArrayList<>(List.of(">=", column, range.start().toString())));
            }
            if (range.end() != null) {
                bounds.add(new ArrayList<>(List.of("<", column, range.end().toString())));
            }
            each.add(bounds.size() == 1 ? bounds.get(0) : combine("and", bounds));
        }
        return each.size() == 1 ? each.get(0) : combine("or", each);
    }

    private static List<Object> values(Object value) {
        List<Object> values = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (Object v : list) {
                values.add(v);
            }
            if (values.stream().allMatch(v -> v == null)) {
                values.clear();
            }
        } else if (value != null && !(value instanceof String s && s.isEmpty())) {
            values.add(value);
        }
        return values;
    }

    private static List<Object> clause(String op, Object column, List<Object> values) {
        List<Object> clause = new ArrayList<>();
        clause.add(op);
        clause.add(column);
        clause.addAll(values);
        return clause;
    }

    private static List<Object> combine(String op, List<Object> clauses) {
        List<Object> out = new ArrayList<>();
        out.add(op);
        out.addAll(clauses);
        return out;
    }

    /** A date parameter compares the column's own values, whatever unit the reference carries. */
    @SuppressWarnings("unchecked")
    private static Object withoutUnit(Object ref) {
        if (ref instanceof List<?> l && l.size() > 2 && l.get(2) instanceof Map<?, ?> opts && opts.containsKey("temporal-unit")) {
            List<Object> out = new ArrayList<>((List<Object>) l);
            Map<String, Object> o = new LinkedHashMap<>((Map<String, Object>) opts);
            o.remove("temporal-unit");
            out.set(2, o.isEmpty() ? null : o);
            return out;
        }
        return ref;
    }
}
