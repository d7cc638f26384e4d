package io.quarry.card;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.appdb.Db;
import io.quarry.qp.Column;
import io.quarry.qp.QueryExecutor;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.QueryProcessor;
import io.quarry.qp.ResultWriter;
import io.quarry.sync.FieldValuesService;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.WarehouseMapper;
import io.quarry.web.Json;
import io.quarry.web.error.ApiException;
import io.quarry.web.security.Caller;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The possible values of a card parameter: a static list, or the values of the field the parameter filters (cached
 * field values when the field has them, otherwise a distinct query). Searches keep values containing the text, case
 * insensitively. At most {@link #LIMIT} values; {@code has_more_values} tells when there were more.
 */
final class CardParamValues {
    static final int LIMIT = 1000;

    private final Db db;
    private final QueryProcessor processor;
    private final FieldValuesService fieldValues;

    CardParamValues(Db db, QueryProcessor processor, FieldValuesService fieldValues) {
        this.db = db;
        this.processor = processor;
        this.fieldValues = fieldValues;
    }

    Map<String, Object> values(Card card, String paramKey, String query, Caller caller) {
        JsonNode parameter = null;
        JsonNode parameters = CardService.parse(card.parameters);
        if (parameters != null) {
            for (JsonNode p : parameters) {
                if (paramKey.equals(p.path("id").asText())) {
                    parameter = p;
                }
            }
        }
        if (parameter == null) {
            throw ApiException.badRequest("Card does not have a parameter with the ID " + paramKey + ".");
        }
        String needle = query == null ? null : query.toLowerCase(Locale.ROOT);
        if ("static-list".equals(parameter.path("values_source_type").asText())) {
            List<List<Object>> out = new ArrayList<>();
            for (JsonNode value : parameter.path("values_source_config").path("values")) {
                List<Object> pair = new ArrayList<>();
                if (value.isArray()) {
                    value.forEach(v -> pair.add(Json.MAPPER.convertValue(v, Object.class)));
                } else {
                    pair.add(Json.MAPPER.convertValue(value, Object.class));
                }
                if (matches(pair, needle)) {
                    out.add(pair);
                }
            }
            return result(out);
        }
        Long fieldId = fieldOf(parameter.path("target"), CardService.parse(card.datasetQuery));
        Field field = fieldId == null ? null : db.with(WarehouseMapper.class, m -> m.findField(fieldId));
        if (field == null) {
            return result(new ArrayList<>());
        }
        if (FieldValuesService.eligible(field)) {
            Map<String, Object> cached = fieldValues.valuesOf(field);
            @SuppressWarnings("unchecked")
            List<List<Object>> values = (List<List<Object>>) cached.get("values");
            if (!values.isEmpty() && !Boolean.TRUE.equals(cached.get("has_more_values"))) {
                List<List<Object>> out = new ArrayList<>();
                for (List<Object> pair : values) {
                    if (matches(pair, needle) && out.size() < LIMIT) {
                        out.add(pair);
                    }
                }
                Map<String, Object> r = result(out);
                r.put("has_more_values", out.size() < countMatching(values, needle));
                return r;
            }
        }
        return distinct(card.databaseId, field, needle, caller);
    }

    private static long countMatching(List<List<Object>> values, String needle) {
        return values.stream().filter(v -> matches(v, needle)).count();
    }

    private static boolean matches(List<Object> pair, String needle) {
        if (needle == null) {
            return true;
        }
        for (Object v : pair) {
            if (v != null && String.valueOf(v).toLowerCase(Locale.ROOT).contains(needle)) {
                return true;
            }
        }
        return false;
    }

    /** Distinct values of the field by a query (text fields filtered in SQL, others in memory). */
    private Map<String, Object> distinct(long databaseId, Field field, String needle, Caller caller) {
        boolean text = "type/Text".equals(field.baseType) || (field.baseType != null && field.baseType.startsWith("type/Text"));
        ObjectNode request = Json.object();
        request.put("database", databaseId);
        request.put("type", "query");
        ObjectNode inner = request.putObject("query");
        inner.put("source-table", field.tableId);
        ArrayNode ref = Json.MAPPER.createArrayNode().add("field").add(field.id).addNull();
        inner.putArray("breakout").add(ref);
        if (needle != null && text) {
            ArrayNode filter = inner.putArray("filter");
            filter.add("contains").add(ref.deepCopy()).add(needle);
            filter.addObject().put("case-sensitive", false);
        }
        inner.put("limit", needle != null && !text ? 100_000 : LIMIT + 1);
        List<List<Object>> rows = new ArrayList<>();
        try {
            QueryProcessor.Prepared prepared = processor.prepare(request, caller, QueryProcessor.Purpose.API);
            QueryExecutor.Cursor cursor = processor.open(prepared);
            cursor.stream(new ResultWriter() {
                @Override
                public void begin(List<Column> columns) {
                }

                @Override
                public void row(Object[] values) {
                    if (values[0] != null) {
                        List<Object> pair = new ArrayList<>();
                        pair.add(values[0]);
                        rows.add(pair);
                    }
                }

                @Override
                public void end(Summary summary) {
                }
            });
        } catch (QueryFailure | IOException e) {
            throw ApiException.badRequest("Could not fetch the values of this parameter: " + e.getMessage());
        }
        List<List<Object>> out = new ArrayList<>();
        int matching = 0;
        for (List<Object> row : rows) {
            if (matches(row, needle)) {
                matching++;
                if (out.size() < LIMIT) {
                    out.add(row);
                }
            }
        }
        Map<String, Object> r = result(out);
        r.put("has_more_values", matching > LIMIT);
        return r;
    }

    private static Map<String, Object> result(List<List<Object>> values) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("values", values);
        r.put("has_more_values", false);
        return r;
    }

    /** The field a parameter target points at: {@code ["dimension", ["field", id, ...]]} or a field-filter template tag. */
    static Long fieldOf(JsonNode target, JsonNode datasetQuery) {
        if (!target.isArray() || target.size() < 2 || !"dimension".equals(target.get(0).asText())) {
            return null;
        }
        JsonNode ref = target.get(1);
        if (ref.isArray() && ref.size() >= 2 && "field".equals(ref.get(0).asText()) && ref.get(1).canConvertToLong()) {
            return ref.get(1).asLong();
        }
        if (ref.isArray() && ref.size() >= 2 && "template-tag".equals(ref.get(0).asText()) && datasetQuery != null) {
            String name = ref.get(1).isObject() ? ref.get(1).path("id").asText() : ref.get(1).asText();
            JsonNode tags = datasetQuery.path("native").path("template-tags");
            if (tags.isMissingNode()) {
                tags = datasetQuery.path("stages").path(0).path("template-tags");
            }
            JsonNode dimension = tags.path(name).path("dimension");
            if (dimension.isArray() && dimension.size() >= 2 && dimension.get(1).canConvertToLong()) {
                return dimension.get(1).asLong();
            }
        }
        return null;
    }
}
