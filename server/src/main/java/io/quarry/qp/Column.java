package io.quarry.qp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One result column, as Metabase's {@code data.cols} describes it. {@code fieldRef} is the MBQL reference clients
 * use to point back at the column ({@code ["field", 11, null]}, {@code ["aggregation", 0]}, {@code ["field", "NAME",
 * {"base-type": "type/Text"}]}).
 */
public record Column(String name, String displayName, String baseType, String effectiveType, String semanticType,
                     List<Object> fieldRef, String source, Long id, Long tableId, String databaseType,
                     Map<String, Object> extra) {

    /** The keys {@link #toJson()} writes before {@code extra}. */
    public static final java.util.Set<String> BASE_KEYS = java.util.Set.of("name", "display_name", "base_type", "effective_type",
            "semantic_type", "field_ref", "source", "id", "table_id", "database_type");

    /** A column of a native query: known only by its label and JDBC type. */
    public static Column nativeColumn(String name, String baseType, String databaseType) {
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("base-type", baseType);
        return new Column(name, name, baseType, baseType, null, List.of("field", name, options), "native", null, null,
                databaseType, Map.of());
    }

    /** Back from {@link #toJson()} (the result cache stores columns that way). */
    @SuppressWarnings("unchecked")
    public static Column fromJson(Map<String, Object> json) {
        Map<String, Object> extra = new LinkedHashMap<>(json);
        for (String key : BASE_KEYS) {
            extra.remove(key);
        }
        return new Column((String) json.get("name"), (String) json.get("display_name"), (String) json.get("base_type"),
                (String) json.get("effective_type"), (String) json.get("semantic_type"), (List<Object>) json.get("field_ref"),
                (String) json.get("source"), json.get("id") instanceof Number n ? n.longValue() : null,
                json.get("table_id") instanceof Number n ? n.longValue() : null, (String) json.get("database_type"), extra);
    }

    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", name);
        json.put("display_name", displayName);
        json.put("base_type", baseType);
        json.put("effective_type", effectiveType);
        json.put("semantic_type", semanticType);
        json.put("field_ref", fieldRef);
        json.put("source", source);
        if (id != null) {
            json.put("id", id);
        }
        if (tableId != null) {
            json.put("table_id", tableId);
        }
        json.put("database_type", databaseType);
        json.putAll(extra);
        return json;
    }
}
