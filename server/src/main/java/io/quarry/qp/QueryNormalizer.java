package io.quarry.qp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first stage: a query as clients send it (legacy MBQL 4 or MBQL 5, native or structured) into {@link Query}.
 * Anything malformed is an {@code invalid-query} failure naming what is wrong.
 */
public final class QueryNormalizer {
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() { };
    private static final TypeReference<List<Map<String, Object>>> LIST = new TypeReference<>() { };

    private QueryNormalizer() {
    }

    public static Query normalize(JsonNode json) {
        if (json == null || !json.isObject()) {
            throw invalid("The query must be a JSON object.");
        }
        JsonNode database = json.get("database");
        if (database == null || !database.canConvertToExactIntegral() || database.asLong() <= 0 && database.asLong() != -1337) {
            throw invalid("The query needs a \"database\": the id of a connected database.");
        }
        List<Map<String, Object>> parameters = json.has("parameters") && json.get("parameters").isArray()
                ? Json.MAPPER.convertValue(json.get("parameters"), LIST) : List.of();
        Long maxResults = null;
        JsonNode constraints = json.get("constraints");
        if (constraints != null && constraints.hasNonNull("max-results")) {
            maxResults = constraints.get("max-results").asLong();
        }
        boolean jsIntToString = !json.path("middleware").has("js-int-to-string?") || json.path("middleware").path("js-int-to-string?").asBoolean(true);
        if ("mbql/query".equals(json.path("lib/type").asText(null))) {
            return fromMbql5(json, database.asLong(), parameters, maxResults, jsIntToString);
        }
        String type = json.path("type").asText("");
        if (type.equals("native")) {
            JsonNode nativePart = json.get("native");
            if (nativePart == null || !nativePart.path("query").isTextual() || nativePart.path("query").asText().isBlank()) {
                throw invalid("A native query needs its SQL in \"native\": {\"query\": \"...\"}.");
            }
            Map<String, Object> tags = nativePart.has("template-tags") && nativePart.get("template-tags").isObject()
                    ? Json.MAPPER.convertValue(nativePart.get("template-tags"), MAP) : Map.of();
            return new Query(database.asLong(), Query.Type.NATIVE, nativePart.get("query").asText(), tags, null, parameters,
                    maxResults, jsIntToString);
        }
        if (type.equals("query")) {
            JsonNode inner = json.get("query");
            if (inner == null || !inner.isObject()) {
                throw invalid("A structured query needs its MBQL in \"query\": {...}.");
            }
            return new Query(database.asLong(), Query.Type.MBQL, null, Map.of(), Json.MAPPER.convertValue(inner, MAP), parameters,
                    maxResults, jsIntToString);
        }
        throw invalid("Unknown query type \"" + type + "\": use \"native\" or \"query\".");
    }

    /**
     * MBQL 5: a query of one native stage becomes a native query; MBQL stages (after a native first stage too, which
     * the compiler nests as a native source query) are kept for the compiler.
     */
    private static Query fromMbql5(JsonNode json, long database, List<Map<String, Object>> parameters, Long maxResults,
                                   boolean jsIntToString) {
        JsonNode stages = json.get("stages");
        if (stages == null || !stages.isArray() || stages.isEmpty()) {
            throw invalid("An MBQL 5 query needs at least one stage.");
        }
        JsonNode first = stages.get(0);
        if ("mbql.stage/native".equals(first.path("lib/type").asText()) && stages.size() == 1) {
            String sql = first.path("native").asText("");
            if (sql.isBlank()) {
                throw invalid("A native stage needs its SQL in \"native\".");
            }
            Map<String, Object> tags = first.has("template-tags") ? Json.MAPPER.convertValue(first.get("template-tags"), MAP) : Map.of();
            return new Query(database, Query.Type.NATIVE, sql, tags, null, parameters, maxResults, jsIntToString);
        }
        Map<String, Object> mbql = new LinkedHashMap<>();
        mbql.put("stages", Json.MAPPER.convertValue(stages, new TypeReference<List<Object>>() { }));
        return new Query(database, Query.Type.MBQL, null, Map.of(), mbql, parameters, maxResults, jsIntToString);
    }

    /** Parameter values by template-tag name, from {@code [{"target": ["variable", ["template-tag", "x"]], "value": ...}]}. */
    public static Map<String, Object> tagValues(List<Map<String, Object>> parameters) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map<String, Object> parameter : parameters) {
            Object target = parameter.get("target");
            if (target instanceof List<?> outer && outer.size() >= 2 && outer.get(1) instanceof List<?> inner && inner.size() >= 2
                    && "template-tag".equals(inner.get(0))) {
                Object value = parameter.get("value");
                if (value != null) {
                    values.put(String.valueOf(inner.get(1)), value);
                }
            }
        }
        return values;
    }

    private static QueryFailure invalid(String message) {
        return new QueryFailure(QueryFailure.Type.INVALID_QUERY, message);
    }
}
