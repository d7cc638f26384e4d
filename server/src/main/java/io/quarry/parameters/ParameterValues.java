package io.quarry.parameters;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.permission.DataPermissions;
import io.quarry.qp.Column;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.ResultWriter;
import io.quarry.qp.run.QueryContext;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.run.QueryRunner;
import io.quarry.sync.FieldValuesService;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.Table;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import io.quarry.core.Caller;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The possible values of a parameter (card or dashboard filter), shared by both: a static list, the values of one or
 * more fields (cached field values when a field has complete ones, otherwise a distinct query), or the distinct values
 * of a saved question's column (the {@code card} source). Searches keep values containing the text, case
 * insensitively. At most {@link #LIMIT} values; {@code has_more_values} tells when there were more. Shape:
 * {@code {"values": [[v] or [v, label], ...], "has_more_values": bool}}.
 *
 * <p>Rights: whoever may read the card or dashboard may look its filter values up, as in Metabase, as long as the
 * data is not blocked for them: a field of a database whose data is blocked answers 403 — cached values included.
 */
public final class ParameterValues {
    public static final int LIMIT = 1000;

    private final MetadataService metadata;
    private final QueryRunner runner;
    private final FieldValuesService fieldValues;
    private final DataPermissions permissions;

    public ParameterValues(MetadataService metadata, QueryRunner runner, FieldValuesService fieldValues, DataPermissions permissions) {
        this.metadata = metadata;
        this.runner = runner;
        this.fieldValues = fieldValues;
        this.permissions = permissions;
    }

    // --- static list ---------------------------------------------------------------------------------------------

    public static boolean isStaticList(JsonNode parameter) {
        return "static-list".equals(parameter.path("values_source_type").asText());
    }

    public static boolean isCardSource(JsonNode parameter) {
        return "card".equals(parameter.path("values_source_type").asText());
    }

    /** A static-list parameter's values (a search matches the label of {@code [value, label]} pairs). */
    public static Map<String, Object> staticList(JsonNode parameter, String query) {
        String needle = needle(query);
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
        return result(out, false);
    }

    /** The static list's {@code [value, label]} pair whose value is {@code value} (as text), or null. */
    public static List<Object> staticListRemapping(JsonNode parameter, String value) {
        for (JsonNode entry : parameter.path("values_source_config").path("values")) {
            if (entry.isArray() && entry.size() == 2 && entry.get(0).isTextual() && entry.get(0).asText().equals(value)) {
                List<Object> pair = new ArrayList<>();
                entry.forEach(v -> pair.add(Json.MAPPER.convertValue(v, Object.class)));
                return pair;
            }
        }
        return null;
    }

    // --- fields ----------------------------------------------------------------------------------------------------

    /**
     * The field's value equal to {@code value} (compared as text) as its values list it: {@code [value, label]} when
     * the field's values are remapped, {@code [value]} (typed) otherwise; null when the field has no such value. The
     * values searched are those containing the text (cached values, else a query), so a field with many values is
     * found too. 403 as {@link #ofField} when the field's data is blocked for the caller.
     */
    @SuppressWarnings("unchecked")
    public List<Object> fieldRemapping(long fieldId, String value, Caller caller) {
        Map<String, Object> found = ofField(fieldId, value, caller);
        for (List<Object> pair : (List<List<Object>>) found.get("values")) {
            if (!pair.isEmpty() && pair.get(0) != null && plainText(pair.get(0)).equals(value)) {
                return new ArrayList<>(pair);
            }
        }
        return null;
    }

    private static String plainText(Object v) {
        return v instanceof java.math.BigDecimal d ? d.stripTrailingZeros().toPlainString() : String.valueOf(v);
    }

    /** The values of one field (empty when the field is unknown); 403 when its data is blocked for the caller. */
    public Map<String, Object> ofField(long fieldId, String query, Caller caller) {
        return ofFields(List.of(fieldId), query, caller);
    }

    /**
     * The union of the values of several fields, each value once (a labelled {@code [value, label]} pair wins over a
     * bare one), sorted, at most {@link #LIMIT}.
     */
    public Map<String, Object> ofFields(Collection<Long> fieldIds, String query, Caller caller) {
        return ofFields(fieldIds, query, java.util.Objects.requireNonNull(caller, "caller is null"), true);
    }

    /**
     * As {@link #ofFields(Collection, String, Caller)} with the rights of the public link or signed embed that shows
     * the parameter (Metabase reads these values as an administrator): no caller, no data permission check.
     */
    public Map<String, Object> ofFieldsOfSharedObject(Collection<Long> fieldIds, String query) {
        return ofFields(fieldIds, query, Caller.ANONYMOUS, false);
    }

    private Map<String, Object> ofFields(Collection<Long> fieldIds, String query, Caller caller, boolean checked) {
        String needle = needle(query);
        Map<Long, Field> fields = new LinkedHashMap<>();
        Map<Long, Table> tables = new LinkedHashMap<>();
        Set<Long> checkedDatabases = new java.util.HashSet<>();
        if (!fieldIds.isEmpty()) {
            metadata.fieldsByIds(fieldIds).forEach(f -> fields.put(f.id, f));
            if (!fields.isEmpty()) {
                Set<Long> tableIds = new java.util.LinkedHashSet<>();
                fields.values().forEach(f -> tableIds.add(f.tableId));
                metadata.tablesByIds(tableIds).forEach(t -> tables.put(t.id, t));
            }
        }
        for (Table table : tables.values()) {
            if (checked && checkedDatabases.add(table.dbId) && !permissions.access(caller, table.dbId).canRunSaved()) {
                throw ApiException.forbidden();
            }
        }
        List<Map<String, Object>> results = new ArrayList<>();
        for (Long fieldId : new java.util.LinkedHashSet<>(fieldIds)) {
            Field field = fields.get(fieldId);
            Table table = field == null ? null : tables.get(field.tableId);
            if (table == null) {
                continue;
            }
            results.add(valuesOf(table.dbId, field, needle, checked ? caller : null));
        }
        return union(results);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> valuesOf(long databaseId, Field field, String needle, Caller caller) {
        if (FieldValuesService.eligible(field)) {
            Map<String, Object> cached = fieldValues.valuesOf(field);
            List<List<Object>> values = (List<List<Object>>) cached.get("values");
            if (!values.isEmpty() && !Boolean.TRUE.equals(cached.get("has_more_values"))) {
                List<List<Object>> out = new ArrayList<>();
                long matching = 0;
                for (List<Object> pair : values) {
                    if (matches(pair, needle)) {
                        matching++;
                        if (out.size() < LIMIT) {
                            out.add(pair);
                        }
                    }
                }
                return result(out, matching > out.size());
            }
        }
        return distinct(databaseId, field, needle, caller);
    }

    /** Distinct values of the field by a query (text fields filtered in SQL, others in memory). */
    private Map<String, Object> distinct(long databaseId, Field field, String needle, Caller caller) {
        boolean text = field.baseType != null && field.baseType.startsWith("type/Text");
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
        return filtered(run(request, caller), needle);
    }

    // --- card source -----------------------------------------------------------------------------------------------

    /**
     * The distinct values of a saved question's column ({@code valueField}, a field reference by id or by name), as
     * Metabase's card values source: nulls and empty strings left out, at most {@link #LIMIT}. The caller has checked
     * that the card is readable and not archived. Null when the card has no such column (callers fall back).
     */
    public Map<String, Object> ofCardColumn(long cardId, long databaseId, JsonNode valueField, String query, Caller caller) {
        if (!valueField.isArray() || valueField.size() < 2 || !"field".equals(valueField.get(0).asText())) {
            return null;
        }
        if (!permissions.access(caller, databaseId).canRunSaved()) {
            throw ApiException.forbidden();
        }
        String needle = needle(query);
        ObjectNode request = Json.object();
        request.put("database", databaseId);
        request.put("type", "query");
        ObjectNode inner = request.putObject("query");
        inner.put("source-table", "card__" + cardId);
        ArrayNode ref = Json.MAPPER.createArrayNode().add("field");
        JsonNode options = valueField.size() > 2 ? valueField.get(2) : null;
        ref.add(valueField.get(1));
        if (options == null || options.isNull()) {
            ref.addNull();
        } else {
            ref.add(options);
        }
        inner.putArray("breakout").add(ref);
        inner.put("limit", needle != null ? 100_000 : LIMIT);
        List<List<Object>> rows;
        try {
            rows = rows(request, caller);
        } catch (QueryFailure e) {
            if (e.type() == QueryFailure.Type.MISSING_PERMISSIONS) {
                throw ApiException.forbidden();
            }
            return null;
        }
        rows.removeIf(r -> r.get(0) instanceof String s && s.isEmpty());
        Map<String, Object> r = filtered(rows, needle);
        if (needle == null) {
            r.put("has_more_values", rows.size() >= LIMIT);
        }
        return r;
    }

    // --- helpers ---------------------------------------------------------------------------------------------------

    private List<List<Object>> run(ObjectNode request, Caller caller) {
        try {
            return rows(request, caller);
        } catch (QueryFailure e) {
            if (e.type() == QueryFailure.Type.MISSING_PERMISSIONS) {
                throw ApiException.forbidden();
            }
            throw ApiException.badRequest("Could not fetch the values of this parameter: " + e.getMessage());
        }
    }

    /**
     * Runs a one-breakout query through the runner (as a saved question's: only blocked data is refused) and keeps the
     * non-null values.
     */
    private List<List<Object>> rows(ObjectNode request, Caller caller) {
        List<List<Object>> rows = new ArrayList<>();
        // no caller: a shared object's values, read with its own rights (no data permission check)
        QueryRequest query = caller != null ? QueryRequest.internal(QueryContext.PARAMETER_VALUES, caller, request)
                : QueryRequest.sharedParameterValues(request);
        runner.rows(query, new ResultWriter() {
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
        return rows;
    }

    private static Map<String, Object> filtered(List<List<Object>> rows, String needle) {
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
        return result(out, matching > LIMIT);
    }

    /** Several results as one: each value once (labelled pairs first), sorted by label or value, at most LIMIT. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> union(List<Map<String, Object>> results) {
        if (results.size() == 1) {
            return results.get(0);
        }
        Map<Object, List<Object>> byValue = new LinkedHashMap<>();
        boolean hasMore = false;
        for (Map<String, Object> r : results) {
            hasMore |= Boolean.TRUE.equals(r.get("has_more_values"));
            for (List<Object> pair : (List<List<Object>>) r.get("values")) {
                Object key = pair.isEmpty() ? null : comparable(pair.get(0));
                List<Object> seen = byValue.get(key);
                if (seen == null || (seen.size() < 2 && pair.size() >= 2)) {
                    byValue.put(key, pair);
                }
            }
        }
        List<List<Object>> values = new ArrayList<>(byValue.values());
        boolean labelled = !values.isEmpty() && values.stream().allMatch(p -> p.size() >= 2);
        int index = labelled ? 1 : 0;
        values.sort(Comparator.comparing((List<Object> p) -> p.size() > index ? p.get(index) : null, ParameterValues::compare));
        if (values.size() > LIMIT) {
            values = new ArrayList<>(values.subList(0, LIMIT));
            hasMore = true;
        }
        return result(values, hasMore);
    }

    /** Numbers of different Java types that are equal count as one value. */
    private static Object comparable(Object v) {
        if (v instanceof Number n && !(v instanceof java.math.BigDecimal)) {
            return new java.math.BigDecimal(n.toString()).stripTrailingZeros();
        }
        if (v instanceof java.math.BigDecimal d) {
            return d.stripTrailingZeros();
        }
        return v;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        Object ca = comparable(a);
        Object cb = comparable(b);
        if (ca instanceof Comparable && ca.getClass() == cb.getClass()) {
            return ((Comparable) ca).compareTo(cb);
        }
        return String.valueOf(a).compareTo(String.valueOf(b));
    }

    private static String needle(String query) {
        return query == null ? null : query.trim().toLowerCase(Locale.ROOT);
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

    public static Map<String, Object> result(List<List<Object>> values, boolean hasMore) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("values", values);
        r.put("has_more_values", hasMore);
        return r;
    }

    /** The field a parameter target points at: {@code ["dimension", ["field", id, ...]]} or a field-filter template tag. */
    public static Long fieldOf(JsonNode target, JsonNode datasetQuery) {
        if (!target.isArray() || target.size() < 2 || !"dimension".equals(target.get(0).asText())) {
            return null;
        }
        JsonNode ref = target.get(1);
        if (ref.isArray() && ref.size() >= 2 && "field".equals(ref.get(0).asText()) && ref.get(1).canConvertToLong()
                && ref.get(1).isIntegralNumber()) {
            return ref.get(1).asLong();
        }
        if (ref.isArray() && ref.size() >= 2 && "template-tag".equals(ref.get(0).asText()) && datasetQuery != null) {
            String name = ref.get(1).isObject() ? ref.get(1).path("id").asText() : ref.get(1).asText();
            JsonNode tags = datasetQuery.path("native").path("template-tags");
            if (tags.isMissingNode()) {
                tags = datasetQuery.path("stages").path(0).path("template-tags");
            }
            JsonNode dimension = tags.path(name).path("dimension");
            if (dimension.isArray() && dimension.size() >= 2 && dimension.get(1).isIntegralNumber()) {
                return dimension.get(1).asLong();
            }
        }
        return null;
    }

    /** A target's field reference by name ({@code ["dimension", ["field", "NAME", {...}]]}), or null. */
    public static JsonNode fieldRefByName(JsonNode target) {
        if (target.isArray() && target.size() >= 2 && "dimension".equals(target.get(0).asText())) {
            JsonNode ref = target.get(1);
            if (ref.isArray() && ref.size() >= 2 && "field".equals(ref.get(0).asText()) && ref.get(1).isTextual()) {
                return ref;
            }
        }
        return null;
    }
}
