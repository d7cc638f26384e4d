package io.quarry.assistant;

import io.quarry.warehouse.Field;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the assistant knows of one database: its synced tables and fields that people may see (hidden, technical and
 * cruft tables and sensitive or retired fields left out), with foreign keys and the cached values of list fields.
 * Built from the metadata service, never from the application database directly. A model is one table whose
 * columns are referred to by name ({@code modelId} set); {@code sqlName}: the name of the database's SQL ("PostgreSQL").
 */
record SchemaSnapshot(long databaseId, String sqlName, List<TableInfo> tables, Long modelId) {
    /** Most distinct values kept per list field (the prompt shows fewer). */
    static final int MAX_VALUES = 100;
    private static final Set<String> HIDDEN_FIELDS = Set.of("sensitive", "retired");

    SchemaSnapshot {
        tables = List.copyOf(tables);
    }

    record TableInfo(long id, String schema, String name, String displayName, String description, List<FieldInfo> fields) {
        TableInfo {
            fields = List.copyOf(fields);
        }

        /** The field people name rows of this table by (its title or name), or null. */
        FieldInfo nameField() {
            for (FieldInfo f : fields) {
                if ("type/Title".equals(f.semanticType()) || "type/Name".equals(f.semanticType())) {
                    return f;
                }
            }
            return null;
        }

        /** The date a row "happened" on: its creation timestamp, else its first date or date-time field. */
        FieldInfo defaultDate() {
            for (FieldInfo f : fields) {
                if ("type/CreationTimestamp".equals(f.semanticType()) || "type/CreationDate".equals(f.semanticType())) {
                    return f;
                }
            }
            return fields.stream().filter(FieldInfo::temporal).findFirst().orElse(null);
        }
    }

    record FieldInfo(long id, long tableId, String name, String displayName, String baseType, String semanticType,
                     Long fkTargetFieldId, List<String> values) {
        FieldInfo {
            values = List.copyOf(values);
        }

        boolean numeric() {
            return baseType != null && Types.isa(baseType, "type/Number") && !isKey();
        }

        boolean temporal() {
            return baseType != null && Types.isa(baseType, "type/Temporal");
        }

        boolean isKey() {
            return "type/PK".equals(semanticType) || "type/FK".equals(semanticType);
        }
    }

    TableInfo table(long id) {
        for (TableInfo t : tables) {
            if (t.id() == id) {
                return t;
            }
        }
        return null;
    }

    FieldInfo field(long id) {
        for (TableInfo t : tables) {
            for (FieldInfo f : t.fields()) {
                if (f.id() == id) {
                    return f;
                }
            }
        }
        return null;
    }

    /** Foreign keys of {@code table} whose target is in this snapshot: FK field → target table. */
    Map<FieldInfo, TableInfo> foreignKeys(TableInfo table) {
        Map<FieldInfo, TableInfo> out = new java.util.LinkedHashMap<>();
        for (FieldInfo f : table.fields()) {
            if (f.fkTargetFieldId() != null) {
                FieldInfo target = field(f.fkTargetFieldId());
                if (target != null && target.tableId() != table.id()) {
                    out.put(f, table(target.tableId()));
                }
            }
        }
        return out;
    }

    /** The snapshot of a database from its synced metadata. */
    static SchemaSnapshot load(MetadataService metadata, long databaseId, String sqlName) {
        Objects.requireNonNull(metadata, "metadata is null");
        List<Table> tables = metadata.tables(databaseId, true).stream().filter(t -> t.visibilityType == null).toList();
        Map<Long, List<Field>> fields = metadata.fieldsByTable(tables.stream().map(t -> t.id).toList());
        Map<Long, List<List<Object>>> values = metadata.fieldValuesOfDatabase(databaseId);
        List<TableInfo> out = new ArrayList<>();
        for (Table t : tables) {
            List<FieldInfo> infos = new ArrayList<>();
            for (Field f : fields.getOrDefault(t.id, List.of())) {
                if (!f.active || HIDDEN_FIELDS.contains(f.visibilityType) || f.parentId != null) {
                    continue;
                }
                List<String> texts = new ArrayList<>();
                if ("list".equals(f.hasFieldValues) && f.baseType != null && Types.isa(f.baseType, "type/Text")) {
                    for (List<Object> pair : values.getOrDefault(f.id, List.of())) {
                        if (!pair.isEmpty() && pair.get(0) instanceof String s && !s.isBlank() && texts.size() < MAX_VALUES) {
                            texts.add(s);
                        }
                    }
                }
                infos.add(new FieldInfo(f.id, t.id, f.name, f.displayName, f.effectiveType != null ? f.effectiveType : f.baseType,
                        f.semanticType, f.fkTargetFieldId, texts));
            }
            out.add(new TableInfo(t.id, t.schemaName, t.name, t.displayName, t.description, infos));
        }
        return new SchemaSnapshot(databaseId, sqlName, out, null);
    }

    /** Every field by id, for look-ups in bulk. */
    Map<Long, FieldInfo> fieldsById() {
        Map<Long, FieldInfo> out = new HashMap<>();
        tables.forEach(t -> t.fields().forEach(f -> out.put(f.id(), f)));
        return out;
    }
}
