package io.quarry.qp.mbql;

import io.quarry.qp.QueryFailure;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A whole {@code dataset_query} in either of Metabase's two forms: legacy MBQL ({@code {"type": "query"|"native"}}),
 * which Quarry answers by default because every client reads it, and MBQL 5 ({@code {"lib/type": "mbql/query",
 * "stages": [...]}}), Metabase v0.63's own answer, served on request ({@code GET /api/card/:id?legacy-mbql=false}).
 * Both are accepted on input; the query processor reads both ({@link io.quarry.qp.QueryNormalizer}).
 *
 * <p>Legacy to MBQL 5: a nested {@code source-query} becomes the stages before, {@code card__N} a {@code source-card},
 * a top-level {@code and} filter one filter each, every clause {@code [op, {"lib/uuid": ...}, args...]} with its
 * options (a trailing options map, a field's options, an aggregation's name) in that map, and aggregation references by
 * index references by uuid. MBQL 5 to legacy is {@link Mbql5}'s conversion of the stages.
 */
public final class QueryForms {
    private static final Set<String> NO_TRAILING_OPTIONS = Set.of("field", "expression", "value", "case", "if",
            "aggregation-options", "named", "aggregation");

    private QueryForms() {
    }

    /** Whether the query is MBQL 5 ({@code lib/type} {@code mbql/query}). */
    public static boolean isMbql5(Map<?, ?> query) {
        return query != null && "mbql/query".equals(query.get("lib/type"));
    }

