package io.quarry.sync;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.quarry.appdb.Db;
import io.quarry.driver.SqlDialect;
import io.quarry.warehouse.Database;
import io.quarry.qp.WarehouseSession;
import io.quarry.qp.Warehouses;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.FieldValues;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseMapper;
import io.quarry.core.Json;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cached distinct values of {@code list} fields (metabase_fieldvalues), as Metabase keeps them: at most
 * {@value #DISTINCT_LIMIT} values, sorted, null kept as a value, {@value #TOTAL_MAX_LENGTH} characters in all;
 * {@code has_more_values} says when some were left out. Values are fetched with
 * {@code SELECT c FROM t GROUP BY c ORDER BY c LIMIT 1001}, identifiers quoted by the engine's dialect.
 */
public final class FieldValuesService {
    private static final Logger log = LoggerFactory.getLogger(FieldValuesService.class);
    public static final int DISTINCT_LIMIT = 1000;
    public static final int TOTAL_MAX_LENGTH = Classifier.LIST_THRESHOLD * Classifier.MAX_VALUE_LENGTH;
    private static final Set<String> NO_VALUES_VISIBILITY = Set.of("retired", "sensitive", "hidden");
    private static final TypeReference<List<Object>> LIST = new TypeReference<>() { };

    private final Db db;
    private final DatabaseService databases;
    private final Warehouses warehouses;
    private final Clock clock;

    public FieldValuesService(Db db, DatabaseService databases, Warehouses warehouses, Clock clock) {
        this.db = db;
        this.databases = databases;
        this.warehouses = warehouses;
        this.clock = clock;
    }

    /** What became of a field's cached values. */
    public enum Outcome { CREATED, UPDATED, UNCHANGED, DELETED, FAILED }

    /** Whether a field should have cached values: a {@code list} field, shown, previewable, of a known type. */
    public static boolean eligible(Field field) {
        return field.active && !NO_VALUES_VISIBILITY.contains(field.visibilityType) && field.previewDisplay
                && !"type/*".equals(field.baseType)
                && ("list".equals(field.hasFieldValues) || "auto-list".equals(field.hasFieldValues));
    }

    /**
     * The {@code update-field-values} step: refreshes the cached values of every eligible field of the database (only
     * those that already have values when {@code onlyExisting}, for databases whose values are kept on demand), and
     * drops values of fields that are no longer eligible.
     */
    public Map<String, Object> scanDatabase(Database database, boolean onlyExisting) throws SQLException {
        return scanDatabase(database, onlyExisting, null);
    }

    /**
     * {@link #scanDatabase(Database, boolean)}; {@code synced}: the tables and fields as the earlier steps of the same
     * run left them (then they are not read back), or null.
     */
    Map<String, Object> scanDatabase(Database database, boolean onlyExisting, SchemaSync.Synced synced) throws SQLException {
        List<Field> fields = synced != null ? synced.fields() : db.with(WarehouseMapper.class, m -> m.listFieldsOfDatabase(database.id));
        Set<Long> withValues = new HashSet<>(db.with(SyncMapper.class, m -> m.fieldsWithValues(database.id)));
        Map<Long, Table> tables = new HashMap<>();
        for (Table t : synced != null ? synced.tables() : db.with(WarehouseMapper.class, m -> m.listTables(database.id, false))) {
            tables.put(t.id, t);
        }
        Map<Outcome, Integer> counts = new LinkedHashMap<>();
        for (Outcome o : Outcome.values()) {
            counts.put(o, 0);
        }
        List<Field> toScan = new ArrayList<>();
        for (Field field : fields) {
            if (!eligible(field) || !tables.get(field.tableId).active) {
                if (withValues.contains(field.id)) {
                    db.with(WarehouseMapper.class, m -> m.deleteFieldValues(field.id));
                    counts.merge(Outcome.DELETED, 1, Integer::sum);
                }
            } else if (!onlyExisting || withValues.contains(field.id)) {
                toScan.add(field);
            }
        }
        if (!toScan.isEmpty()) {
            SqlDialect dialect = databases.driverOf(database).dialect();
            try (WarehouseSession session = warehouses.openRead(database)) {
                for (Field field : toScan) {
                    Outcome outcome = refresh(session, dialect, tables.get(field.tableId), field);
                    counts.merge(outcome, 1, Integer::sum);
                }
            }
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("created", counts.get(Outcome.CREATED));
        summary.put("updated", counts.get(Outcome.UPDATED));
        summary.put("unchanged", counts.get(Outcome.UNCHANGED));
        summary.put("deleted", counts.get(Outcome.DELETED));
        summary.put("errors", counts.get(Outcome.FAILED));
        return summary;
    }

    /** Creates or updates one field's cached values now (or deletes them when it should have none). */
    public Outcome refresh(Field field) {
        if (!eligible(field)) {
            db.with(WarehouseMapper.class, m -> m.deleteFieldValues(field.id));
            return Outcome.DELETED;
        }
        Table table = db.with(WarehouseMapper.class, m -> m.findTable(field.tableId));
        Database database = databases.require(table.dbId);
        try (WarehouseSession session = warehouses.openRead(database)) {
            return refresh(session, databases.driverOf(database).dialect(), table, field);
        } catch (SQLException e) {
            log.warn("Could not read the values of field {} ({}): {}", field.id, field.name, e.getMessage());
            return Outcome.FAILED;
        }
    }

    private Outcome refresh(WarehouseSession session, SqlDialect dialect, Table table, Field field) {
        List<Object> raw;
        try {
            raw = distinctValues(session, dialect, table, field);
        } catch (SQLException e) {
            log.warn("Could not read the values of field {} ({}.{}): {}", field.id, table.name, field.name, e.getMessage());
            return Outcome.FAILED;
        }
        Limited limited = limit(raw);
        FieldValues existing = db.with(WarehouseMapper.class, m -> m.findFieldValues(field.id));
        if (limited.values().isEmpty()) {
            if (existing != null) {
                db.with(WarehouseMapper.class, m -> m.deleteFieldValues(field.id));
            }
            return Outcome.DELETED;
        }
        String json = Json.write(limited.values());
        OffsetDateTime now = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
        if (existing == null) {
            FieldValues created = new FieldValues();
            created.fieldId = field.id;
            created.fieldValues = json;
            created.hasMoreValues = limited.hasMore();
            created.createdAt = now;
            created.updatedAt = now;
            try {
                db.with(WarehouseMapper.class, m -> {
                    m.insertFieldValues(created);
                    return null;
                });
            } catch (RuntimeException e) {
                // created meanwhile by another caller (unique field_id): theirs is as fresh as ours
                return Outcome.UNCHANGED;
            }
            return Outcome.CREATED;
        }
        if (json.equals(existing.fieldValues) && existing.hasMoreValues == limited.hasMore()) {
            return Outcome.UNCHANGED;
        }
        existing.humanReadableValues = remapped(existing, limited.values());
        existing.fieldValues = json;
        existing.hasMoreValues = limited.hasMore();
        existing.updatedAt = now;
        db.with(WarehouseMapper.class, m -> m.updateFieldValues(existing));
        return Outcome.UPDATED;
    }

    /** Distinct values, at most {@value #DISTINCT_LIMIT} + 1 (to tell whether there are more). */
    private static List<Object> distinctValues(WarehouseSession session, SqlDialect dialect, Table table, Field field)
            throws SQLException {
        String column = dialect.quote(field.name);
        String sql = "SELECT " + column + " FROM " + dialect.qualify(table.schemaName, table.name) + " GROUP BY " + column
                + " ORDER BY " + column + " " + dialect.limit(DISTINCT_LIMIT + 1);
        List<Object> values = new ArrayList<>();
        boolean text = BaseTypes.isText(field.baseType);
        session.query(sql, List.of(), false, DISTINCT_LIMIT + 1, row -> values.add(jsonValue(text ? row.text(1) : row.get(1))));
        return values;
    }

    /** The sorted values that fit (row and character caps) and whether some were left out. */
    record Limited(List<Object> values, boolean hasMore) {
    }

    static Limited limit(List<Object> raw) {
        List<Object> sorted = new ArrayList<>(raw);
        boolean hasMore = sorted.size() > DISTINCT_LIMIT;
        if (hasMore) {
            sorted = new ArrayList<>(sorted.subList(0, DISTINCT_LIMIT));
        }
        sorted.sort(VALUE_ORDER);
        List<Object> kept = new ArrayList<>();
        long length = 0;
        for (Object value : sorted) {
            length += String.valueOf(value).length();
            if (length > TOTAL_MAX_LENGTH) {
                hasMore = true;
                break;
            }
            kept.add(value);
        }
        return new Limited(kept, hasMore);
    }

    /** Null first, then numbers by value, then everything else by its text. */
    static final Comparator<Object> VALUE_ORDER = (a, b) -> {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        if (a instanceof Number x && b instanceof Number y) {
            return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString()));
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        if (a instanceof Number != b instanceof Number) {
            return a instanceof Number ? -1 : 1;
        }
        return a.toString().compareTo(b.toString());
    };

    /** A JDBC value as it is cached and served: numbers, booleans and text as they are; dates and the rest as text. */
    static Object jsonValue(Object value) {
        Object normalized = Fingerprints.normalize(value);
        if (normalized == null || normalized instanceof String || normalized instanceof Boolean) {
            return normalized;
        }
        if (normalized instanceof Number n) {
            if (n instanceof Double d && (d.isNaN() || d.isInfinite())) {
                return n.toString();
            }
            return n;
        }
        if (normalized instanceof Temporal) {
            return normalized.toString();
        }
        return normalized.toString();
    }

    /** Keeps remappings people made for values that are still there; new values show as themselves. */
    private static String remapped(FieldValues existing, List<Object> values) {
        if (existing.humanReadableValues == null) {
            return null;
        }
        try {
            List<Object> oldValues = Json.MAPPER.readValue(existing.fieldValues, LIST);
            List<Object> oldNames = Json.MAPPER.readValue(existing.humanReadableValues, LIST);
            if (oldNames.isEmpty()) {
                return existing.humanReadableValues;
            }
            Map<String, Object> byValue = new HashMap<>();
            for (int i = 0; i < oldValues.size() && i < oldNames.size(); i++) {
                byValue.put(Json.write(oldValues.get(i)), oldNames.get(i));
            }
            List<Object> names = new ArrayList<>();
            for (Object value : values) {
                names.add(byValue.getOrDefault(Json.write(value), String.valueOf(value)));
            }
            return Json.write(names);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /**
     * {@code GET /api/field/:id/values}: {@code {"field_id", "values": [[v] or [v, name], ...], "has_more_values"}}.
     * A list field without cached values gets them now (databases that keep values on demand rely on this).
     */
    public Map<String, Object> valuesOf(Field field) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("field_id", field.id);
        List<List<Object>> pairs = new ArrayList<>();
        boolean hasMore = false;
        if (eligible(field)) {
            FieldValues values = db.with(WarehouseMapper.class, m -> m.findFieldValues(field.id));
            if (values == null) {
                refresh(field);
                values = db.with(WarehouseMapper.class, m -> m.findFieldValues(field.id));
            }
            if (values != null) {
                hasMore = values.hasMoreValues;
                pairs = pairs(values);
            }
        }
        out.put("values", pairs);
        out.put("has_more_values", hasMore);
        return out;
    }

    private static List<List<Object>> pairs(FieldValues values) {
        try {
            List<Object> list = values.fieldValues == null ? List.of() : Json.MAPPER.readValue(values.fieldValues, LIST);
            List<Object> names = values.humanReadableValues == null ? List.of()
                    : Json.MAPPER.readValue(values.humanReadableValues, LIST);
            List<List<Object>> out = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                List<Object> pair = new ArrayList<>();
                pair.add(list.get(i));
                if (!names.isEmpty() && i < names.size()) {
                    pair.add(names.get(i));
                }
                out.add(pair);
            }
            return out;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Stored field values are not JSON", e);
        }
    }

    /** Drops one field's cached values. */
    public void discard(long fieldId) {
        db.with(WarehouseMapper.class, m -> m.deleteFieldValues(fieldId));
    }

    /** Drops every cached value of a database. */
    public void discardDatabase(long databaseId) {
        db.with(WarehouseMapper.class, m -> m.deleteFieldValuesOfDatabase(databaseId));
    }

    /** The cached values of a field as stored, or null (for tests and views). */
    public List<Object> cached(long fieldId) {
        FieldValues values = db.with(WarehouseMapper.class, m -> m.findFieldValues(fieldId));
        if (values == null) {
            return null;
        }
        try {
            return Json.MAPPER.readValue(values.fieldValues, LIST);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
