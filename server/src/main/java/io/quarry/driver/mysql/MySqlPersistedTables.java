package io.quarry.driver.mysql;

import io.quarry.driver.PersistedTableDdl;
import io.quarry.driver.SqlDialect;
import java.sql.Connection;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * Persisted models' tables on MySQL and MariaDB: DDL commits on its own there, so the new table replaces the old one
 * in one atomic {@code RENAME TABLE}; text and binary columns need a length.
 */
final class MySqlPersistedTables implements PersistedTableDdl {
    private final SqlDialect d;

    MySqlPersistedTables(SqlDialect d) {
        this.d = d;
    }

    @Override
    public String columnType(ResultSetMetaData md, int i) throws SQLException {
        String type = md.getColumnTypeName(i);
        String upper = type.toUpperCase(Locale.ROOT);
        int precision = md.getPrecision(i);
        if (upper.equals("VARCHAR") || upper.equals("CHAR")) {
            return precision > 0 && precision <= 16383 ? type + "(" + precision + ")" : "LONGTEXT";
        }
        if (upper.equals("VARBINARY") || upper.equals("BINARY")) {
            return precision > 0 && precision <= 65535 ? type + "(" + precision + ")" : "LONGBLOB";
        }
        return PersistedTableDdl.super.columnType(md, i);
    }

    @Override
    public void drop(Connection c, String schema, String table) throws SQLException {
        PersistedTableDdl.dropTable(c, d, schema, table);
    }

    @Override
    public void swap(Connection c, String schema, String table) throws SQLException {
        String target = d.qualify(schema, table);
        String building = d.qualify(schema, table + "_new");
        String old = d.qualify(schema, table + "_old");
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + old);
            if (PersistedTableDdl.exists(c, schema, table)) {
                s.execute("RENAME TABLE " + target + " TO " + old + ", " + building + " TO " + target);
                s.execute("DROP TABLE " + old);
            } else {
                s.execute("RENAME TABLE " + building + " TO " + target);
            }
        }
    }
}
