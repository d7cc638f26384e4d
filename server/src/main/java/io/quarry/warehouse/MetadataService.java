package io.quarry.warehouse;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.driver.Driver;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Browsing and editing the metadata sync found: tables and fields of connected databases, loaded in bulk (one query
 * per kind, never one per table), and the edits people make in the data model, which sync leaves alone afterwards.
 */
public final class MetadataService {
    /** Autocomplete answers at most this many suggestions. */
    public static final int SUGGESTIONS = 50;
    private static final int IN_CHUNK = 1000;

    static final String[] TABLE_VISIBILITY = {"technical", "hidden", "cruft"};
    static final String[] FIELD_ORDERS = {"alphabetical", "custom", "database", "smart"};
    static final String[] FIELD_VISIBILITY = {"retired", "sensitive", "normal", "hidden", "details-only"};
    static final String[] HAS_FIELD_VALUES = {"auto-list", "list", "none", "search"};

    private final Db db;
    private final DatabaseService databases;
    private final SyncLauncher sync;
    private final Clock clock;

    public MetadataService(Db db, DatabaseService databases, SyncLauncher sync, Clock clock) {
        this.db = db;
        this.databases = databases;
        this.sync = sync;
        this.clock = clock;
    }

    // --- reading -------------------------------------------------------------------------------------------------

    public Table requireTable(long id) {
        return Checks.found(db.with(WarehouseMapper.class, m -> m.findTable(id)));
    }

    public Field requireField(long id) {
        return Checks.found(db.with(WarehouseMapper.class, m -> m.findField(id)));
    }

    /** The table, or null. */
    public Table findTable(long id) {
        return db.with(WarehouseMapper.class, m -> m.findTable(id));
    }

    /** The field, or null. */
    public Field findField(long id) {
        return db.with(WarehouseMapper.class, m -> m.findField(id));
    }

    /** Every table and every field of one database, active or not, read in one session (the compiler's metadata). */
    public record DatabaseMetadata(List<Table> tables, List<Field> fields) {
    }

    public DatabaseMetadata ofDatabase(long dbId) {
        return db.tx(session -> {
            WarehouseMapper mapper = session.getMapper(WarehouseMapper.class);
            return new DatabaseMetadata(mapper.listTables(dbId, false), mapper.listFieldsOfDatabase(dbId));
        });
    }

    /** Tables of one database (or of all when {@code dbId} is null). */
    public List<Table> tables(Long dbId, boolean activeOnly) {
        return db.with(WarehouseMapper.class, m -> m.listTables(dbId, activeOnly));
    }

