package io.quarry.sync;

import io.quarry.appdb.Db;
import io.quarry.driver.Driver;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseMapper;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Schema sync: reads the database's tables, columns, primary and foreign keys from JDBC metadata into Quarry's
 * tables and fields. Metadata is read with one call per kind for the whole database (not one per table), then
 * written in one application-database transaction. Tables and columns that disappeared become inactive; those that
 * come back are active again with their ids (and everything people set on them) kept.
 */
public final class SchemaSync {
    private final Db db;
    private final DatabaseService databases;
    private final Clock clock;

    public SchemaSync(Db db, DatabaseService databases, Clock clock) {
        this.db = db;
        this.databases = databases;
        this.clock = clock;
    }

    /** What JDBC metadata says about one table. */
    record FoundTable(String schema, String name, String type, String remarks, List<FoundColumn> columns) {
    }

    record FoundColumn(String name, int jdbcType, String typeName, int position, String remarks, boolean autoIncrement,
                       boolean required) {
    }

    record Key(String schema, String table, String column) {
    }

    /** Reads the database's metadata; pure JDBC, nothing written. */
    public Metadata read(Database database) throws SQLException {
        Driver driver = databases.driverOf(database);
        try (Connection connection = databases.connect(database)) {
            DatabaseMetaData meta = connection.getMetaData();
            String catalog = connection.getCatalog();
            Map<Key, FoundTable> tables = new java.util.LinkedHashMap<>();
            try (ResultSet rs = meta.getTables(catalog, null, "%", new String[]{"TABLE", "VIEW", "BASE TABLE", "MATERIALIZED VIEW",
                    "FOREIGN TABLE", "PARTITIONED TABLE"})) {
                while (rs.next()) {
                    String schema = rs.getString("TABLE_SCHEM");
                    if (schema != null && driver.systemSchemas().contains(schema)) {
                        continue;
                    }
                    String name = rs.getString("TABLE_NAME");
                    tables.put(new Key(schema, name, null), new FoundTable(schema, name, rs.getString("TABLE_TYPE"),
                            rs.getString("REMARKS"), new ArrayList<>()));
                }
            }
            try (ResultSet rs = meta.getColumns(catalog, null, "%", "%")) {
                while (rs.next()) {
                    FoundTable table = tables.get(new Key(rs.getString("TABLE_SCHEM"), rs.getString("TABLE_NAME"), null));
                    if (table == null) {
                        continue;
                    }
                    table.columns().add(new FoundColumn(rs.getString("COLUMN_NAME"), rs.getInt("DATA_TYPE"),
                            rs.getString("TYPE_NAME"), rs.getInt("ORDINAL_POSITION"), rs.getString("REMARKS"),
                            "YES".equalsIgnoreCase(safe(rs, "IS_AUTOINCREMENT")),
                            rs.getInt("NULLABLE") == DatabaseMetaData.columnNoNulls && !"YES".equalsIgnoreCase(safe(rs, "IS_AUTOINCREMENT"))
                                    && rs.getString("COLUMN_DEF") == null));
                }
            }
            List<Key> primaryKeys = new ArrayList<>();
            Map<Key, Key> foreignKeys = new HashMap<>();
            for (FoundTable table : tables.values()) {
                try (ResultSet rs = meta.getPrimaryKeys(catalog, table.schema(), table.name())) {
                    while (rs.next()) {
                        primaryKeys.add(new Key(table.schema(), table.name(), rs.getString("COLUMN_NAME")));
                    }
                }
                try (ResultSet rs = meta.getImportedKeys(catalog, table.schema(), table.name())) {
                    while (rs.next()) {
                        foreignKeys.put(new Key(table.schema(), table.name(), rs.getString("FKCOLUMN_NAME")),
                                new Key(rs.getString("PKTABLE_SCHEM"), rs.getString("PKTABLE_NAME"), rs.getString("PKCOLUMN_NAME")));
                    }
                }
            }
            return new Metadata(new ArrayList<>(tables.values()), primaryKeys, foreignKeys,
                    meta.getDatabaseProductName() + " " + meta.getDatabaseProductVersion());
        }
    }

    private static String safe(ResultSet rs, String column) {
        try {
            return rs.getString(column);
        } catch (SQLException e) {
            return null;
        }
    }

    /** Everything schema sync read from one database. */
    public record Metadata(List<FoundTable> tables, List<Key> primaryKeys, Map<Key, Key> foreignKeys, String version) {
    }

    /** Reads the database and writes what it found. */
    public void sync(Database database) throws SQLException {
        Metadata metadata = read(database);
        write(database, metadata);
    }

