package io.quarry.driver.h2;

import io.quarry.driver.PersistedTableDdl;
import io.quarry.driver.SqlDialect;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Persisted models' tables on H2, which commits every DDL statement on its own, so a drop and a rename would leave a
 * moment without the table. There the model's name is a view over a versioned table ({@code <table>_v<n>}): the new
 * version is renamed from {@code _new} (a table no reader knows), then {@code CREATE OR REPLACE VIEW} points the view
 * at it in one statement (a reader sees the old version or the new one). The version just replaced stays until the
 * next refresh; older ones are dropped. H2 does not isolate that DDL from statements reading the view at that moment,
 * so swaps and drops run under {@link H2Driver#persistedTablesLock}.
 */
final class H2PersistedTables implements PersistedTableDdl {
    private final SqlDialect d;

    H2PersistedTables(SqlDialect d) {
        this.d = d;
    }

    @Override
    public String columnType(ResultSetMetaData md, int i) throws SQLException {
        String type = md.getColumnTypeName(i);
        String upper = type.toUpperCase(Locale.ROOT);
        if (upper.equals("CHARACTER") || upper.equals("CHAR")) {
            int precision = md.getPrecision(i);
            return precision > 0 ? type + "(" + precision + ")" : type;
        }
        return PersistedTableDdl.super.columnType(md, i);
    }

    @Override
    public void swap(Connection c, String schema, String table) throws SQLException {
        List<Long> versions = versions(c, schema, table);
        long next = versions.isEmpty() ? 1 : versions.get(versions.size() - 1) + 1;
        String version = table + "_v" + next;
        try (Statement s = c.createStatement()) {
            s.execute("ALTER TABLE " + d.qualify(schema, table + "_new") + " RENAME TO " + d.quote(version));
            if ("TABLE".equals(kind(c, schema, table))) {
                s.execute("DROP TABLE " + d.qualify(schema, table)); // a table built before views were used, once
            }
            s.execute("CREATE OR REPLACE VIEW " + d.qualify(schema, table) + " AS SELECT * FROM " + d.qualify(schema, version));
            for (int i = 0; i < versions.size() - 1; i++) {
                s.execute("DROP TABLE IF EXISTS " + d.qualify(schema, table + "_v" + versions.get(i)));
            }
        }
    }

    @Override
    public void drop(Connection c, String schema, String table) throws SQLException {
        try (Statement s = c.createStatement()) {
            if ("VIEW".equals(kind(c, schema, table))) {
                s.execute("DROP VIEW " + d.qualify(schema, table));
            }
            for (long version : versions(c, schema, table)) {
                s.execute("DROP TABLE IF EXISTS " + d.qualify(schema, table + "_v" + version));
            }
        }
        PersistedTableDdl.dropTable(c, d, schema, table);
    }

    /** The version numbers of a model's tables ({@code <table>_v<n>}), ascending. */
    private static List<Long> versions(Connection c, String schema, String table) throws SQLException {
        List<Long> versions = new ArrayList<>();
        String prefix = table + "_v";
        try (ResultSet rs = c.getMetaData().getTables(null, schema, null, new String[]{"TABLE", "BASE TABLE"})) {
            while (rs.next()) {
                String name = rs.getString("TABLE_NAME");
                if (schema.equals(rs.getString("TABLE_SCHEM")) && name.startsWith(prefix) && name.substring(prefix.length()).matches("[0-9]{1,18}")) {
                    versions.add(Long.parseLong(name.substring(prefix.length())));
                }
            }
        }
        versions.sort(null);
        return versions;
    }

    /** {@code TABLE}, {@code VIEW} or null (missing) for an object of the schema. */
    private static String kind(Connection c, String schema, String name) throws SQLException {
        try (ResultSet rs = c.getMetaData().getTables(null, schema, name, null)) {
            while (rs.next()) {
                if (schema.equals(rs.getString("TABLE_SCHEM")) && name.equals(rs.getString("TABLE_NAME"))) {
                    String type = rs.getString("TABLE_TYPE");
                    return type != null && type.toUpperCase(Locale.ROOT).contains("VIEW") ? "VIEW" : "TABLE";
                }
            }
        }
        return null;
    }
}
