package io.quarry.qp;

import io.quarry.driver.Driver;
import io.quarry.driver.PersistedTableDdl;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.StatementKind;
import io.quarry.driver.StatementRefused;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Statements on one borrowed warehouse connection, for the work {@link Warehouses} runs: every statement is checked by
 * the engine for its kind (reads as {@link StatementKind#READ}, changes as the session's writing kind) before it is
 * prepared, bound only by bind values, and cancelled at the query timeout. The connection itself is never handed out;
 * closing a session opened by {@link Warehouses#openRead} returns it to its pool.
 */
public final class WarehouseSession implements AutoCloseable {
    private final java.sql.Connection connection;
    private final Driver driver;
    /** The kind of this session's changes; null for a read session (which may only read). */
    private final StatementKind writes;
    private final int timeoutSeconds;

    WarehouseSession(java.sql.Connection connection, Driver driver, StatementKind writes, int timeoutSeconds) {
        this.connection = connection;
        this.driver = driver;
        this.writes = writes;
        this.timeoutSeconds = timeoutSeconds;
    }

    public Driver driver() {
        return driver;
    }

    public SqlDialect dialect() {
        return driver.dialect();
    }

    /** The database's JDBC metadata (tables, columns, keys), for sync. */
    public DatabaseMetaData metadata() throws SQLException {
        return connection.getMetaData();
    }

    /** The connection's catalog (the database the metadata calls ask about). */
    public String catalog() throws SQLException {
        return connection.getCatalog();
    }

    /** One row of a result, readable during {@link RowHandler#row} only. */
    public interface Row {
        int columnCount() throws SQLException;

        String label(int column) throws SQLException;

        Object get(int column) throws SQLException;

        String text(int column) throws SQLException;
    }

    public interface RowHandler {
        void row(Row row) throws SQLException;
    }

    /**
     * Runs a read ({@code authored}: the text is or contains SQL a person wrote) and hands each row to {@code rows}, at
     * most {@code maxRows} of them (0: all).
     */
    public void query(String sql, List<?> params, boolean authored, int maxRows, RowHandler rows) throws SQLException {
        try (PreparedStatement statement = prepare(sql, StatementKind.READ, authored, params)) {
            if (maxRows > 0) {
                statement.setMaxRows(maxRows);
            }
            try (ResultSet rs = statement.executeQuery()) {
                Row row = new ResultRow(rs);
                while (rs.next()) {
                    rows.row(row);
                }
            }
        }
    }

    /** The rows of a read, each as its column values (at most {@code maxRows}; 0: all). */
    public List<Object[]> rows(String sql, List<?> params, boolean authored, int maxRows) throws SQLException {
        List<Object[]> out = new ArrayList<>();
        query(sql, params, authored, maxRows, row -> {
            Object[] values = new Object[row.columnCount()];
            for (int i = 0; i < values.length; i++) {
                values[i] = row.get(i + 1);
            }
            out.add(values);
        });
        return out;
    }

    /** A column a read would return, and its type in a {@code CREATE TABLE} of this engine. */
    public record DescribedColumn(String name, String baseType, String ddlType) {
    }

    /** The columns a read returns, read from its metadata without fetching a row. */
    public List<DescribedColumn> describe(String sql, List<?> params, boolean authored) throws SQLException {
        PersistedTableDdl ddl = driver.persistedTables();
        try (PreparedStatement statement = prepare(sql, StatementKind.READ, authored, params);
             ResultSet rs = statement.executeQuery()) {
            ResultSetMetaData md = rs.getMetaData();
            List<DescribedColumn> columns = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                columns.add(new DescribedColumn(md.getColumnLabel(i), driver.baseType(md.getColumnType(i), md.getColumnTypeName(i)),
                        ddl != null ? ddl.columnType(md, i) : md.getColumnTypeName(i)));
            }
            return columns;
        }
    }

    /** Runs a change of this write session's kind; the count of rows it changed. */
    public int update(String sql, List<?> params, boolean authored) throws SQLException {
        try (PreparedStatement statement = prepare(sql, requireWrites(), authored, params)) {
            return statement.executeUpdate();
        }
    }

    /**
     * Runs a change that may answer rows (a query action's SQL: {@code INSERT ... RETURNING} on some engines); the count
     * of rows changed, 0 when it answered rows.
     */
    public int execute(String sql, List<?> params, boolean authored) throws SQLException {
        try (PreparedStatement statement = prepare(sql, requireWrites(), authored, params)) {
            return statement.execute() ? 0 : Math.max(0, statement.getUpdateCount());
        }
    }

    /** Runs an INSERT of one row and returns the generated value of {@code keyColumn}, or null when there is none. */
    public Object insert(String sql, List<?> params, String keyColumn) throws SQLException {
        StatementKind kind = requireWrites();
        if (driver.dialect().insertReturning()) {
            // DuckDB and SQLite: the key comes back from the INSERT itself (their drivers' generated keys do not say it)
            String returning = sql + " RETURNING " + driver.dialect().quote(keyColumn);
            driver.checkStatement(connection, returning, kind, false);
            try (PreparedStatement statement = connection.prepareStatement(returning)) {
                bind(statement, params);
                statement.setQueryTimeout(timeoutSeconds);
                try (ResultSet keys = statement.executeQuery()) {
                    return keys.next() ? keys.getObject(1) : null;
                }
            }
        }
        driver.checkStatement(connection, sql, kind, false);
        try (PreparedStatement statement = connection.prepareStatement(sql, new String[] {keyColumn})) {
            bind(statement, params);
            statement.setQueryTimeout(timeoutSeconds);
            statement.executeUpdate();
            try (ResultSet keys = statement.getGeneratedKeys()) {
                return keys.next() ? keys.getObject(1) : null;
            }
        }
    }

    /** Runs one change for each list of values, in batches; Quarry's own SQL only (uploads). */
    public void batch(String sql, Iterable<? extends List<?>> rows, int batchSize) throws SQLException {
        StatementKind kind = requireWrites();
        driver.checkStatement(connection, sql, kind, false);
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setQueryTimeout(timeoutSeconds);
            int pending = 0;
            for (List<?> values : rows) {
                bind(statement, values);
                statement.addBatch();
                if (++pending == batchSize) {
                    statement.executeBatch();
                    pending = 0;
                }
            }
            if (pending > 0) {
                statement.executeBatch();
            }
        }
    }

    /** Swaps a persisted model's freshly built {@code <table>_new} in for {@code <table>} (the engine's way). */
    public void swapPersistedTable(String schema, String table) throws SQLException {
        requireWrites();
        requirePersistence().swap(connection, schema, table);
    }

    /** Drops a persisted model's table and whatever the engine keeps for it. */
    public void dropPersistedTable(String schema, String table) throws SQLException {
        requireWrites();
        requirePersistence().drop(connection, schema, table);
    }

    private PersistedTableDdl requirePersistence() throws StatementRefused {
        PersistedTableDdl ddl = driver.persistedTables();
        if (ddl == null) {
            throw new StatementRefused(driver.displayName() + " databases cannot hold persisted models.");
        }
        return ddl;
    }

    private StatementKind requireWrites() throws StatementRefused {
        if (writes == null) {
            throw new StatementRefused("A read session cannot change the database.");
        }
        return writes;
    }

    private PreparedStatement prepare(String sql, StatementKind kind, boolean authored, List<?> params) throws SQLException {
        driver.checkStatement(connection, sql, kind, authored);
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            statement.setQueryTimeout(timeoutSeconds);
            bind(statement, params);
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }

    /** Returns the connection to its pool (a write session's is returned by {@link Warehouses#write} itself). */
    @Override
    public void close() throws SQLException {
        if (writes == null) {
            connection.close();
        }
    }

    private void bind(PreparedStatement statement, List<?> values) throws SQLException {
        for (int i = 0; i < values.size(); i++) {
            statement.setObject(i + 1, driver.dialect().bindValue(values.get(i)));
        }
    }

    private static final class ResultRow implements Row {
        private final ResultSet rs;

        ResultRow(ResultSet rs) {
            this.rs = rs;
        }

        @Override
        public int columnCount() throws SQLException {
            return rs.getMetaData().getColumnCount();
        }

        @Override
        public String label(int column) throws SQLException {
            return rs.getMetaData().getColumnLabel(column);
        }

        @Override
        public Object get(int column) throws SQLException {
            return rs.getObject(column);
        }

        @Override
        public String text(int column) throws SQLException {
            return rs.getString(column);
        }
    }
}
