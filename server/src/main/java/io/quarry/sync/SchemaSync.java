package io.quarry.sync;

import io.quarry.appdb.Db;
import io.quarry.driver.Driver;
import io.quarry.warehouse.Database;
import io.quarry.qp.WarehouseSession;
import io.quarry.qp.Warehouses;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseMapper;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Schema sync (the {@code sync-metadata} step): reads the database's tables, columns, primary and foreign keys from
 * JDBC metadata into Quarry's tables and fields. Metadata is read with one call per kind for the whole database where
 * the JDBC driver allows it (keys fall back to one call per table otherwise), then written in one application-database
 * transaction of JDBC batches and set-based updates: a schema of 1,000 tables × 20 columns costs a handful of round
 * trips, not 20,000. Tables and columns that disappeared become inactive; those that come back are active again
 * with their ids (and everything people set on them) kept. New tables start {@code incomplete}; {@link SyncService}
 * marks them complete when the first full sync ends.
 */
public final class SchemaSync {
    private final Db db;
    private final DatabaseService databases;
    private final Warehouses warehouses;
    private final Clock clock;

    public SchemaSync(Db db, DatabaseService databases, Warehouses warehouses, Clock clock) {
        this.db = db;
        this.databases = databases;
        this.warehouses = warehouses;
        this.clock = clock;
    }

    Db db() {
        return db;
    }

    Warehouses warehouses() {
        return warehouses;
    }

    Clock clock() {
        return clock;
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
        return read(database, null);
    }

