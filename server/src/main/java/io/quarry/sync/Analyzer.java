package io.quarry.sync;

import io.quarry.appdb.Db;
import io.quarry.driver.SqlDialect;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseMapper;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
    private final Clock clock;

    public Analyzer(Db db, DatabaseService databases, Clock clock) {
        this.db = db;
        this.databases = databases;
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
        SqlDialect dialect = databases.driverOf(database).dialect();
        boolean refingerprint = Boolean.TRUE.equals(database.refingerprint);
        List<Table> tables = db.with(WarehouseMapper.class, m -> m.listTables(database.id, true));
        Map<Long, List<Field>> fieldsByTable = db.with(WarehouseMapper.class, m -> m.listFieldsOfDatabase(database.id)).stream()
                .filter(f -> f.active && !"retired".equals(f.visibilityType) && f.parentId == null)
                .filter(f -> refingerprint || f.fingerprintVersion < Fingerprints.VERSION)
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
        try (Connection connection = fieldsByTable.isEmpty() ? null : databases.connect(database)) {
            Set<Long> emptyTables = fieldsByTable.isEmpty() ? Set.of()
                    : emptyTables(connection, dialect, tables.stream().filter(t -> fieldsByTable.containsKey(t.id)).toList());
            for (Table table : tables) {
                List<Field> fields = fieldsByTable.get(table.id);
                if (fields == null || fields.isEmpty()) {
                    continue;
                }
                attempted += fields.size();
                List<List<Object>> samples;
                try {
                    samples = emptyTables.contains(table.id) ? noRows(fields.size()) : sample(connection, dialect, table, fields);
                } catch (SQLException e) {
                    log.warn("Could not sample {}.{} of database {}: {}", table.schemaName, table.name, database.id, e.getMessage());
                    failed += fields.size();
                    continue;
                }
                boolean empty = samples.get(0).isEmpty();
                for (int i = 0; i < fields.size(); i++) {
                    Field field = fields.get(i);
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

    /** Tables per probe query of {@link #emptyTables}. */
    static final int PROBE_CHUNK = 100;

    /**
     * The tables that have no rows, asked {@value #PROBE_CHUNK} tables per query ({@code SELECT k FROM (SELECT 1 FROM
     * t LIMIT 1) UNION ALL ...}) so that a database of many empty tables (a new one, typically) costs a few round trips
     * instead of one sampling query per table. Only an optimisation: a probe the database refuses (a table it may not
     * read, an engine without this SQL) just leaves its tables to be sampled one by one, as before.
     */
    static Set<Long> emptyTables(Connection connection, SqlDialect dialect, List<Table> tables) {
        Set<Long> empty = new HashSet<>();
        for (List<Table> chunk : SchemaSync.chunks(tables, PROBE_CHUNK)) {
            StringBuilder sql = new StringBuilder();
            for (int i = 0; i < chunk.size(); i++) {
                Table table = chunk.get(i);
                sql.append(i == 0 ? "" : " UNION ALL ").append("SELECT ").append(i).append(" AS k FROM (SELECT 1 AS one FROM ")
                        .append(dialect.qualify(table.schemaName, table.name)).append(' ').append(dialect.limit(1))
                        .append(") q").append(i);
            }
            boolean[] hasRows = new boolean[chunk.size()];
            try (Statement statement = connection.createStatement()) {
                statement.setQueryTimeout(300);
                try (ResultSet rs = statement.executeQuery(sql.toString())) {
                    while (rs.next()) {
                        hasRows[rs.getInt(1)] = true;
                    }
                }
            } catch (SQLException | RuntimeException e) {
                log.debug("Could not probe {} tables for rows, sampling them one by one: {}", chunk.size(), e.getMessage());
                continue;
            }
            for (int i = 0; i < chunk.size(); i++) {
                if (!hasRows[i]) {
                    empty.add(chunk.get(i).id);
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
    private static List<List<Object>> sample(Connection connection, SqlDialect dialect, Table table, List<Field> fields)
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
        try (Statement statement = connection.createStatement()) {
            statement.setMaxRows(SAMPLE_ROWS);
            statement.setFetchSize(1_000);
            statement.setQueryTimeout(300);
            try (ResultSet rs = statement.executeQuery(sql)) {
                while (rs.next()) {
                    for (int i = 0; i < fields.size(); i++) {
                        values.get(i).add(text[i] ? rs.getString(i + 1) : Fingerprints.normalize(rs.getObject(i + 1)));
                    }
                }
            }
        }
        return values;
    }
}
