package io.quarry.sync;

import io.quarry.appdb.Db;
import io.quarry.driver.SqlDialect;
import io.quarry.warehouse.Database;
import io.quarry.qp.WarehouseSession;
import io.quarry.qp.Warehouses;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseMapper;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code analyze} step: fingerprints fields from a bounded sample of each table (the first
 * {@value #SAMPLE_ROWS} rows, one query per table), then classifies them ({@link Classifier}). A field is fingerprinted
 * once (again when Quarry's fingerprint version grows or the database asks to {@code refingerprint}); a semantic type
 * or {@code has_field_values} already set — by keys or by a person — is never replaced. The sampling SQL is built
 * from identifiers quoted by the engine's {@link SqlDialect} only; it has no values at all.
 */
public final class Analyzer {
    private static final Logger log = LoggerFactory.getLogger(Analyzer.class);
    /** Rows sampled per table. */
    public static final int SAMPLE_ROWS = 10_000;

    private final Db db;
    private final DatabaseService databases;
    private final Warehouses warehouses;
    private final Clock clock;

    public Analyzer(Db db, DatabaseService databases, Warehouses warehouses, Clock clock) {
        this.db = db;
        this.databases = databases;
        this.warehouses = warehouses;
        this.clock = clock;
    }

    /** Step summaries, Metabase's names and keys. */
    public record Summary(int attempted, int updated, int noData, int failed, int classified, int classifyFailed) {
        public Map<String, Object> fingerprints() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("fingerprints-attempted", attempted);
            m.put("updated-fingerprints", updated);
            m.put("no-data-fingerprints", noData);
            m.put("failed-fingerprints", failed);
            return m;
        }

        public Map<String, Object> classification() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("fields-classified", classified);
            m.put("fields-failed", classifyFailed);
            return m;
        }
    }

    /** Fingerprints and classifies the fields of a database that need it. */
    public Summary analyze(Database database) throws SQLException {
        return analyze(database, null);
    }

    /**
     * Fingerprints and classifies the fields of a database that need it. {@code synced}: what the metadata step of
     * the same run just wrote (then the tables and fields are not read back, and the analysis is applied to those
     * objects), or null. Fields whose whole first analysis was written with their insert count as they would have
     * here, without being written again.
     */
    Summary analyze(Database database, SchemaSync.Synced synced) throws SQLException {
        SqlDialect dialect = databases.driverOf(database).dialect();
        boolean refingerprint = Boolean.TRUE.equals(database.refingerprint);
        List<Table> tables = synced != null ? synced.tables().stream().filter(t -> t.active).toList()
                : db.with(WarehouseMapper.class, m -> m.listTables(database.id, true));
        Set<Long> fingerprintedAtInsert = synced != null ? synced.fingerprintedAtInsert() : Set.of();
        List<Field> allFields = synced != null ? synced.fields()
                : db.with(WarehouseMapper.class, m -> m.listFieldsOfDatabase(database.id));
        Map<Long, List<Field>> fieldsByTable = allFields.stream()
                .filter(f -> f.active && !"retired".equals(f.visibilityType) && f.parentId == null)
                .filter(f -> refingerprint || f.fingerprintVersion < Fingerprints.VERSION || fingerprintedAtInsert.contains(f.id))
                .collect(Collectors.groupingBy(f -> f.tableId, LinkedHashMap::new, Collectors.toList()));
        int attempted = 0;
        int updated = 0;
        int noData = 0;
        int failed = 0;
        int classified = 0;
        int classifyFailed = 0;
        List<Field> changed = new ArrayList<>();
        // first analyses of fields of empty tables, by the semantic type they get: one UPDATE per type and chunk of
        // ids instead of one per field (a new database of empty tables is mostly these)
        Map<String, List<Long>> analyzedWithoutData = new LinkedHashMap<>();
        OffsetDateTime now = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
        try (WarehouseSession session = fieldsByTable.isEmpty() ? null : warehouses.openRead(database)) {
            // new tables the metadata step of this run already found empty are not asked again
            Set<Long> emptyTables = new HashSet<>(synced != null ? synced.emptyNewTables() : Set.of());
            List<Table> toProbe = tables.stream().filter(t -> fieldsByTable.containsKey(t.id) && !emptyTables.contains(t.id)).toList();
            if (!toProbe.isEmpty()) {
                emptyTables.addAll(emptyTables(session, dialect, toProbe));
            }
            for (Table table : tables) {
                List<Field> fields = fieldsByTable.get(table.id);
                if (fields == null || fields.isEmpty()) {
                    continue;
                }
                attempted += fields.size();
                List<List<Object>> samples;
                try {
                    samples = emptyTables.contains(table.id) ? noRows(fields.size()) : sample(session, dialect, table, fields);
                } catch (SQLException e) {
                    log.warn("Could not sample {}.{} of database {}: {}", table.schemaName, table.name, database.id, e.getMessage());
                    failed += fields.size();
                    continue;
                }
                boolean empty = samples.get(0).isEmpty();
                for (int i = 0; i < fields.size(); i++) {
                    Field field = fields.get(i);
                    if (fingerprintedAtInsert.contains(field.id)) {
                        // analysed with its insert (a key of a table without rows: no fingerprint whatever the rows)
                        updated++;
                        classified++;
                        continue;
                    }
                    try {
                        boolean firstAnalysis = field.lastAnalyzed == null;
                        // the name rules are a dozen regular expressions: matched once per field, not twice
                        String byName = field.semanticType == null && firstAnalysis ? Classifier.byName(field.name, field.baseType) : null;
                        String semanticForKind = field.semanticType != null ? field.semanticType : byName;
                        Fingerprints.Kind kind = Fingerprints.kindOf(field.baseType, semanticForKind);
                        if (empty && kind != Fingerprints.Kind.NONE) {
                            // nothing to learn from yet: name-based types now, the rest once there are rows
                            noData++;
                            if (firstAnalysis) {
                                field.semanticType = field.semanticType != null ? field.semanticType : byName;
                                field.lastAnalyzed = now;
                                analyzedWithoutData.computeIfAbsent(field.semanticType, k -> new ArrayList<>()).add(field.id);
                            }
                            continue;
                        }
                        field.fingerprint = Fingerprints.of(kind, samples.get(i));
                        field.fingerprintVersion = Fingerprints.VERSION;
                        updated++;
                        Classifier.Result result = Classifier.classify(field.name, field.baseType, field.semanticType,
                                field.hasFieldValues, field.previewDisplay, field.fingerprint);
                        field.semanticType = result.semanticType();
                        field.hasFieldValues = result.hasFieldValues();
                        field.previewDisplay = result.previewDisplay();
                        field.lastAnalyzed = now;
                        classified++;
                        changed.add(field);
                    } catch (RuntimeException e) {
                        log.warn("Could not analyze field {} ({}) of database {}: {}", field.id, field.name, database.id, e.toString());
                        classifyFailed++;
                    }
                }
            }
        }
        if (!changed.isEmpty() || !analyzedWithoutData.isEmpty()) {
            db.batch(session -> {
                SyncMapper mapper = session.getMapper(SyncMapper.class);
                for (Field field : changed) {
                    mapper.saveAnalysis(field);
                }
                for (Map.Entry<String, List<Long>> group : analyzedWithoutData.entrySet()) {
                    for (List<Long> ids : SchemaSync.chunks(group.getValue())) {
                        mapper.saveAnalysisWithoutData(ids, group.getKey(), now);
                    }
                }
                return null;
            });
        }
        return new Summary(attempted, updated, noData, failed, classified, classifyFailed);
    }

    /** What {@link #analyzeWithoutRows} did to a field. */
    enum EarlyAnalysis { NONE, NO_DATA, FINGERPRINTED }

    /**
     * The first analysis of a new field of a table without rows, as {@link #analyze} would make it, applied to the field
     * before it is inserted: {@link EarlyAnalysis#NO_DATA} (a name-based semantic type and {@code last_analyzed}; the
     * fingerprint waits for rows) or {@link EarlyAnalysis#FINGERPRINTED} (a field that is never fingerprinted, a
     * primary key: classified now). {@code becomesForeignKey}: the metadata step will make it a foreign key after its
     * insert, so it is analysed as one and its semantic type is left to that step; such a field is only ever
     * {@code NO_DATA}.
     */
    static EarlyAnalysis analyzeWithoutRows(Field field, boolean becomesForeignKey, OffsetDateTime now) {
        String semantic = field.semanticType != null ? field.semanticType : becomesForeignKey ? "type/FK" : null;
        String byName = semantic == null ? Classifier.byName(field.name, field.baseType) : null;
        Fingerprints.Kind kind = Fingerprints.kindOf(field.baseType, semantic != null ? semantic : byName);
        if (kind != Fingerprints.Kind.NONE) {
            if (!becomesForeignKey) {
                field.semanticType = semantic != null ? semantic : byName;
            }
            field.lastAnalyzed = now;
            return EarlyAnalysis.NO_DATA;
        }
        if (becomesForeignKey) {
            return EarlyAnalysis.NONE;
        }
        Map<String, Object> fingerprint = Fingerprints.of(kind, List.of());
        Classifier.Result result = Classifier.classify(field.name, field.baseType, field.semanticType, field.hasFieldValues,
                field.previewDisplay, fingerprint);
        field.fingerprint = fingerprint;
        field.fingerprintVersion = Fingerprints.VERSION;
        field.semanticType = result.semanticType();
        field.hasFieldValues = result.hasFieldValues();
        field.previewDisplay = result.previewDisplay();
        field.lastAnalyzed = now;
        return EarlyAnalysis.FINGERPRINTED;
    }

    /** Tables per probe query of {@link #emptyTables}. */
    static final int PROBE_CHUNK = 100;

    /**
     * The tables that have no rows, asked {@value #PROBE_CHUNK} tables per query ({@code SELECT k FROM (SELECT 1 FROM
     * t LIMIT 1) UNION ALL ...}) so that a database of many empty tables (a new one, typically) costs a few round trips
     * instead of one sampling query per table. Only an optimisation: a probe the database refuses (a table it may not
     * read, an engine without this SQL) just leaves its tables to be sampled one by one, as before.
     */
    static Set<Long> emptyTables(WarehouseSession session, SqlDialect dialect, List<Table> tables) {
        Set<Long> empty = new HashSet<>();
        for (Table table : withoutRows(session, dialect, tables, t -> t.schemaName, t -> t.name)) {
            empty.add(table.id);
        }
        return empty;
    }

    /** The tables (given by schema and name) that have no rows, probed as {@link #emptyTables} does. */
    static <T> Set<T> withoutRows(WarehouseSession session, SqlDialect dialect, List<T> tables,
                                  java.util.function.Function<T, String> schema, java.util.function.Function<T, String> name) {
        Set<T> empty = new HashSet<>();
        for (List<T> chunk : SchemaSync.chunks(tables, PROBE_CHUNK)) {
            StringBuilder sql = new StringBuilder();
            for (int i = 0; i < chunk.size(); i++) {
                T table = chunk.get(i);
                sql.append(i == 0 ? "" : " UNION ALL ").append("SELECT ").append(i).append(" AS k FROM (SELECT 1 AS one FROM ")
                        .append(dialect.qualify(schema.apply(table), name.apply(table))).append(' ').append(dialect.limit(1))
                        .append(") q").append(i);
            }
            boolean[] hasRows = new boolean[chunk.size()];
            try {
                session.query(sql.toString(), List.of(), false, 0, row -> hasRows[((Number) row.get(1)).intValue()] = true);
            } catch (SQLException | RuntimeException e) {
                log.debug("Could not probe {} tables for rows, sampling them one by one: {}", chunk.size(), e.getMessage());
                continue;
            }
            for (int i = 0; i < chunk.size(); i++) {
                if (!hasRows[i]) {
                    empty.add(chunk.get(i));
                }
            }
        }
        return empty;
    }

    /** The sample of a table without rows: an empty list per field. */
    private static List<List<Object>> noRows(int fields) {
        List<List<Object>> values = new ArrayList<>();
        for (int i = 0; i < fields; i++) {
            values.add(new ArrayList<>());
        }
        return values;
    }

    /** One list of sampled values per field, in the fields' order. */
    private static List<List<Object>> sample(WarehouseSession session, SqlDialect dialect, Table table, List<Field> fields)
            throws SQLException {
        String columns = fields.stream().map(f -> dialect.quote(f.name)).collect(Collectors.joining(", "));
        String sql = "SELECT " + columns + " FROM " + dialect.qualify(table.schemaName, table.name) + " "
                + dialect.limit(SAMPLE_ROWS);
        List<List<Object>> values = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            values.add(new ArrayList<>());
        }
        boolean[] text = new boolean[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
            text[i] = BaseTypes.isText(fields.get(i).baseType);
        }
        session.query(sql, List.of(), false, SAMPLE_ROWS, row -> {
            for (int i = 0; i < fields.size(); i++) {
                values.get(i).add(text[i] ? row.text(i + 1) : Fingerprints.normalize(row.get(i + 1)));
            }
        });
        return values;
    }
}
