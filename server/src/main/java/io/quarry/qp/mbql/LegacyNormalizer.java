package io.quarry.qp.mbql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Legacy MBQL as clients send it, in one canonical form: clause names lower case with dashes ({@code "IS_NULL"} →
 * {@code "is-null"}), option keys likewise, and the old reference forms rewritten as Metabase does —
 * {@code ["field-id", 1]}, {@code ["field-literal", "X", "type/Text"]}, {@code ["fk->", a, b]},
 * {@code ["datetime-field", f, "month"]}, {@code ["joined-field", "J", f]}, {@code ["binning-strategy", f, ...]},
 * {@code ["named", ag, "N"]}, bare field ids in {@code fields}/{@code breakout}/{@code order-by}.
 */
final class LegacyNormalizer {
    static final Set<String> OPERATORS = Set.of(
            "field", "field-id", "field-literal", "fk->", "datetime-field", "joined-field", "binning-strategy", "expression",
            "aggregation", "value", "named", "aggregation-options", "rows", "count", "cum-count", "sum", "cum-sum", "avg",
            "distinct", "min", "max", "stddev", "var", "median", "percentile", "share", "count-where", "sum-where",
            "distinct-where", "metric", "segment", "and", "or", "not", "=", "!=", "<", ">", "<=", ">=", "between", "inside",
            "is-null", "not-null", "is-empty", "not-empty", "contains", "does-not-contain", "starts-with", "ends-with",
            "time-interval", "relative-time-interval", "during", "relative-datetime", "absolute-datetime", "interval", "+", "-",
            "*", "/", "coalesce", "case", "if", "concat", "substring", "upper", "lower", "trim", "ltrim", "rtrim", "length",
            "replace", "round", "abs", "ceil", "floor", "power", "sqrt", "exp", "log", "datetime-add", "datetime-subtract",
            "datetime-diff", "now", "get-year", "get-quarter", "get-month", "get-week", "get-day", "get-day-of-week",
            "get-hour", "get-minute", "get-second", "temporal-extract", "asc", "desc", "in", "not-in", "text", "integer",
            "float", "date", "today", "offset");

    private LegacyNormalizer() {
    }

