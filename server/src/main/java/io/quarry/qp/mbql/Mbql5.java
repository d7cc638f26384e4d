package io.quarry.qp.mbql;

import io.quarry.qp.QueryFailure;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * MBQL 5 ({@code "lib/type": "mbql/query"} with {@code stages}) into the legacy inner query the compiler reads: each
 * stage becomes the {@code source-query} of the next, {@code [op, {options}, args...]} clauses become legacy clauses,
 * {@code source-card} becomes {@code "card__N"}, aggregation references by uuid become indexes, and options Metabase
 * keeps elsewhere in legacy MBQL move there (names of aggregations and expressions, {@code include-current},
 * {@code case-sensitive}, {@code default} of {@code case}).
 */
final class Mbql5 {
    private static final Set<String> STRING_FILTERS = Set.of("contains", "does-not-contain", "starts-with", "ends-with");

    private final Map<String, Integer> aggregationIndexes = new HashMap<>();

    private Mbql5() {
    }

    /** The last stage as a legacy inner query, the earlier ones nested in it. */
    static Map<String, Object> toLegacy(List<?> stages) {
        if (stages == null || stages.isEmpty()) {
            throw invalid("An MBQL 5 query needs at least one stage.");
        }
        Map<String, Object> current = null;
        for (int i = 0; i < stages.size(); i++) {
            if (!(stages.get(i) instanceof Map<?, ?> stage)) {
                throw invalid("Every stage of an MBQL 5 query must be an object.");
            }
            boolean nativeStage = "mbql.stage/native".equals(stage.get("lib/type"));
            if (nativeStage && i > 0) {
                throw invalid("Only the first stage of a query may be native.");
            }
            Map<String, Object> legacy = nativeStage ? nativeStage(stage) : new Mbql5().stage(stage);
            if (current != null) {
                legacy.put("source-query", current);
            }
            current = legacy;
        }
        return current;
    }

