package io.quarry.qp.mbql;

import io.quarry.driver.SqlDialect;
import io.quarry.qp.Warehouses;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.Table;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metadata of one connected database from Quarry's application database, read in bulk once per query (every table
 * and every field of the database: two statements, whatever the query names). Numeric ranges for binning come from
 * fingerprints, or — for fields not fingerprinted yet — from one {@code MIN}/{@code MAX} query on the database.
 */
public final class WarehouseMetadata implements MbqlMetadata {
    private static final Logger log = LoggerFactory.getLogger(WarehouseMetadata.class);

    private final Warehouses warehouses;
    private final Database database;
    private final SqlDialect dialect;
    private final Map<Long, Table> tables = new HashMap<>();
    private final Map<Long, Field> fields = new HashMap<>();
    private final Map<Long, List<Field>> fieldsByTable = new HashMap<>();
    private final Map<Long, double[]> ranges = new HashMap<>();

    public WarehouseMetadata(MetadataService metadata, Warehouses warehouses, Database database, SqlDialect dialect) {
        this.warehouses = warehouses;
        this.database = database;
        this.dialect = dialect;
        MetadataService.DatabaseMetadata read = metadata.ofDatabase(database.id);
        for (Table t : read.tables()) {
            tables.put(t.id, t);
        }
        for (Field f : read.fields()) {
            fields.put(f.id, f);
            if (f.active) {
                fieldsByTable.computeIfAbsent(f.tableId, k -> new ArrayList<>()).add(f);
            }
        }
    }

    @Override
    public Table table(long id) {
        return tables.get(id);
    }

    @Override
    public Field field(long id) {
        return fields.get(id);
    }

    @Override
    public List<Field> fields(long tableId) {
        return fieldsByTable.getOrDefault(tableId, List.of());
    }

    @Override
    public double[] numberRange(Field field) {
        double[] fromFingerprint = fingerprintRange(field);
        if (fromFingerprint != null) {
            return fromFingerprint;
        }
        return ranges.computeIfAbsent(field.id, id -> queryRange(field));
    }

    /** {@code fingerprint.type["type/Number"].min/max}, when analysis recorded them. */
    static double[] fingerprintRange(Field field) {
        if (field.fingerprint != null && field.fingerprint.get("type") instanceof Map<?, ?> type
                && type.get("type/Number") instanceof Map<?, ?> number && number.get("min") instanceof Number min
                && number.get("max") instanceof Number max) {
            return new double[]{min.doubleValue(), max.doubleValue()};
        }
        return null;
    }

    private double[] queryRange(Field field) {
        Table table = tables.get(field.tableId);
        if (table == null) {
            return null;
        }
        String column = dialect.quote(field.name);
        String sql = "SELECT MIN(" + column + "), MAX(" + column + ") FROM " + dialect.qualify(table.schemaName, table.name);
        try {
            List<Object[]> rows = warehouses.read(database, session -> session.rows(sql, List.of(), false, 1));
            if (!rows.isEmpty() && rows.get(0)[0] instanceof Number min && rows.get(0)[1] instanceof Number max) {
                return new double[]{min.doubleValue(), max.doubleValue()};
            }
        } catch (SQLException e) {
            log.debug("Could not read the range of field {}: {}", field.id, e.getMessage());
        }
        return null;
    }
}
