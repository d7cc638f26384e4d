package io.quarry.warehouse;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The JSON forms of tables and fields, as Metabase's API shows them. */
public final class MetadataViews {
    /** Fields in the order Metabase lists a table's fields: position, then name. */
    public static final Comparator<Field> FIELD_ORDER = Comparator.<Field>comparingInt(f -> f.position)
            .thenComparing(f -> f.name.toLowerCase(Locale.ROOT)).thenComparing(f -> f.id);
    /** Tables in the order Metabase hydrates a database's tables: display name. */
    public static final Comparator<Table> TABLE_ORDER = Comparator.<Table, String>comparing(
            t -> t.displayName == null ? "" : t.displayName.toLowerCase(Locale.ROOT)).thenComparing(t -> t.id);

    private MetadataViews() {
    }

    /**
     * A table. {@code schemaAsString}: Metabase's "present-table" shows a missing schema as {@code ""}; raw table rows
     * show {@code null}.
     */
    public static Map<String, Object> table(Table t, boolean schemaAsString) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", t.id);
        v.put("db_id", t.dbId);
        v.put("schema", schemaAsString && t.schemaName == null ? "" : t.schemaName);
        v.put("name", t.name);
        v.put("display_name", t.displayName);
        v.put("description", t.description);
        v.put("entity_type", t.entityType);
        v.put("visibility_type", t.visibilityType);
        v.put("active", t.active);
        v.put("initial_sync_status", t.initialSyncStatus);
        v.put("estimated_row_count", t.estimatedRowCount);
        v.put("field_order", t.fieldOrder);
        v.put("caveats", t.caveats);
        v.put("points_of_interest", t.pointsOfInterest);
        v.put("show_in_getting_started", t.showInGettingStarted);
        v.put("is_upload", t.isUpload);
        v.put("created_at", t.createdAt);
        v.put("updated_at", t.updatedAt);
        return v;
    }

    /**
     * A field. {@code inferHasFieldValues}: endpoints that hydrate {@code has_field_values} show what filter widgets
     * should use ({@code auto-list} reads as {@code list}; unset is inferred from the type); others show the column.
     */
    public static Map<String, Object> field(Field f, boolean inferHasFieldValues) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", f.id);
        v.put("table_id", f.tableId);
        v.put("name", f.name);
        v.put("display_name", f.displayName);
        v.put("description", f.description);
        v.put("base_type", f.baseType);
        v.put("effective_type", f.effectiveType);
        v.put("semantic_type", f.semanticType);
        v.put("database_type", f.databaseType);
        v.put("coercion_strategy", f.coercionStrategy);
        v.put("fk_target_field_id", f.fkTargetFieldId);
        v.put("visibility_type", f.visibilityType);
        v.put("has_field_values", inferHasFieldValues ? hasFieldValues(f) : f.hasFieldValues);
        v.put("active", f.active);
        v.put("position", f.position);
        v.put("database_position", f.databasePosition);
        v.put("custom_position", f.customPosition);
        v.put("preview_display", f.previewDisplay);
        v.put("parent_id", f.parentId);
        v.put("nfc_path", null);
        v.put("json_unfolding", false);
        v.put("fingerprint", f.fingerprint);
        v.put("fingerprint_version", f.fingerprintVersion);
        v.put("last_analyzed", f.lastAnalyzed);
        v.put("settings", f.settings);
        v.put("caveats", f.caveats);
        v.put("points_of_interest", f.pointsOfInterest);
        v.put("database_is_auto_increment", f.databaseIsAutoIncrement);
        v.put("database_required", f.databaseRequired);
        v.put("created_at", f.createdAt);
        v.put("updated_at", f.updatedAt);
        return v;
    }

    /** What a filter widget should offer for the field: {@code list}, {@code search} or {@code none}. */
    public static String hasFieldValues(Field f) {
        if ("auto-list".equals(f.hasFieldValues)) {
            return "list";
        }
        if (f.hasFieldValues != null) {
            return f.hasFieldValues;
        }
        String type = f.effectiveType != null ? f.effectiveType : f.baseType;
        return Types.isa(type, "type/Text") ? "search" : "none";
    }

    /** Active fields that are not retired, in Metabase's order: what a table's {@code fields} lists. */
    public static List<Field> listed(List<Field> fields) {
        List<Field> result = new ArrayList<>();
        for (Field f : fields) {
            if (f.active && !"retired".equals(f.visibilityType)) {
                result.add(f);
            }
        }
        result.sort(FIELD_ORDER);
        return result;
    }
}
