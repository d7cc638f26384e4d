package io.quarry.driver;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * How an engine builds and replaces a persisted model's table ({@code io.quarry.persistence} decides when): the column
 * types of {@code CREATE TABLE}, and the swap of a freshly built {@code <table>_new} for {@code <table>} in one step
 * readers cannot see between. Only identifiers Quarry made (schema and table names from ids), quoted by the engine's
 * dialect, reach this DDL. The query runner calls it on its write connection.
 */
public interface PersistedTableDdl {
    /**
     * The column's type in {@code CREATE TABLE}: the engine's own name of the result column's type, with the precision
     * and scale a decimal keeps.
     */
    default String columnType(ResultSetMetaData md, int i) throws SQLException {
        String type = md.getColumnTypeName(i);
        String upper = type.toUpperCase(Locale.ROOT);
        int precision = md.getPrecision(i);
        int scale = md.getScale(i);
        if (upper.equals("NUMERIC") || upper.equals("DECIMAL")) {
            return precision > 0 && precision <= 1000 && scale >= 0 && scale <= precision ? type + "(" + precision + ", " + scale + ")" : type;
        }
        return type;
    }

    /** Replaces {@code <table>} with {@code <table>_new} (which exists), in one step readers cannot see between. */
    void swap(Connection c, String schema, String table) throws SQLException;

    /** Drops the model's table and whatever else the engine keeps for it ({@code _new} is dropped by the caller). */
    void drop(Connection c, String schema, String table) throws SQLException;

    /** Drops {@code schema.table} if it exists: the drop of engines that keep nothing else for a model. */
    static void dropTable(Connection c, SqlDialect d, String schema, String table) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + d.qualify(schema, table));
        }
    }

    /**
     * Engines whose DDL is transactional (PostgreSQL, DuckDB): the old table is dropped and the new one renamed in one
     * transaction.
     */
    static PersistedTableDdl transactional(SqlDialect d) {
        return new PersistedTableDdl() {
            @Override
            public void swap(Connection c, String schema, String table) throws SQLException {
                boolean autoCommit = c.getAutoCommit();
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.execute("DROP TABLE IF EXISTS " + d.qualify(schema, table));
                    s.execute("ALTER TABLE " + d.qualify(schema, table + "_new") + " RENAME TO " + d.quote(table));
                    c.commit();
                } catch (SQLException e) {
                    c.rollback();
                    throw e;
                } finally {
                    c.setAutoCommit(autoCommit);
                }
            }

            @Override
            public void drop(Connection c, String schema, String table) throws SQLException {
                dropTable(c, d, schema, table);
            }
        };
    }

    /** Whether the schema holds a table (or view) of that name. */
    static boolean exists(Connection c, String schema, String table) throws SQLException {
        try (ResultSet rs = c.getMetaData().getTables(schema, null, table, null)) {
            if (rs.next()) {
                return true;
            }
        }
        try (ResultSet rs = c.getMetaData().getTables(null, schema, table, null)) {
            return rs.next();
        }
    }
}
