package io.quarry.qp;

import io.quarry.driver.Driver;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs compiled SQL on a connected database in two steps: {@link #open} executes it (so a failure is known before any
 * response is committed), and {@link Cursor#stream} writes the rows as they arrive — nothing but the current row is
 * held in memory. A query past its timeout is cancelled by the driver; a writer that fails (the client went away)
 * cancels the statement on the database at once.
 */
public final class QueryExecutor {
    private static final Logger log = LoggerFactory.getLogger(QueryExecutor.class);

    private final DatabaseService databases;

    public QueryExecutor(DatabaseService databases) {
        this.databases = databases;
    }

    /** Executes the query and returns an open cursor on its rows; the caller streams or closes it. */
    public Cursor open(Database database, CompiledQuery query, long rowLimit, int timeoutSeconds) {
        long began = System.nanoTime();
        Driver driver = databases.driverOf(database);
        Connection connection = null;
        PreparedStatement statement = null;
        try {
            connection = databases.connect(database);
            statement = connection.prepareStatement(query.sql(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
            if (timeoutSeconds > 0) {
                statement.setQueryTimeout(timeoutSeconds);
            }
            // One row past the limit tells whether the result was cut short.
            if (rowLimit < Integer.MAX_VALUE) {
                statement.setMaxRows((int) rowLimit + 1);
            }
            statement.setFetchSize((int) Math.min(500, rowLimit + 1));
            for (int i = 0; i < query.params().size(); i++) {
                statement.setObject(i + 1, query.params().get(i));
            }
            ResultSet rs = statement.executeQuery();
            List<Column> columns = columns(rs.getMetaData(), driver, query.columns());
            return new Cursor(connection, statement, rs, columns, rowLimit, timeoutSeconds, began);
        } catch (SQLException e) {
            closeQuietly(statement, connection);
            throw failure(e, timeoutSeconds);
        } catch (RuntimeException e) {
            closeQuietly(statement, connection);
            throw e;
        }
    }

    static QueryFailure failure(SQLException e, int timeoutSeconds) {
        if (e instanceof SQLTimeoutException || "57014".equals(e.getSQLState()) || e.getErrorCode() == 57014) {
            return new QueryFailure(QueryFailure.Type.TIMED_OUT, "The query took longer than " + timeoutSeconds
                    + " seconds and was cancelled.", e.getSQLState(), e);
        }
        return new QueryFailure(QueryFailure.Type.DRIVER, e.getMessage(), e.getSQLState(), e);
    }

    private static void closeQuietly(PreparedStatement statement, Connection connection) {
        try {
            if (statement != null) {
                statement.close();
            }
        } catch (SQLException ignored) {
            // closing after a failure
        }
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException ignored) {
            // closing after a failure
        }
    }

    /** Columns from the result set, described by the query's own column list where it has one (MBQL). */
    private static List<Column> columns(ResultSetMetaData meta, Driver driver, List<Column> known) throws SQLException {
        int count = meta.getColumnCount();
        if (known != null && known.size() == count) {
            return known;
        }
        List<Column> columns = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            String typeName = meta.getColumnTypeName(i);
            columns.add(Column.nativeColumn(meta.getColumnLabel(i), driver.baseType(meta.getColumnType(i), typeName), typeName));
        }
        return columns;
    }

    /** An executed query whose rows have not been read yet. Closing it releases the statement and connection. */
    public static final class Cursor implements AutoCloseable {
        private final Connection connection;
        private final PreparedStatement statement;
        private final ResultSet rs;
        private final List<Column> columns;
        private final long rowLimit;
        private final int timeoutSeconds;
        private final long began;

        private Cursor(Connection connection, PreparedStatement statement, ResultSet rs, List<Column> columns, long rowLimit,
                       int timeoutSeconds, long began) {
            this.connection = connection;
            this.statement = statement;
            this.rs = rs;
            this.columns = columns;
            this.rowLimit = rowLimit;
            this.timeoutSeconds = timeoutSeconds;
            this.began = began;
        }

        public List<Column> columns() {
            return columns;
        }

        /** Writes every row (up to the limit) and the summary, then closes the cursor. */
        public ResultWriter.Summary stream(ResultWriter writer) throws IOException {
            try (this) {
                writer.begin(columns);
                int count = columns.size();
                Object[] row = new Object[count];
                long rows = 0;
                boolean truncated = false;
                while (rs.next()) {
                    if (rows == rowLimit) {
                        truncated = true;
                        break;
                    }
                    for (int i = 0; i < count; i++) {
                        row[i] = Values.normalize(rs.getObject(i + 1));
                    }
                    try {
                        writer.row(row);
                    } catch (IOException clientGone) {
                        cancel();
                        throw clientGone;
                    }
                    rows++;
                }
                ResultWriter.Summary summary = new ResultWriter.Summary(rows, truncated, rowLimit, (System.nanoTime() - began) / 1_000_000);
                writer.end(summary);
                return summary;
            } catch (SQLException e) {
                throw failure(e, timeoutSeconds);
            }
        }

        private void cancel() {
            try {
                statement.cancel();
            } catch (SQLException e) {
                log.debug("Cancelling a statement failed: {}", e.getMessage());
            }
        }

        @Override
        public void close() {
            try {
                rs.close();
            } catch (SQLException ignored) {
                // releasing
            }
            closeQuietly(statement, connection);
        }
    }
}