    /**
     * Reads the database's metadata and, when {@code knownTables} is given, probes the tables not in it (new ones) for
     * rows ({@link Analyzer#withoutRows}, 100 tables per query): the fields of a new table without rows get their
     * first analysis as they are inserted. Pure JDBC, nothing written.
     */
    Metadata read(Database database, Set<Key> knownTables) throws SQLException {
        Driver driver = databases.driverOf(database);
        try (WarehouseSession session = warehouses.openRead(database)) {
            DatabaseMetaData meta = session.metadata();
            String catalog = session.catalog();
            Map<Key, FoundTable> tables = new java.util.LinkedHashMap<>();
            try (ResultSet rs = meta.getTables(catalog, null, "%", new String[]{"TABLE", "VIEW", "BASE TABLE", "MATERIALIZED VIEW",
                    "FOREIGN TABLE", "PARTITIONED TABLE"})) {
                while (rs.next()) {
                    String schema = rs.getString("TABLE_SCHEM");
                    // persisted models' cache schemas hold Quarry's own copies, not the database's tables
                    if (schema != null && (driver.systemSchemas().contains(schema) || schema.startsWith(Driver.PERSISTED_MODELS_SCHEMA_PREFIX))) {
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
            readKeys(meta, catalog, tables, primaryKeys, foreignKeys);
            Set<Key> emptyNewTables = Set.of();
            if (knownTables != null) {
                List<Key> newTables = tables.keySet().stream().filter(k -> !knownTables.contains(k)).toList();
                emptyNewTables = newTables.isEmpty() ? Set.of()
                        : Analyzer.withoutRows(session, driver.dialect(), newTables, Key::schema, Key::table);
            }
            return new Metadata(new ArrayList<>(tables.values()), primaryKeys, foreignKeys,
                    meta.getDatabaseProductName() + " " + meta.getDatabaseProductVersion(), emptyNewTables);
        }
    }

    /**
     * Primary and foreign keys. JDBC asks for a table name, but most drivers (PostgreSQL, H2) accept null and answer
     * for a whole schema in one call: that is tried first, per schema. A driver that refuses, or answers nothing while
     * the schema has tables, is asked table by table.
     */
    private static void readKeys(DatabaseMetaData meta, String catalog, Map<Key, FoundTable> tables, List<Key> primaryKeys,
                                 Map<Key, Key> foreignKeys) throws SQLException {
        Map<String, List<FoundTable>> bySchema = new java.util.LinkedHashMap<>();
        for (FoundTable table : tables.values()) {
            bySchema.computeIfAbsent(table.schema() == null ? "" : table.schema(), k -> new ArrayList<>()).add(table);
        }
        for (Map.Entry<String, List<FoundTable>> entry : bySchema.entrySet()) {
            String schema = entry.getValue().get(0).schema();
            List<Key> pks = new ArrayList<>();
            Map<Key, Key> fks = new HashMap<>();
            boolean bulk = false;
            if (entry.getValue().size() > 1) {
                try {
                    readPrimaryKeys(meta, catalog, schema, null, tables, pks);
                    readForeignKeys(meta, catalog, schema, null, tables, fks);
                    bulk = !pks.isEmpty();
                } catch (SQLException e) {
                    bulk = false;
                }
            }
            if (!bulk) {
                pks.clear();
                fks.clear();
                for (FoundTable table : entry.getValue()) {
                    readPrimaryKeys(meta, catalog, table.schema(), table.name(), tables, pks);
                    readForeignKeys(meta, catalog, table.schema(), table.name(), tables, fks);
                }
            }
            primaryKeys.addAll(pks);
            foreignKeys.putAll(fks);
        }
    }

    private static void readPrimaryKeys(DatabaseMetaData meta, String catalog, String schema, String table,
                                        Map<Key, FoundTable> tables, List<Key> out) throws SQLException {
        try (ResultSet rs = meta.getPrimaryKeys(catalog, schema, table)) {
            while (rs.next()) {
                Key owner = new Key(rs.getString("TABLE_SCHEM"), rs.getString("TABLE_NAME"), null);
                if (tables.containsKey(owner)) {
                    out.add(new Key(owner.schema(), owner.table(), rs.getString("COLUMN_NAME")));
                }
            }
        }
    }

    private static void readForeignKeys(DatabaseMetaData meta, String catalog, String schema, String table,
                                        Map<Key, FoundTable> tables, Map<Key, Key> out) throws SQLException {
        try (ResultSet rs = meta.getImportedKeys(catalog, schema, table)) {
            while (rs.next()) {
                Key owner = new Key(rs.getString("FKTABLE_SCHEM"), rs.getString("FKTABLE_NAME"), null);
                if (tables.containsKey(owner)) {
                    out.put(new Key(owner.schema(), owner.table(), rs.getString("FKCOLUMN_NAME")),
                            new Key(rs.getString("PKTABLE_SCHEM"), rs.getString("PKTABLE_NAME"), rs.getString("PKCOLUMN_NAME")));
                }
            }
        }
    }

    private static String safe(ResultSet rs, String column) {
        try {
            return rs.getString(column);
        } catch (SQLException e) {
            return null;
        }
    }

    /**
     * Everything schema sync read from one database; {@code emptyNewTables}: the tables new to Quarry that were found
     * without rows (only probed when the run analyses next).
     */
    public record Metadata(List<FoundTable> tables, List<Key> primaryKeys, Map<Key, Key> foreignKeys, String version,
                           Set<Key> emptyNewTables) {
        public Metadata(List<FoundTable> tables, List<Key> primaryKeys, Map<Key, Key> foreignKeys, String version) {
            this(tables, primaryKeys, foreignKeys, version, Set.of());
        }
    }

    /**
     * What a metadata sync wrote, kept for the next steps of the same run so that they need not read the database's
     * tables and fields back: every table and field of the database as they now are in the application database
     * (retired ones included), in {@code listTables}/{@code listFieldsOfDatabase} order, and the ids of the fields
     * whose whole first analysis (fingerprint included) was written with their insert, and of the new tables found
     * without rows (the analysis step does not ask them again).
     */
    public record Synced(Summary summary, List<Table> tables, List<Field> fields, Set<Long> fingerprintedAtInsert,
                         Set<Long> emptyNewTables) {
    }

    /** What one metadata sync changed (Metabase's step summary). */
    public record Summary(int totalTables, int newTables, int updatedTables, int retiredTables, int totalFields, int newFields,
                          int updatedFields, int retiredFields, int totalFks, int updatedFks) {
        public Map<String, Object> toMap() {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("total-tables", totalTables);
            m.put("new-tables", newTables);
            m.put("updated-tables", updatedTables);
            m.put("retired-tables", retiredTables);
            m.put("total-fields", totalFields);
            m.put("new-fields", newFields);
            m.put("updated-fields", updatedFields);
            m.put("retired-fields", retiredFields);
            m.put("total-fks", totalFks);
            m.put("updated-fks", updatedFks);
            return m;
        }
    }

    /** Reads the database and writes what it found. */
    public Summary sync(Database database) throws SQLException {
        return sync(database, false).summary();
    }

    /**
     * Reads the database and writes what it found. With {@code analyzeNext} (the run's next step is {@code analyze}),
     * new tables are probed for rows and the fields of those without rows are inserted with their first analysis (what
     * {@link Analyzer} would write for them: name-based semantic types, {@code last_analyzed}), so that the analysis
     * does not rewrite 20,000 rows of a new database of empty tables.
     */
    Synced sync(Database database, boolean analyzeNext) throws SQLException {
        Set<Key> knownTables = null;
        if (analyzeNext) {
            knownTables = new HashSet<>();
            for (Table t : db.with(WarehouseMapper.class, m -> m.listTables(database.id, false))) {
                knownTables.add(new Key(t.schemaName, t.name, null));
            }
        }
        return write(database, read(database, knownTables));
    }

    /** Ids per set-based UPDATE ({@code WHERE id IN (...)}). */
    static final int CHUNK = 500;

    /**
     * Writes metadata into Quarry's tables and fields, in one transaction on MyBatis' BATCH executor: inserts and
     * updates go out as JDBC batches (generated ids come back when a batch is flushed), so the cost is a few round
     * trips, not one per row.
     */
    Synced write(Database database, Metadata metadata) {
        Driver driver = databases.driverOf(database);
        OffsetDateTime now = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
        return db.batch(session -> {
            WarehouseMapper warehouse = session.getMapper(WarehouseMapper.class);
            SyncMapper mapper = session.getMapper(SyncMapper.class);
            warehouse.updateDatabaseVersion(database.id, metadata.version(), database.timezone);
            Map<Key, Table> existing = new HashMap<>();
            for (Table t : warehouse.listTables(database.id, false)) {
                existing.put(new Key(t.schemaName, t.name, null), t);
            }
            Map<Long, Map<String, Field>> existingFields = new HashMap<>();
            List<Field> allFields = new ArrayList<>();
            if (!existing.isEmpty()) {
                for (Field f : warehouse.listFieldsOfDatabase(database.id)) {
                    allFields.add(f);
                    existingFields.computeIfAbsent(f.tableId, k -> new HashMap<>()).put(f.name, f);
                }
            }
            java.util.Set<Key> primaryKeys = new java.util.HashSet<>(metadata.primaryKeys());

            // 1. tables: new ones inserted in one batch (ids come back at the flush), reactivated ones updated
            Map<Key, Table> tables = new java.util.LinkedHashMap<>();
            List<Table> newTables = new ArrayList<>();
            List<Table> reactivated = new ArrayList<>();
            for (FoundTable found : metadata.tables()) {
                Key key = new Key(found.schema(), found.name(), null);
                Table table = existing.get(key);
                if (table == null) {
                    table = new Table();
                    table.dbId = database.id;
                    table.schemaName = found.schema();
                    table.name = found.name();
                    table.displayName = DisplayNames.of(found.name());
                    table.description = blankToNull(found.remarks());
                    table.entityType = Classifier.entityType(found.name());
                    table.initialSyncStatus = "incomplete";
                    table.createdAt = now;
                    table.updatedAt = now;
                    newTables.add(table);
                } else if (!table.active) {
                    table.active = true;
                    table.updatedAt = now;
                    reactivated.add(table);
                }
                tables.put(key, table);
            }
            for (Table table : newTables) {
                warehouse.insertTable(table);
            }
            for (Table table : reactivated) {
                warehouse.updateTableSyncState(table);
            }
            session.flushStatements();

            // 2. fields: likewise; keys known from the metadata are set as they are inserted
            Map<Key, Field> fieldsByKey = new HashMap<>();
            List<Field> newFields = new ArrayList<>();
            List<Long> retiredFields = new ArrayList<>();
            List<Long> newPrimaryKeys = new ArrayList<>();
            List<Field> changedFields = new ArrayList<>();
            Map<Key, Field> newFieldsOfEmptyTables = new java.util.LinkedHashMap<>();
            Set<Long> emptyNewTableIds = new HashSet<>();
            int totalFields = 0;
            for (FoundTable found : metadata.tables()) {
                Key tableKey = new Key(found.schema(), found.name(), null);
                Table table = tables.get(tableKey);
                boolean emptyNewTable = metadata.emptyNewTables().contains(tableKey);
                if (emptyNewTable) {
                    emptyNewTableIds.add(table.id);
                }
                Map<String, Field> known = existingFields.getOrDefault(table.id, Map.of());
                java.util.Set<String> seenColumns = new java.util.HashSet<>();
                for (FoundColumn column : found.columns()) {
                    totalFields++;
                    seenColumns.add(column.name());
                    Key key = new Key(found.schema(), found.name(), column.name());
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
                        field.semanticType = primaryKeys.contains(key) ? "type/PK" : null;
                        field.position = column.position() - 1;
                        field.databasePosition = column.position() - 1;
                        field.databaseIsAutoIncrement = column.autoIncrement();
                        field.databaseRequired = column.required();
                        field.createdAt = now;
                        field.updatedAt = now;
                        newFields.add(field);
                        if (emptyNewTable) {
                            newFieldsOfEmptyTables.put(key, field);
                        }
                    } else {
                        if (!field.active || !Objects.equals(field.baseType, baseType)
                                || !Objects.equals(field.databaseType, column.typeName())
                                || field.databasePosition != column.position() - 1) {
                            field.active = true;
                            field.baseType = baseType;
                            field.effectiveType = field.coercionStrategy == null ? baseType : field.effectiveType;
                            field.databaseType = column.typeName();
                            field.position = column.position() - 1;
                            field.databasePosition = column.position() - 1;
                            field.databaseIsAutoIncrement = column.autoIncrement();
                            field.databaseRequired = column.required();
                            field.updatedAt = now;
                            changedFields.add(field);
                        }
                        if (field.semanticType == null && primaryKeys.contains(key)) {
                            field.semanticType = "type/PK";
                            newPrimaryKeys.add(field.id);
                        }
                    }
                    fieldsByKey.put(key, field);
                }
                for (Field gone : known.values()) {
                    if (gone.active && !seenColumns.contains(gone.name)) {
                        gone.active = false;
                        retiredFields.add(gone.id);
                    }
                }
            }
            // first analyses known already: fields of new tables without rows (what analyze would write for them),
            // a foreign key counted as the step below will set it
            Set<Field> fingerprintedAtInsert = new HashSet<>();
            for (Map.Entry<Key, Field> entry : newFieldsOfEmptyTables.entrySet()) {
                Key target = metadata.foreignKeys().get(entry.getKey());
                boolean becomesForeignKey = entry.getValue().semanticType == null && target != null && fieldsByKey.get(target) != null;
                if (Analyzer.analyzeWithoutRows(entry.getValue(), becomesForeignKey, now) == Analyzer.EarlyAnalysis.FINGERPRINTED) {
                    fingerprintedAtInsert.add(entry.getValue());
                }
            }
            for (Field field : newFields) {
                mapper.insertField(field);
            }
            for (Field field : changedFields) {
                warehouse.updateFieldSyncState(field);
            }
            for (List<Long> chunk : chunks(retiredFields)) {
                mapper.deactivateFields(chunk, now);
            }
            for (List<Long> chunk : chunks(newPrimaryKeys)) {
                mapper.markPrimaryKeys(chunk);
            }

            // 3. tables that disappeared
            List<Long> retiredTables = new ArrayList<>();
            for (Map.Entry<Key, Table> entry : existing.entrySet()) {
                if (entry.getValue().active && !tables.containsKey(entry.getKey())) {
                    retiredTables.add(entry.getValue().id);
                    entry.getValue().active = false;
                    entry.getValue().updatedAt = now;
                }
            }
            for (List<Long> chunk : chunks(retiredTables)) {
                mapper.deactivateTables(chunk, now);
            }
            session.flushStatements();

            // 4. foreign keys, only where the target changed (batched updates)
            int updatedFks = 0;
            for (Map.Entry<Key, Key> fk : metadata.foreignKeys().entrySet()) {
                Field field = fieldsByKey.get(fk.getKey());
                Field target = fieldsByKey.get(fk.getValue());
                // Only a field nobody typed yet (or an FK still without a target) becomes an FK: a semantic type or a
                // target someone set in the data model stays as they set it.
                boolean untyped = field != null && (field.semanticType == null
                        || "type/FK".equals(field.semanticType) && field.fkTargetFieldId == null);
                if (untyped && target != null) {
                    mapper.setForeignKey(field.id, target.id);
                    updatedFks++;
                    field.fkTargetFieldId = target.id;
                    field.semanticType = "type/FK";
                }
            }
            Summary summary = new Summary(metadata.tables().size(), newTables.size(), reactivated.size(), retiredTables.size(),
                    totalFields, newFields.size(), changedFields.size(), retiredFields.size(), metadata.foreignKeys().size(), updatedFks);
            // the state just written, in the order the mappers list it, for the run's next steps
            List<Table> allTables = new ArrayList<>(existing.values());
            allTables.addAll(newTables);
            allTables.sort(java.util.Comparator.comparing((Table t) -> t.schemaName == null ? null : t.schemaName.toLowerCase(java.util.Locale.ROOT),
                            java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()))
                    .thenComparing(t -> t.displayName == null ? "" : t.displayName.toLowerCase(java.util.Locale.ROOT))
                    .thenComparing(t -> t.id));
            allFields.addAll(newFields);
            allFields.sort(java.util.Comparator.comparing((Field f) -> f.tableId).thenComparingInt(f -> f.position)
                    .thenComparing(f -> f.id));
            Set<Long> fingerprinted = new HashSet<>();
            for (Field field : fingerprintedAtInsert) {
                fingerprinted.add(field.id);
            }
            return new Synced(summary, allTables, allFields, fingerprinted, emptyNewTableIds);
        });
    }

    static <T> List<List<T>> chunks(List<T> items) {
        return chunks(items, CHUNK);
    }

    static <T> List<List<T>> chunks(List<T> items, int size) {
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i += size) {
            out.add(items.subList(i, Math.min(items.size(), i + size)));
        }
        return out;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