    /** Every field of the tables, grouped by table id (every table has an entry); a few queries at most. */
    public Map<Long, List<Field>> fieldsByTable(Collection<Long> tableIds) {
        Map<Long, List<Field>> grouped = new LinkedHashMap<>();
        for (Long id : tableIds) {
            grouped.put(id, new ArrayList<>());
        }
        List<Long> ids = new ArrayList<>(new LinkedHashSet<>(tableIds));
        for (int from = 0; from < ids.size(); from += IN_CHUNK) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + IN_CHUNK));
            for (Field f : db.with(WarehouseMapper.class, m -> m.listFieldsOfTables(chunk))) {
                grouped.get(f.tableId).add(f);
            }
        }
        return grouped;
    }

    /** The active fields of active tables whose foreign key targets a field of the table that is not retired. */
    public List<Field> fieldsReferencing(long tableId) {
        return db.with(WarehouseMapper.class, m -> m.listFieldsReferencingTable(tableId));
    }

    public List<Field> fieldsOfDatabase(long dbId) {
        return db.with(WarehouseMapper.class, m -> m.listFieldsOfDatabase(dbId));
    }

    public List<Field> fieldsByIds(Collection<Long> fieldIds) {
        List<Long> ids = new ArrayList<>(new LinkedHashSet<>(fieldIds));
        List<Field> result = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += IN_CHUNK) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + IN_CHUNK));
            result.addAll(db.with(WarehouseMapper.class, m -> m.listFieldsByIds(chunk)));
        }
        return result;
    }

    public List<Table> tablesByIds(Collection<Long> tableIds) {
        List<Long> ids = new ArrayList<>(new LinkedHashSet<>(tableIds));
        List<Table> result = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += IN_CHUNK) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + IN_CHUNK));
            result.addAll(db.with(WarehouseMapper.class, m -> m.listTablesByIds(chunk)));
        }
        return result;
    }

    /**
     * The cached values of the database's fields by field id, as Metabase answers them: pairs {@code [value]}, or
     * {@code [value, "human readable"]} when remapped.
     */
    public Map<Long, List<List<Object>>> fieldValuesOfDatabase(long dbId) {
        Map<Long, List<List<Object>>> result = new HashMap<>();
        for (FieldValues fv : db.with(WarehouseMapper.class, m -> m.listFieldValuesOfDatabase(dbId))) {
            List<Object> values = jsonList(fv.fieldValues);
            List<Object> human = jsonList(fv.humanReadableValues);
            List<List<Object>> pairs = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                List<Object> pair = new ArrayList<>();
                pair.add(values.get(i));
                if (i < human.size()) {
                    pair.add(human.get(i));
                }
                pairs.add(pair);
            }
            result.put(fv.fieldId, pairs);
        }
        return result;
    }

    private static List<Object> jsonList(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        try {
            JsonNode node = io.quarry.core.Json.read(text);
            return node.isArray() ? io.quarry.core.Json.MAPPER.convertValue(node, List.class) : List.of();
        } catch (java.io.IOException e) {
            return List.of();
        }
    }

    public List<Field> pkFields(long dbId) {
        return db.with(WarehouseMapper.class, m -> m.listPkFieldsOfDatabase(dbId));
    }

    /** A presenter for fields with their FK targets and name fields, given the fields already loaded. */
    public Hydrator hydrator(Collection<Field> loaded) {
        return new Hydrator(loaded);
    }

    /**
     * Presents fields as Metabase hydrates them: {@code has_field_values} inferred, {@code target} (the FK's target
     * field), {@code dimensions} and optionally {@code name_field}. Targets not among the loaded fields are fetched
     * together, once.
     */
    public final class Hydrator {
        private final Map<Long, Field> byId = new HashMap<>();
        private final Map<Long, List<Field>> byTable = new HashMap<>();

        private Hydrator(Collection<Field> loaded) {
            for (Field f : loaded) {
                byId.put(f.id, f);
                byTable.computeIfAbsent(f.tableId, k -> new ArrayList<>()).add(f);
            }
            Set<Long> missing = new TreeSet<>();
            for (Field f : loaded) {
                if (isFk(f) && f.fkTargetFieldId != null && !byId.containsKey(f.fkTargetFieldId)) {
                    missing.add(f.fkTargetFieldId);
                }
            }
            if (!missing.isEmpty()) {
                for (Field target : fieldsByIds(missing)) {
                    byId.put(target.id, target);
                }
            }
        }

        public Map<String, Object> present(Field f, boolean withNameField) {
            Map<String, Object> v = MetadataViews.field(f, true);
            Field target = isFk(f) && f.fkTargetFieldId != null ? byId.get(f.fkTargetFieldId) : null;
            v.put("target", target == null ? null : MetadataViews.field(target, true));
            v.put("dimensions", List.of());
            if (withNameField) {
                Field name = nameField(f);
                v.put("name_field", name == null ? null : MetadataViews.field(name, false));
            }
            return v;
        }

        /** For a primary key: the field of its table that names the row (semantic type Name), if any. */
        private Field nameField(Field f) {
            if (!Types.isa(f.semanticType, "type/PK")) {
                return null;
            }
            for (Field other : MetadataViews.listed(byTable.getOrDefault(f.tableId, List.of()))) {
                if (Types.isa(other.semanticType, "type/Name") && !"sensitive".equals(other.visibilityType)) {
                    return other;
                }
            }
            return null;
        }
    }

    static boolean isFk(Field f) {
        return Types.isa(f.semanticType, "type/FK");
    }

    // --- autocomplete --------------------------------------------------------------------------------------------

    /**
     * SQL-editor suggestions: tables as {@code [name, "Table"]} first, then fields as
     * {@code [name, "TABLE base_type semantic_type"]} (no semantic type when it has none), at most {@value #SUGGESTIONS}.
     * {@code contains}: match anywhere in the name rather than at its start.
     */
    public List<List<String>> autocomplete(long dbId, String text, boolean contains) {
        String escaped = text.toLowerCase(Locale.ROOT).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
        String pattern = contains ? "%" + escaped + "%" : escaped + "%";
        List<Table> tables = db.with(WarehouseMapper.class, m -> m.autocompleteTables(dbId, pattern, SUGGESTIONS));
        List<FieldSuggestion> fields = db.with(WarehouseMapper.class, m -> m.autocompleteFields(dbId, pattern, SUGGESTIONS));
        // Tables first, leaving fields at least half of what they found (Metabase's split), never more than the limit.
        int takeTables = Math.max(0, Math.min(tables.size(), SUGGESTIONS - fields.size() / 2));
        int takeFields = Math.min(fields.size(), SUGGESTIONS - takeTables);
        List<List<String>> result = new ArrayList<>();
        for (Table t : tables.subList(0, takeTables)) {
            result.add(List.of(t.name, "Table"));
        }
        for (FieldSuggestion f : fields.subList(0, takeFields)) {
            String description = f.tableName + " " + f.baseType + (f.semanticType == null ? "" : " " + f.semanticType);
            result.add(List.of(f.name, description));
        }
        return result;
    }

    // --- editing tables ----------------------------------------------------------------------------------------------

    /** What a PUT on tables changes: a key is present when the change applies. */
    public record TableChanges(Map<String, Object> values) {
        boolean has(String key) {
            return values.containsKey(key);
        }

        Object get(String key) {
            return values.get(key);
        }
    }

    /** Reads and validates the editable table keys of a body (errors collected in {@code body}). */
    public static TableChanges tableChanges(Body body, boolean withFieldOrder) {
        Map<String, Object> changes = new LinkedHashMap<>();
        String displayName = body.optNonBlank("display_name");
        if (displayName != null) {
            changes.put("display_name", displayName);
        }
        String entityType = typeKeyword(body, "entity_type", Types::isEntityType,
                "nullable value must be a valid entity type (keyword or string).", "should be a valid entity type");
        if (entityType != null) {
            changes.put("entity_type", entityType);
        }
        if (body.has("visibility_type")) {
            String visibility = body.optEnum("visibility_type", TABLE_VISIBILITY);
            if (visibility != null || body.get("visibility_type").isNull()) {
                changes.put("visibility_type", visibility);
            }
        }
        for (String key : List.of("description", "caveats", "points_of_interest")) {
            if (body.has(key)) {
                JsonNode value = body.get(key);
                if (value.isNull()) {
                    changes.put(key, null);
                } else if (value.isTextual()) {
                    changes.put(key, value.asText());
                } else {
                    body.addError(key, "nullable string", "should be a string, received: " + render(value));
                }
            }
        }
        if (body.hasValue("show_in_getting_started")) {
            JsonNode value = body.get("show_in_getting_started", Body.Kind.BOOLEAN);
            if (value.isBoolean()) {
                changes.put("show_in_getting_started", value.asBoolean());
            } else {
                body.addError("show_in_getting_started", "nullable boolean", "should be a boolean, received: " + render(value));
            }
        }
        if (withFieldOrder) {
            String order = body.optEnum("field_order", FIELD_ORDERS);
            if (order != null) {
                changes.put("field_order", order);
            }
        }
        return new TableChanges(changes);
    }

    /** A result of a table update: the table as stored, and its fields when their order was recomputed. */
    public record UpdatedTable(Table table, List<Field> fields) {
    }

    /**
     * Applies the changes to every table in one transaction (404 when one does not exist). Tables that were hidden
     * and are visible again are synced in the background, as Metabase does.
     */
    public List<UpdatedTable> updateTables(List<Long> ids, TableChanges changes) {
        OffsetDateTime now = now();
        List<Table> existing = tablesByIds(ids);
        if (existing.size() != new LinkedHashSet<>(ids).size()) {
            throw ApiException.notFound();
        }
        Map<Long, Table> byId = new HashMap<>();
        existing.forEach(t -> byId.put(t.id, t));
        List<Table> unhidden = new ArrayList<>();
        List<UpdatedTable> updated = db.tx(session -> {
            WarehouseMapper m = session.getMapper(WarehouseMapper.class);
            List<UpdatedTable> result = new ArrayList<>();
            for (Long id : new LinkedHashSet<>(ids)) {
                Table t = byId.get(id);
                String oldOrder = t.fieldOrder;
                String oldVisibility = t.visibilityType;
                if (changes.has("display_name")) {
                    t.displayName = (String) changes.get("display_name");
                }
                if (changes.has("entity_type")) {
                    t.entityType = (String) changes.get("entity_type");
                }
                if (changes.has("visibility_type")) {
                    t.visibilityType = (String) changes.get("visibility_type");
                }
                if (changes.has("description")) {
                    t.description = (String) changes.get("description");
                }
                if (changes.has("caveats")) {
                    t.caveats = (String) changes.get("caveats");
                }
                if (changes.has("points_of_interest")) {
                    t.pointsOfInterest = (String) changes.get("points_of_interest");
                }
                if (changes.has("show_in_getting_started")) {
                    t.showInGettingStarted = (Boolean) changes.get("show_in_getting_started");
                }
                if (changes.has("field_order")) {
                    t.fieldOrder = (String) changes.get("field_order");
                }
                if (!changes.values().isEmpty()) {
                    t.updatedAt = now;
                    m.updateTableMetadata(t);
                }
                if (oldVisibility != null && t.visibilityType == null) {
                    unhidden.add(t);
                }
                List<Field> fields = null;
                if (!Objects.equals(oldOrder, t.fieldOrder)) {
                    fields = reorder(m, t);
                }
                result.add(new UpdatedTable(t, fields));
            }
            return result;
        });
        for (Long dbId : unhidden.stream().map(t -> t.dbId).distinct().toList()) {
            sync.syncInBackground(dbId);
        }
        // answer what is stored (timestamps as the database keeps them)
        Map<Long, Table> stored = new HashMap<>();
        tablesByIds(ids).forEach(t -> stored.put(t.id, t));
        return updated.stream().map(u -> new UpdatedTable(stored.get(u.table().id), u.fields())).toList();
    }

    /**
     * Metabase's custom field order: the table's order becomes {@code custom} and each listed field takes its index as
     * its position; the table's fields left out follow in their present order. Every id must be a field of the table,
     * once (else a 400 naming {@code field_order}, nothing written). One transaction.
     */
    public void customFieldOrder(Table table, List<Long> fieldIds) {
        List<Field> fields = fieldsByTable(List.of(table.id)).get(table.id);
        Map<Long, Field> byId = new HashMap<>();
        fields.forEach(f -> byId.put(f.id, f));
        Set<Long> listed = new LinkedHashSet<>(fieldIds);
        if (listed.size() != fieldIds.size() || !byId.keySet().containsAll(listed)) {
            throw ApiException.invalidField("field_order", "every value must be the id of a field of the table, once");
        }
        List<Long> order = new ArrayList<>(listed);
        fields.stream().sorted(Comparator.comparingInt((Field f) -> f.position).thenComparing(f -> f.id))
                .filter(f -> !listed.contains(f.id)).forEach(f -> order.add(f.id));
        OffsetDateTime now = now();
        db.run(session -> {
            WarehouseMapper m = session.getMapper(WarehouseMapper.class);
            table.fieldOrder = "custom";
            table.updatedAt = now;
            m.updateTableMetadata(table);
            for (int i = 0; i < order.size(); i++) {
                m.updateFieldCustomPosition(order.get(i), i);
            }
        });
    }

    /** Marks the table as made by a CSV upload. */
    public void markUploaded(long tableId) {
        db.run(session -> session.getMapper(WarehouseMapper.class).markTableUploaded(tableId));
    }

    /** Recomputes the positions of a table's fields from its field order; returns the fields in their new order. */
    private static List<Field> reorder(WarehouseMapper m, Table table) {
        List<Field> fields = new ArrayList<>(m.listFieldsOfTables(List.of(table.id)));
        Comparator<Field> byName = Comparator.comparing(f -> f.name.toLowerCase(Locale.ROOT));
        Comparator<Field> order = switch (table.fieldOrder) {
            case "custom" -> Comparator.comparingInt(f -> f.customPosition);
            case "smart" -> Comparator.<Field>comparingInt(MetadataService::smartRank).thenComparing(byName);
            case "alphabetical" -> byName;
            default -> Comparator.comparingInt(f -> f.databasePosition);
        };
        fields.sort(order.thenComparing(f -> f.id));
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            if (f.position != i) {
                f.position = i;
                m.updateFieldPosition(f.id, i);
            }
        }
        return fields;
    }

    private static int smartRank(Field f) {
        if (Types.isa(f.semanticType, "type/PK")) {
            return 0;
        }
        if (Types.isa(f.semanticType, "type/Name")) {
            return 1;
        }
        return Types.isa(f.semanticType, "type/Temporal") ? 2 : 3;
    }

    // --- editing fields ----------------------------------------------------------------------------------------------

    /**
     * PUT /api/field/:id. Validates every key first (one 400 naming each bad one, nothing written), then checks the FK
     * target, then writes. Keys follow Metabase: {@code display_name} and {@code settings} change only when given a
     * value; the others also accept null to clear. Moving a field away from type/FK clears its target.
     */
    public Field updateField(long id, Body body) {
        String displayName = body.optNonBlank("display_name");
        Map<String, String> notes = new LinkedHashMap<>();
        for (String key : List.of("description", "caveats", "points_of_interest")) {
            String value = body.optNonBlank(key);
            if (value != null || body.get(key).isNull()) {
                notes.put(key, value);
            }
        }
        Long fkTarget = body.optPosInt("fk_target_field_id");
        String semanticType = typeKeyword(body, "semantic_type", Types::isSemanticOrRelation,
                "nullable value must be a valid field semantic or relation type (keyword or string).",
                "should be a valid field semantic or relation type");
        String coercion = typeKeyword(body, "coercion_strategy", Types::isCoercionStrategy,
                "nullable value must be a valid coercion strategy (keyword or string).", "should be a valid coercion strategy");
        String visibility = body.optEnum("visibility_type", FIELD_VISIBILITY);
        String hasFieldValues = body.optEnum("has_field_values", HAS_FIELD_VALUES);
        Map<String, Object> settings = body.optMap("settings");
        body.throwIfInvalid();

        Field field = requireField(id);
        String oldSemantic = field.semanticType;
        String newSemantic = body.has("semantic_type") ? semanticType : oldSemantic;
        boolean removedFk = !Objects.equals(oldSemantic, newSemantic) && Types.isa(oldSemantic, "type/FK")
                && !Types.isa(newSemantic, "type/FK");
        Long target = body.has("fk_target_field_id") ? fkTarget : field.fkTargetFieldId;
        if (target != null && body.has("fk_target_field_id") && !inSameDatabase(field, target)) {
            throw ApiException.invalidField("fk_target_field_id", "Invalid target field");
        }
        if (displayName != null) {
            field.displayName = displayName;
        }
        if (notes.containsKey("description")) {
            field.description = notes.get("description");
        }
        if (notes.containsKey("caveats")) {
            field.caveats = notes.get("caveats");
        }
        if (notes.containsKey("points_of_interest")) {
            field.pointsOfInterest = notes.get("points_of_interest");
        }
        field.semanticType = newSemantic;
        field.fkTargetFieldId = removedFk ? null : target;
        if (visibility != null) {
            field.visibilityType = visibility;
        }
        if (body.has("has_field_values")) {
            field.hasFieldValues = hasFieldValues;
        }
        if (settings != null) {
            field.settings = settings;
        }
        if (body.has("coercion_strategy")) {
            // A strategy that does not apply to the field's base type leaves the field uncoerced (Metabase's rule).
            String coerced = coercion == null ? null : Types.coercedType(coercion, field.baseType);
            field.coercionStrategy = coerced == null ? null : coercion;
            field.effectiveType = coerced == null ? field.baseType : coerced;
        }
        field.updatedAt = now();
        db.run(session -> session.getMapper(WarehouseMapper.class).updateFieldEdits(field));
        return requireField(id);
    }

    private boolean inSameDatabase(Field field, long targetId) {
        Field target = db.with(WarehouseMapper.class, m -> m.findField(targetId));
        if (target == null) {
            return false;
        }
        List<Table> tables = tablesByIds(List.of(field.tableId, target.tableId));
        return tables.stream().map(t -> t.dbId).distinct().count() == 1;
    }

    private static String typeKeyword(Body body, String key, java.util.function.Predicate<String> valid, String message,
                                      String specific) {
        JsonNode value = body.get(key);
        if (value.isNull() || value.isMissingNode()) {
            return null;
        }
        String text = value.isTextual() ? value.asText().replaceFirst("^:", "") : null;
        if (text == null || !valid.test(text)) {
            body.addError(key, message, specific + ", received: " + render(value));
            return null;
        }
        return text;
    }

    private static String render(JsonNode value) {
        return value.isTextual() ? "\"" + value.asText() + "\"" : value.toString();
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }
}
