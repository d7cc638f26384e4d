package io.quarry.qp.mbql;

import io.quarry.driver.SqlDialect;
import io.quarry.driver.h2.H2Driver;
import io.quarry.sync.DisplayNames;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Metadata read straight from a JDBC connection (tables, columns, primary and foreign keys) with ids numbered in
 * order, for compiling queries against a real database without a Quarry server. Ranges come from MIN/MAX queries.
 */
final class JdbcMetadata implements MbqlMetadata {
    private final Map<Long, Table> tables = new LinkedHashMap<>();
    private final Map<Long, Field> fields = new LinkedHashMap<>();
    private final Map<String, Field> byName = new HashMap<>();
    private final Connection connection;
    private final SqlDialect dialect;

    JdbcMetadata(Connection connection, String schema, SqlDialect dialect) throws SQLException {
        this.connection = connection;
        this.dialect = dialect;
        DatabaseMetaData meta = connection.getMetaData();
        H2Driver types = new H2Driver();
        long tableId = 1;
        long fieldId = 100;
        try (ResultSet rs = meta.getTables(connection.getCatalog(), schema, "%", new String[]{"TABLE", "BASE TABLE"})) {
            while (rs.next()) {
                Table t = new Table();
                t.id = tableId++;
                t.dbId = 1L;
                t.schemaName = rs.getString("TABLE_SCHEM");
                t.name = rs.getString("TABLE_NAME");
                t.displayName = DisplayNames.of(t.name);
                tables.put(t.id, t);
            }
        }
        for (Table t : tables.values()) {
            try (ResultSet rs = meta.getColumns(connection.getCatalog(), t.schemaName, t.name, "%")) {
                while (rs.next()) {
                    Field f = new Field();
                    f.id = fieldId++;
                    f.tableId = t.id;
                    f.name = rs.getString("COLUMN_NAME");
                    f.displayName = DisplayNames.of(f.name);
                    f.databaseType = rs.getString("TYPE_NAME");
                    f.baseType = types.baseType(rs.getInt("DATA_TYPE"), f.databaseType);
                    String typeName = f.databaseType == null ? "" : f.databaseType.toUpperCase(java.util.Locale.ROOT);
                    if (f.baseType.equals("type/*") || f.baseType.equals("type/Text")) {
                        // SQLite reports declared types loosely: go by the name
                        if (typeName.contains("TIMESTAMP") || typeName.contains("DATETIME")) {
                            f.baseType = "type/DateTime";
                        } else if (typeName.equals("DATE")) {
                            f.baseType = "type/Date";
                        }
                    }
                    f.effectiveType = f.baseType;
                    f.position = rs.getInt("ORDINAL_POSITION");
                    fields.put(f.id, f);
                    byName.put(t.name + "." + f.name, f);
                }
            }
            try (ResultSet rs = meta.getPrimaryKeys(connection.getCatalog(), t.schemaName, t.name)) {
                while (rs.next()) {
                    byName.get(t.name + "." + rs.getString("COLUMN_NAME")).semanticType = "type/PK";
                }
            }
        }
        for (Table t : tables.values()) {
            try (ResultSet rs = meta.getImportedKeys(connection.getCatalog(), t.schemaName, t.name)) {
                while (rs.next()) {
                    Field fk = byName.get(t.name + "." + rs.getString("FKCOLUMN_NAME"));
                    Field target = byName.get(rs.getString("PKTABLE_NAME") + "." + rs.getString("PKCOLUMN_NAME"));
                    if (fk != null && target != null) {
                        fk.semanticType = "type/FK";
                        fk.fkTargetFieldId = target.id;
                    }
                }
            }
        }
    }

    /** The id of TABLE. */
    long tableId(String table) {
        for (Table t : tables.values()) {
            if (t.name.equalsIgnoreCase(table)) {
                return t.id;
            }
        }
        throw new IllegalArgumentException("No table " + table);
    }

    /** The id of TABLE.COLUMN. */
    long fieldId(String table, String column) {
        for (Map.Entry<String, Field> e : byName.entrySet()) {
            if (e.getKey().equalsIgnoreCase(table + "." + column)) {
                return e.getValue().id;
            }
        }
        throw new IllegalArgumentException("No column " + table + "." + column);
    }

    Field fieldOf(String table, String column) {
        return fields.get(fieldId(table, column));
    }

    void semanticType(String table, String column, String semanticType) {
        fieldOf(table, column).semanticType = semanticType;
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
        List<Field> out = new ArrayList<>();
        for (Field f : fields.values()) {
            if (f.tableId == tableId) {
                out.add(f);
            }
        }
        return out;
    }

    @Override
    public double[] numberRange(Field field) {
        Table t = tables.get(field.tableId);
        String sql = "SELECT MIN(" + dialect.quote(field.name) + "), MAX(" + dialect.quote(field.name) + ") FROM "
                + dialect.qualify(t.schemaName, t.name);
        try (var s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return new double[]{((Number) rs.getObject(1)).doubleValue(), ((Number) rs.getObject(2)).doubleValue()};
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