    private static Map<String, Object> nativeStage(Map<?, ?> stage) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("native", stage.get("native"));
        if (stage.get("params") != null) {
            out.put("params", stage.get("params"));
        }
        if (stage.get("template-tags") instanceof Map<?, ?> tags && !tags.isEmpty()) {
            out.put("template-tags", tags);
        }
        return out;
    }

    private Map<String, Object> stage(Map<?, ?> stage) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (stage.get("source-table") != null) {
            out.put("source-table", stage.get("source-table"));
        }
        if (stage.get("source-card") != null) {
            out.put("source-table", "card__" + stage.get("source-card"));
        }
        if (stage.get("joins") instanceof List<?> joins && !joins.isEmpty()) {
            List<Object> legacy = new ArrayList<>();
            for (Object join : joins) {
                legacy.add(join(join));
            }
            out.put("joins", legacy);
        }
        if (stage.get("expressions") instanceof List<?> expressions && !expressions.isEmpty()) {
            Map<String, Object> legacy = new LinkedHashMap<>();
            for (Object expression : expressions) {
                Object name = expression instanceof List<?> l && l.size() > 1 && l.get(1) instanceof Map<?, ?> opts
                        ? opts.get("lib/expression-name") : null;
                if (name == null) {
                    throw invalid("Every expression of an MBQL 5 stage needs a \"lib/expression-name\".");
                }
                legacy.put(String.valueOf(name), clause(expression));
            }
            out.put("expressions", legacy);
        }
        if (stage.get("filters") instanceof List<?> filters && !filters.isEmpty()) {
            if (filters.size() == 1) {
                out.put("filter", clause(filters.get(0)));
            } else {
                List<Object> and = new ArrayList<>();
                and.add("and");
                for (Object filter : filters) {
                    and.add(clause(filter));
                }
                out.put("filter", and);
            }
        }
        if (stage.get("breakout") instanceof List<?> breakouts && !breakouts.isEmpty()) {
            out.put("breakout", clauses(breakouts));
        }
        if (stage.get("aggregation") instanceof List<?> aggregations && !aggregations.isEmpty()) {
            for (int i = 0; i < aggregations.size(); i++) {
                if (aggregations.get(i) instanceof List<?> l && l.size() > 1 && l.get(1) instanceof Map<?, ?> opts
                        && opts.get("lib/uuid") != null) {
                    aggregationIndexes.put(String.valueOf(opts.get("lib/uuid")), i);
                }
            }
            List<Object> legacy = new ArrayList<>();
            for (Object aggregation : aggregations) {
                legacy.add(aggregation(aggregation));
            }
            out.put("aggregation", legacy);
        }
        if (stage.get("fields") instanceof List<?> fields && !fields.isEmpty()) {
            out.put("fields", clauses(fields));
        }
        if (stage.get("order-by") instanceof List<?> orderBys && !orderBys.isEmpty()) {
            out.put("order-by", clauses(orderBys));
        }
        if (stage.get("limit") != null) {
            out.put("limit", stage.get("limit"));
        }
        if (stage.get("page") != null) {
            out.put("page", stage.get("page"));
        }
        return out;
    }

    private Map<String, Object> join(Object join) {
        if (!(join instanceof Map<?, ?> j)) {
            throw invalid("Every join must be an object.");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        if (j.get("stages") instanceof List<?> stages && !stages.isEmpty()) {
            Map<String, Object> source = toLegacy(stages);
            if (source.size() == 1 && source.containsKey("source-table")) {
                out.put("source-table", source.get("source-table"));
            } else {
                out.put("source-query", source);
            }
        }
        if (j.get("alias") != null) {
            out.put("alias", j.get("alias"));
        }
        if (j.get("strategy") != null) {
            out.put("strategy", j.get("strategy"));
        }
        Object fields = j.get("fields");
        out.put("fields", fields instanceof List<?> list ? clauses(list) : fields == null ? "none" : fields);
        if (j.get("conditions") instanceof List<?> conditions && !conditions.isEmpty()) {
            if (conditions.size() == 1) {
                out.put("condition", clause(conditions.get(0)));
            } else {
                List<Object> and = new ArrayList<>();
                and.add("and");
                for (Object condition : conditions) {
                    and.add(clause(condition));
                }
                out.put("condition", and);
            }
        }
        return out;
    }

    private Object aggregation(Object aggregation) {
        Object legacy = clause(aggregation);
        if (aggregation instanceof List<?> l && l.size() > 1 && l.get(1) instanceof Map<?, ?> opts
                && (opts.get("name") != null || opts.get("display-name") != null)) {
            Map<String, Object> names = new LinkedHashMap<>();
            if (opts.get("name") != null) {
                names.put("name", opts.get("name"));
            }
            if (opts.get("display-name") != null) {
                names.put("display-name", opts.get("display-name"));
            }
            List<Object> out = new ArrayList<>();
            out.add("aggregation-options");
            out.add(legacy);
            out.add(names);
            return out;
        }
        return legacy;
    }

    private List<Object> clauses(List<?> list) {
        List<Object> out = new ArrayList<>(list.size());
        for (Object item : list) {
            out.add(clause(item));
        }
        return out;
    }

    /** One clause; a list that is not a clause (the branches of {@code case}) is converted element by element. */
    private Object clause(Object value) {
        if (!(value instanceof List<?> list) || list.isEmpty()) {
            return value;
        }
        if (!(list.get(0) instanceof String op) || list.size() < 2 || !(list.get(1) instanceof Map<?, ?> opts)) {
            return clauses(list);
        }
        List<?> args = list.subList(2, list.size());
        List<Object> out = new ArrayList<>();
        switch (op) {
            case "field" -> {
                out.add("field");
                out.add(args.isEmpty() ? null : args.get(0));
                Map<String, Object> clean = cleanOptions(opts);
                out.add(clean.isEmpty() ? null : clean);
                return out;
            }
            case "expression" -> {
                out.add("expression");
                out.add(args.isEmpty() ? null : args.get(0));
                Map<String, Object> clean = cleanOptions(opts);
                if (!clean.isEmpty()) {
                    out.add(clean);
                }
                return out;
            }
            case "aggregation" -> {
                Integer index = args.isEmpty() ? null : aggregationIndexes.get(String.valueOf(args.get(0)));
                if (index == null) {
                    throw invalid("No aggregation with uuid " + (args.isEmpty() ? null : args.get(0)) + ".");
                }
                out.add("aggregation");
                out.add(index);
                return out;
            }
            case "value" -> {
                return args.isEmpty() ? null : args.get(0);
            }
            case "case", "if" -> {
                out.add("case");
                out.add(args.isEmpty() ? List.of() : clause(args.get(0)));
                Object otherwise = args.size() > 1 ? args.get(1) : opts.get("default");
                if (otherwise != null) {
                    Map<String, Object> o = new LinkedHashMap<>();
                    o.put("default", clause(otherwise));
                    out.add(o);
                }
                return out;
            }
            case "time-interval" -> {
                out.add(op);
                for (Object arg : args) {
                    out.add(clause(arg));
                }
                if (Boolean.TRUE.equals(opts.get("include-current"))) {
                    out.add(Map.of("include-current", true));
                }
                return out;
            }
            default -> {
                if (STRING_FILTERS.contains(op)) {
                    return stringFilter(op, opts, args);
                }
                out.add(op);
                for (Object arg : args) {
                    out.add(clause(arg));
                }
                if (opts.get("mode") != null && (op.startsWith("get-") || op.equals("datetime"))) {
                    out.add(opts.get("mode"));
                }
                return out;
            }
        }
    }

    /** {@code [op, {case-sensitive}, field, a, b]}: one legacy clause per value, or-ed (and-ed for does-not-contain). */
    private Object stringFilter(String op, Map<?, ?> opts, List<?> args) {
        Map<String, Object> options = new LinkedHashMap<>();
        if (opts.get("case-sensitive") != null) {
            options.put("case-sensitive", opts.get("case-sensitive"));
        }
        Object field = args.isEmpty() ? null : clause(args.get(0));
        List<Object> each = new ArrayList<>();
        for (int i = 1; i < args.size(); i++) {
            List<Object> one = new ArrayList<>();
            one.add(op);
            one.add(field);
            one.add(clause(args.get(i)));
            if (!options.isEmpty()) {
                one.add(options);
            }
            each.add(one);
        }
        if (each.size() == 1) {
            return each.get(0);
        }
        List<Object> combined = new ArrayList<>();
        combined.add(op.equals("does-not-contain") ? "and" : "or");
        combined.addAll(each);
        return combined;
    }

    private static Map<String, Object> cleanOptions(Map<?, ?> opts) {
        Map<String, Object> clean = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : opts.entrySet()) {
            String key = String.valueOf(entry.getKey());
            if (!key.startsWith("lib/") && !key.equals("ident") && entry.getValue() != null) {
                clean.put(key, entry.getValue());
            }
        }
        return clean;
    }

    private static QueryFailure invalid(String message) {
        return new QueryFailure(QueryFailure.Type.INVALID_QUERY, message);
    }
}