    /** Writes metadata into Quarry's tables and fields, in one transaction. */
    void write(Database database, Metadata metadata) {
        Driver driver = databases.driverOf(database);
        OffsetDateTime now = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
        db.run(session -> {
            WarehouseMapper mapper = session.getMapper(WarehouseMapper.class);
            mapper.updateDatabaseVersion(database.id, metadata.version(), null);
            Map<Key, Table> existing = new HashMap<>();
            for (Table t : mapper.listTables(database.id, false)) {
                existing.put(new Key(t.schemaName, t.name, null), t);
            }
            Map<Long, Map<String, Field>> existingFields = new HashMap<>();
            if (!existing.isEmpty()) {
                for (Field f : mapper.listFieldsOfDatabase(database.id)) {
                    existingFields.computeIfAbsent(f.tableId, k -> new HashMap<>()).put(f.name, f);
                }
            }
            Map<Key, Field> fieldsByKey = new HashMap<>();
            java.util.Set<Key> seenTables = new java.util.HashSet<>();
            for (FoundTable found : metadata.tables()) {
                Key key = new Key(found.schema(), found.name(), null);
                seenTables.add(key);
                Table table = existing.get(key);
                if (table == null) {
                    table = new Table();
                    table.dbId = database.id;
                    table.schemaName = found.schema();
                    table.name = found.name();
                    table.displayName = DisplayNames.of(found.name());
                    table.description = blankToNull(found.remarks());
                    table.entityType = "entity/GenericTable";
                    table.initialSyncStatus = "complete";
                    table.createdAt = now;
                    table.updatedAt = now;
                    mapper.insertTable(table);
                } else if (!table.active || !"complete".equals(table.initialSyncStatus)) {
                    table.active = true;
                    table.initialSyncStatus = "complete";
                    table.updatedAt = now;
                    mapper.updateTableSyncState(table);
                }
                Map<String, Field> known = existingFields.getOrDefault(table.id, Map.of());
                java.util.Set<String> seenColumns = new java.util.HashSet<>();
                for (FoundColumn column : found.columns()) {
                    seenColumns.add(column.name());
                    String baseType = driver.baseType(column.jdbcType(), column.typeName());
                    Field field = known.get(column.name());
                    if (field == null) {
                        field = new Field();
                        field.tableId = table.id;
                        field.name = column.name();
                        field.displayName = DisplayNames.of(column.name());
                        field.description = blankToNull(column.remarks());
                        field.databaseType = column.typeName();
                        field.baseType = baseType;
                        field.effectiveType = baseType;
                        field.position = column.position() - 1;
                        field.databasePosition = column.position() - 1;
                        field.databaseIsAutoIncrement = column.autoIncrement();
                        field.databaseRequired = column.required();
                        field.createdAt = now;
                        field.updatedAt = now;
                        mapper.insertField(field);
                    } else if (!field.active || !Objects.equals(field.baseType, baseType)
                            || !Objects.equals(field.databaseType, column.typeName()) || field.databasePosition != column.position() - 1) {
                        field.active = true;
                        field.baseType = baseType;
                        field.effectiveType = field.coercionStrategy == null ? baseType : field.effectiveType;
                        field.databaseType = column.typeName();
                        field.position = column.position() - 1;
                        field.databasePosition = column.position() - 1;
                        field.databaseIsAutoIncrement = column.autoIncrement();
                        field.databaseRequired = column.required();
                        field.updatedAt = now;
                        mapper.updateFieldSyncState(field);
                    }
                    fieldsByKey.put(new Key(found.schema(), found.name(), column.name()), field);
                }
                for (Field gone : known.values()) {
                    if (gone.active && !seenColumns.contains(gone.name)) {
                        gone.active = false;
                        gone.updatedAt = now;
                        mapper.updateFieldSyncState(gone);
                    }
                }
            }
            for (Map.Entry<Key, Table> entry : existing.entrySet()) {
                Table gone = entry.getValue();
                if (gone.active && !seenTables.contains(entry.getKey())) {
                    gone.active = false;
                    gone.updatedAt = now;
                    mapper.updateTableSyncState(gone);
                }
            }
            for (Key pk : metadata.primaryKeys()) {
                Field field = fieldsByKey.get(pk);
                if (field != null && field.semanticType == null) {
                    field.semanticType = "type/PK";
                    mapper.updateFieldForeignKey(field.id, null, "type/PK");
                }
            }
            for (Map.Entry<Key, Key> fk : metadata.foreignKeys().entrySet()) {
                Field field = fieldsByKey.get(fk.getKey());
                Field target = fieldsByKey.get(fk.getValue());
                // Only a field nobody typed yet (or an FK still without target) becomes an FK: a semantic type or a
                // target someone set in the data model stays as they set it.
                boolean untyped = field != null && (field.semanticType == null
                        || "type/FK".equals(field.semanticType) && field.fkTargetFieldId == null);
                if (untyped && target != null) {
                    field.semanticType = "type/FK";
                    field.fkTargetFieldId = target.id;
                    mapper.updateFieldForeignKey(field.id, target.id, "type/FK");
                }
            }
            mapper.updateDatabaseSyncStatus(database.id, "complete");
        });
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