    /**
     * The query in legacy form: an MBQL 5 query converted, anything else as it is (also an MBQL 5 query that cannot
     * be read, which the query processor then refuses with its reason).
     */
    public static Map<String, Object> legacy(Map<String, Object> query) {
        if (!isMbql5(query) || !(query.get("stages") instanceof List<?> stages) || stages.isEmpty()) {
            return query;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("database", query.get("database"));
        try {
            if (stages.size() == 1 && stages.get(0) instanceof Map<?, ?> first && "mbql.stage/native".equals(first.get("lib/type"))) {
                Map<String, Object> nativePart = new LinkedHashMap<>();
                nativePart.put("query", first.get("native"));
                nativePart.put("template-tags", first.get("template-tags") instanceof Map<?, ?> tags ? tags : Map.of());
                for (Map.Entry<?, ?> entry : first.entrySet()) {
                    String key = String.valueOf(entry.getKey());
                    if (!key.startsWith("lib/") && !key.equals("native") && !key.equals("template-tags")) {
                        nativePart.put(key, entry.getValue());
                    }
                }
                out.put("type", "native");
                out.put("native", nativePart);
            } else {
                out.put("type", "query");
                out.put("query", Mbql5.toLegacy(stages));
            }
        } catch (QueryFailure | ClassCastException e) {
            return query;
        }
        copyTopLevel(query, out);
        return out;
    }

    /**
     * A stored {@code dataset_query} (JSON text) as clients read it: legacy form, parsed; null for null. Text that is
     * not a JSON object is returned parsed as it is.
     */
    public static Object legacyJson(String json) {
        if (json == null) {
            return null;
        }
        try {
            com.fasterxml.jackson.databind.JsonNode node = io.quarry.core.Json.read(json);
            if (!node.isObject() || !"mbql/query".equals(node.path("lib/type").asText(null))) {
                return node;
            }
            return legacy(io.quarry.core.Json.MAPPER.convertValue(node,
                    new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() { }));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("A stored query is not valid JSON", e);
        }
    }

    /** A stored {@code dataset_query} (JSON text) in MBQL 5 form, parsed; null for null. */
    public static Object mbql5Json(String json) {
        if (json == null) {
            return null;
        }
        try {
            com.fasterxml.jackson.databind.JsonNode node = io.quarry.core.Json.read(json);
            return node.isObject() ? mbql5(io.quarry.core.Json.MAPPER.convertValue(node,
                    new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() { })) : node;
        } catch (java.io.IOException e) {
            throw new IllegalStateException("A stored query is not valid JSON", e);
        }
    }

    /** The query in MBQL 5 form: a legacy query converted, an MBQL 5 one (or one of neither form) as it is. */
    public static Map<String, Object> mbql5(Map<String, Object> query) {
        if (query == null || isMbql5(query)) {
            return query;
        }
        Object type = query.get("type");
        List<Object> stages;
        if ("native".equals(type) && query.get("native") instanceof Map<?, ?> nativePart) {
            stages = new ArrayList<>(List.of(nativeStage(nativePart, "query")));
        } else if ("query".equals(type) && query.get("query") instanceof Map<?, ?> inner) {
            stages = new Converter().stages(inner);
        } else {
            return query;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("lib/type", "mbql/query");
        out.put("database", query.get("database"));
        out.put("stages", stages);
        copyTopLevel(query, out);
        return out;
    }

    /** Keys beside the query itself that both forms carry at the top (parameters, constraints, middleware, info). */
    private static void copyTopLevel(Map<String, Object> from, Map<String, Object> to) {
        for (String key : List.of("parameters", "constraints", "middleware", "info")) {
            if (from.containsKey(key)) {
                to.put(key, from.get(key));
            }
        }
    }

    /** A native part ({@code {"query": sql, "template-tags": ...}}, or a native source query's {@code "native"}). */
    private static Map<String, Object> nativeStage(Map<?, ?> part, String sqlKey) {
        Map<String, Object> stage = new LinkedHashMap<>();
        stage.put("lib/type", "mbql.stage/native");
        stage.put("native", part.get(sqlKey));
        stage.put("template-tags", part.get("template-tags") instanceof Map<?, ?> tags ? tags : Map.of());
        for (Map.Entry<?, ?> entry : part.entrySet()) {
            String key = String.valueOf(entry.getKey());
            if (!key.equals(sqlKey) && !key.equals("template-tags") && !key.equals("native")) {
                stage.put(key, entry.getValue());
            }
        }
        return stage;
    }

    /** One legacy query's conversion: aggregation uuids are per stage. */
    private static final class Converter {
        private List<String> aggregationUuids = List.of();

        List<Object> stages(Map<?, ?> inner) {
            List<Object> stages = new ArrayList<>();
            if (inner.get("source-query") instanceof Map<?, ?> source) {
                if (source.get("native") != null && source.get("source-table") == null) {
                    stages.add(nativeStage(source, "native"));
                } else {
                    stages.addAll(stages(source));
                }
            }
            stages.add(stage(inner));
            return stages;
        }

        private Map<String, Object> stage(Map<?, ?> inner) {
            Map<String, Object> stage = new LinkedHashMap<>();
            stage.put("lib/type", "mbql.stage/mbql");
            source(inner.get("source-table"), stage);
            if (inner.get("joins") instanceof List<?> joins && !joins.isEmpty()) {
                List<Object> out = new ArrayList<>();
                for (Object join : joins) {
                    if (join instanceof Map<?, ?> j) {
                        out.add(join(j));
                    }
                }
                stage.put("joins", out);
            }
            if (inner.get("expressions") instanceof Map<?, ?> expressions && !expressions.isEmpty()) {
                List<Object> out = new ArrayList<>();
                for (Map.Entry<?, ?> entry : expressions.entrySet()) {
                    Object expression = entry.getValue() instanceof List<?> ? clause(entry.getValue())
                            : clause(List.of("value", entry.getValue())); // a literal expression is a value clause
                    out.add(withOption(expression, "lib/expression-name", String.valueOf(entry.getKey())));
                }
                stage.put("expressions", out);
            }
            if (inner.get("filter") != null) {
                stage.put("filters", conjuncts(inner.get("filter")));
            }
            if (inner.get("breakout") instanceof List<?> breakout && !breakout.isEmpty()) {
                stage.put("breakout", clauses(breakout));
            }
            List<String> uuids = new ArrayList<>();
            if (inner.get("aggregation") instanceof List<?> aggregations && !aggregations.isEmpty()) {
                List<Object> out = new ArrayList<>();
                for (Object aggregation : aggregations) {
                    Object converted = clause(aggregation);
                    out.add(converted);
                    uuids.add(converted instanceof List<?> l && l.size() > 1 && l.get(1) instanceof Map<?, ?> opts
                            ? String.valueOf(opts.get("lib/uuid")) : null);
                }
                stage.put("aggregation", out);
            }
            aggregationUuids = uuids;
            if (inner.get("fields") instanceof List<?> fields && !fields.isEmpty()) {
                stage.put("fields", clauses(fields));
            }
            if (inner.get("order-by") instanceof List<?> orderBy && !orderBy.isEmpty()) {
                stage.put("order-by", clauses(orderBy));
            }
            if (inner.get("limit") != null) {
                stage.put("limit", inner.get("limit"));
            }
            if (inner.get("page") != null) {
                stage.put("page", inner.get("page"));
            }
            return stage;
        }

        private static void source(Object sourceTable, Map<String, Object> stage) {
            if (sourceTable instanceof String s && s.startsWith("card__")) {
                try {
                    stage.put("source-card", Long.parseLong(s.substring("card__".length())));
                    return;
                } catch (NumberFormatException e) {
                    stage.put("source-table", s);
                    return;
                }
            }
            if (sourceTable != null) {
                stage.put("source-table", sourceTable);
            }
        }

        private Map<String, Object> join(Map<?, ?> join) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("lib/type", "mbql/join");
            if (join.get("source-query") instanceof Map<?, ?> query) {
                out.put("stages", query.get("native") != null && query.get("source-table") == null
                        ? new ArrayList<>(List.of(nativeStage(query, "native"))) : new Converter().stages(query));
            } else {
                Map<String, Object> source = new LinkedHashMap<>();
                source.put("source-table", join.get("source-table"));
                out.put("stages", new Converter().stages(source));
            }
            if (join.get("alias") != null) {
                out.put("alias", join.get("alias"));
            }
            if (join.get("condition") != null) {
                out.put("conditions", conjuncts(join.get("condition")));
            }
            Object fields = join.get("fields");
            out.put("fields", fields instanceof List<?> list ? clauses(list) : fields == null ? "none" : fields);
            out.put("strategy", join.get("strategy") == null ? "left-join" : join.get("strategy"));
            return out;
        }

        /** A filter as MBQL 5's list of filters: a top-level {@code and} split into its parts. */
        private List<Object> conjuncts(Object filter) {
            if (filter instanceof List<?> list && !list.isEmpty() && "and".equals(list.get(0))) {
                List<Object> out = new ArrayList<>();
                for (Object part : list.subList(1, list.size())) {
                    out.addAll(conjuncts(part));
                }
                return out;
            }
            return new ArrayList<>(List.of(clause(filter)));
        }

        private List<Object> clauses(List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object item : list) {
                out.add(clause(item));
            }
            return out;
        }

        /** One legacy clause; a list that is not a clause (the branches of {@code case}) element by element. */
        private Object clause(Object value) {
            if (!(value instanceof List<?> list) || list.isEmpty()) {
                return value;
            }
            if (!(list.get(0) instanceof String op)) {
                return clauses(list);
            }
            List<?> args = list.subList(1, list.size());
            Map<String, Object> opts = new LinkedHashMap<>();
            opts.put("lib/uuid", UUID.randomUUID().toString());
            List<Object> out = new ArrayList<>();
            out.add(op);
            out.add(opts);
            switch (op) {
                case "field", "expression" -> {
                    if (args.size() > 1 && args.get(1) instanceof Map<?, ?> fieldOpts) {
                        fieldOpts.forEach((k, v) -> {
                            if (v != null) {
                                opts.put(String.valueOf(k), v);
                            }
                        });
                    }
                    out.add(args.isEmpty() ? null : args.get(0));
                    return out;
                }
                case "value" -> {
                    if (args.size() > 1 && args.get(1) instanceof Map<?, ?> info) {
                        info.forEach((k, v) -> {
                            if (v != null) {
                                opts.put(String.valueOf(k).replace('_', '-'), v);
                            }
                        });
                    }
                    out.add(args.isEmpty() ? null : args.get(0));
                    return out;
                }
                case "aggregation" -> {
                    int index = args.isEmpty() || !(args.get(0) instanceof Number n) ? -1 : n.intValue();
                    String uuid = index >= 0 && index < aggregationUuids.size() ? aggregationUuids.get(index) : null;
                    if (uuid == null) {
                        return value; // an index that names no aggregation: left as it was, for the compiler to refuse
                    }
                    out.add(uuid);
                    return out;
                }
                case "aggregation-options", "named" -> {
                    Object inner = clause(args.isEmpty() ? null : args.get(0));
                    if (op.equals("named")) {
                        return args.size() > 1 ? withOption(inner, "display-name", args.get(1)) : inner;
                    }
                    if (args.size() > 1 && args.get(1) instanceof Map<?, ?> names) {
                        for (String key : List.of("name", "display-name")) {
                            if (names.get(key) != null) {
                                inner = withOption(inner, key, names.get(key));
                            }
                        }
                    }
                    return inner;
                }
                case "case", "if" -> {
                    out.add(args.isEmpty() ? List.of() : clause(args.get(0)));
                    if (args.size() > 1 && args.get(1) instanceof Map<?, ?> o && o.get("default") != null) {
                        out.add(clause(o.get("default")));
                    }
                    return out;
                }
                default -> {
                    List<?> rest = args;
                    if (!rest.isEmpty() && rest.get(rest.size() - 1) instanceof Map<?, ?> trailing && !NO_TRAILING_OPTIONS.contains(op)) {
                        trailing.forEach((k, v) -> opts.put(String.valueOf(k), v));
                        rest = rest.subList(0, rest.size() - 1);
                    } else if (op.startsWith("get-") && rest.size() > 1 && rest.get(rest.size() - 1) instanceof String mode) {
                        opts.put("mode", mode);
                        rest = rest.subList(0, rest.size() - 1);
                    }
                    for (Object arg : rest) {
                        out.add(clause(arg));
                    }
                    return out;
                }
            }
        }

        private static Object withOption(Object clause, String key, Object value) {
            if (clause instanceof List<?> list && list.size() > 1 && list.get(1) instanceof Map<?, ?> opts) {
                @SuppressWarnings("unchecked")
                Map<String, Object> options = (Map<String, Object>) opts;
                options.put(key, value);
            }
            return clause;
        }
    }
}