    /** An inner query (one stage with its nested source queries and joins) in canonical form. */
    static Map<String, Object> query(Map<?, ?> query) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : query.entrySet()) {
            String key = key(entry.getKey());
            Object value = entry.getValue();
            switch (key) {
                case "source-query" -> out.put(key, value instanceof Map<?, ?> m ? query(m) : value);
                case "fields", "breakout" -> out.put(key, refs(value));
                case "aggregation" -> out.put(key, aggregations(value));
                case "order-by" -> out.put(key, orderBys(value));
                case "filter" -> out.put(key, clause(value));
                case "expressions" -> out.put(key, expressions(value));
                case "joins" -> out.put(key, joins(value));
                default -> out.put(key, value);
            }
        }
        return out;
    }

    /** A key as Metabase reads it: lower case, dashes ({@code source_table} → {@code source-table}). */
    static String key(Object key) {
        String k = String.valueOf(key);
        return k.startsWith("lib/") ? k : k.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static Object refs(Object value) {
        if (!(value instanceof List<?> list)) {
            return value;
        }
        List<Object> out = new ArrayList<>(list.size());
        for (Object item : list) {
            out.add(item instanceof Number n ? fieldRef(n) : clause(item));
        }
        return out;
    }

    private static List<Object> fieldRef(Number id) {
        List<Object> ref = new ArrayList<>(3);
        ref.add("field");
        ref.add(id.longValue());
        ref.add(null);
        return ref;
    }

    private static Object aggregations(Object value) {
        if ("rows".equals(value) || "count".equals(value)) {
            return List.of(List.of("count"));
        }
        if (value instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof String) {
            // a single aggregation clause instead of a list of them
            List<Object> one = new ArrayList<>();
            one.add(clause(list));
            return one;
        }
        return clause(value);
    }

    private static Object orderBys(Object value) {
        if (!(value instanceof List<?> list)) {
            return value;
        }
        List<Object> out = new ArrayList<>(list.size());
        for (Object item : list) {
            if (item instanceof List<?> pair && pair.size() == 2 && pair.get(1) instanceof String direction
                    && !(pair.get(0) instanceof String)) {
                // [ref, "ascending"] — the pre-0.29 form
                String dir = direction.toLowerCase(Locale.ROOT).startsWith("desc") ? "desc" : "asc";
                Object ref = pair.get(0) instanceof Number n ? fieldRef(n) : clause(pair.get(0));
                List<Object> clause = new ArrayList<>();
                clause.add(dir);
                clause.add(ref);
                out.add(clause);
            } else if (item instanceof List<?> pair && pair.size() == 2 && pair.get(1) instanceof Number n) {
                List<Object> clause = new ArrayList<>();
                clause.add(op(pair.get(0)));
                clause.add(fieldRef(n));
                out.add(clause);
            } else {
                out.add(clause(item));
            }
        }
        return out;
    }

    private static Object expressions(Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            return value;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            out.put(String.valueOf(entry.getKey()), clause(entry.getValue()));
        }
        return out;
    }

    private static Object joins(Object value) {
        if (!(value instanceof List<?> list)) {
            return value;
        }
        List<Object> out = new ArrayList<>(list.size());
        for (Object join : list) {
            if (join instanceof Map<?, ?> map) {
                Map<String, Object> j = new LinkedHashMap<>();
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    String key = key(entry.getKey());
                    Object v = entry.getValue();
                    switch (key) {
                        case "source-query" -> j.put(key, v instanceof Map<?, ?> m ? query(m) : v);
                        case "condition" -> j.put(key, clause(v));
                        case "fields" -> j.put(key, v instanceof String s ? s.toLowerCase(Locale.ROOT) : refs(v));
                        case "strategy" -> j.put(key, v instanceof String s ? s.toLowerCase(Locale.ROOT).replace('_', '-') : v);
                        default -> j.put(key, v);
                    }
                }
                out.add(j);
            } else {
                out.add(join);
            }
        }
        return out;
    }

    /** The clause's operator in canonical form, or null when the value is not an operator name. */
    static String op(Object head) {
        if (!(head instanceof String s)) {
            return null;
        }
        String op = s.toLowerCase(Locale.ROOT).replace('_', '-');
        return OPERATORS.contains(op) ? op : null;
    }

    /** Any clause, recursively; literals are returned unchanged. */
    static Object clause(Object value) {
        if (value instanceof Map<?, ?> map) {
            return options(map);
        }
        if (!(value instanceof List<?> list) || list.isEmpty()) {
            return value;
        }
        String op = op(list.get(0));
        if (op == null) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object item : list) {
                out.add(clause(item));
            }
            return out;
        }
        List<?> args = list.subList(1, list.size());
        switch (op) {
            case "field-id": {
                Object id = args.isEmpty() ? null : args.get(0);
                return id instanceof List<?> ? clause(id) : fieldRef(id instanceof Number n ? n : Long.valueOf(-1));
            }
            case "field-literal": {
                Map<String, Object> opts = new LinkedHashMap<>();
                opts.put("base-type", args.size() > 1 ? args.get(1) : "type/*");
                return field(args.isEmpty() ? null : args.get(0), opts);
            }
            case "fk->": {
                Object source = args.isEmpty() ? null : clause(args.get(0));
                Object dest = args.size() > 1 ? clause(args.get(1)) : null;
                Object sourceId = source instanceof List<?> s && s.size() > 1 ? s.get(1) : source;
                return withOption(dest, "source-field", sourceId);
            }
            case "datetime-field": {
                Object unit = args.isEmpty() ? null : args.get(args.size() - 1);
                return withOption(args.isEmpty() ? null : clause(args.get(0)), "temporal-unit",
                        unit instanceof String u ? u.toLowerCase(Locale.ROOT).replace('_', '-') : unit);
            }
            case "joined-field":
                return withOption(args.size() > 1 ? clause(args.get(1)) : null, "join-alias", args.isEmpty() ? null : args.get(0));
            case "binning-strategy": {
                Map<String, Object> binning = new LinkedHashMap<>();
                String strategy = args.size() > 1 ? String.valueOf(args.get(1)).toLowerCase(Locale.ROOT).replace('_', '-') : "default";
                binning.put("strategy", strategy);
                if (args.size() > 2 && args.get(2) != null) {
                    binning.put(strategy, args.get(2));
                }
                return withOption(args.isEmpty() ? null : clause(args.get(0)), "binning", binning);
            }
            case "field": {
                Object opts = args.size() > 1 ? args.get(1) : null;
                return field(args.isEmpty() ? null : args.get(0), opts instanceof Map<?, ?> m ? options(m) : null);
            }
            case "named": {
                Map<String, Object> opts = new LinkedHashMap<>();
                Object name = args.size() > 1 ? args.get(1) : null;
                opts.put("name", name);
                opts.put("display-name", name);
                List<Object> out = new ArrayList<>();
                out.add("aggregation-options");
                out.add(args.isEmpty() ? null : clause(args.get(0)));
                out.add(opts);
                return out;
            }
            case "rows":
                return new ArrayList<>(List.of("count"));
            default: {
                List<Object> out = new ArrayList<>(list.size());
                out.add(op);
                for (Object arg : args) {
                    out.add(clause(arg));
                }
                return out;
            }
        }
    }

    private static List<Object> field(Object idOrName, Map<String, Object> opts) {
        List<Object> ref = new ArrayList<>(3);
        ref.add("field");
        ref.add(idOrName instanceof Number n && !(idOrName instanceof Double) ? (Object) n.longValue() : idOrName);
        ref.add(opts == null || opts.isEmpty() ? null : opts);
        return ref;
    }

    /** An options map with canonical keys; temporal units canonical too. */
    static Map<String, Object> options(Map<?, ?> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            String key = key(entry.getKey());
            Object value = entry.getValue();
            if (key.equals("temporal-unit") && value instanceof String u) {
                value = u.toLowerCase(Locale.ROOT).replace('_', '-');
            } else if (key.equals("binning") && value instanceof Map<?, ?> b) {
                value = options(b);
            } else if (value instanceof List<?>) {
                value = clause(value);
            }
            out.put(key, value);
        }
        return out;
    }

    /** The reference with one more option ({@code ["field", 1, {"temporal-unit": "month"}]}). */
    @SuppressWarnings("unchecked")
    static Object withOption(Object ref, String key, Object value) {
        if (!(ref instanceof List<?> list) || list.isEmpty()) {
            return ref;
        }
        List<Object> out = new ArrayList<>((List<Object>) list);
        if ("field".equals(out.get(0)) || "expression".equals(out.get(0))) {
            while (out.size() < 3) {
                out.add(null);
            }
            Map<String, Object> opts = out.get(2) instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m)
                    : new LinkedHashMap<>();
            opts.put(key, value);
            out.set(2, opts);
        }
        return out;
    }
}
