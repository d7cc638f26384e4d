package io.quarry.qp;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarry.driver.Driver;
import io.quarry.driver.StatementKind;
import io.quarry.driver.StatementRefused;
import io.quarry.warehouse.Database;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs compiled SQL on a connected database, on a read connection of {@link Warehouses} after the engine's statement
 * policy allowed it ({@link Driver#checkStatement}), in two steps: {@link #open} executes it (so a failure is known before any
 * response is committed), and {@link Cursor#stream} writes the rows as they arrive — nothing but the current row is
 * held in memory. A statement still executing at its timeout is cancelled (by {@link QueryTimers}, not by the driver's
 * own query timeout: PostgreSQL's wakes a thread for every statement); a writer that fails (the client went away)
 * cancels the statement on the database at once.
 */
public final class QueryExecutor {
    private static final Logger log = LoggerFactory.getLogger(QueryExecutor.class);

    /** Rows per round trip when the driver streams: few trips for long downloads, a bounded batch in memory. */
    private static final int FETCH_SIZE = 2000;
    /** Rows read ahead of the writer, in batches: at most 4 × 256. */
    private static final int READ_AHEAD_ROWS = 256;
    private static final int READ_AHEAD_BATCHES = 4;

    private final Warehouses warehouses;
    private final QueryTimers timers;
    private final QueryMeters meters;

    /** {@code meters}: where each query's duration is recorded, by database and outcome ({@link QueryMeters}). */
    public QueryExecutor(Warehouses warehouses, QueryTimers timers, MeterRegistry meters) {
        this.warehouses = warehouses;
        this.timers = timers;
        this.meters = new QueryMeters(meters);
    }

    /** The door the executor borrows its connections from. */
    public Warehouses warehouses() {
        return warehouses;
    }

    /** Executes the query and returns an open cursor on its rows; the caller streams or closes it. */
    public Cursor open(Database database, CompiledQuery query, long rowLimit, int timeoutSeconds) {
        return open(database, query, rowLimit, timeoutSeconds, statement -> { });
    }

    /**
     * As {@link #open(Database, CompiledQuery, long, int)}; {@code prepared} sees the statement before it executes, so
     * that another thread may cancel it while it runs (it may throw to abandon the query).
     */
    public Cursor open(Database database, CompiledQuery query, long rowLimit, int timeoutSeconds,
                       java.util.function.Consumer<java.sql.Statement> prepared) {
        long began = System.nanoTime();
        Driver driver = warehouses.driverOf(database);
        try {
            return open(database, driver, query, rowLimit, timeoutSeconds, prepared, began);
        } catch (StatementRefused e) {
            meters.failed(database.id, QueryMeters.REFUSED, began);
            throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, e.getMessage(), e.getSQLState(), e);
        } catch (SQLException e) {
            QueryFailure failure = failure(e, timeoutSeconds);
            meters.failed(database.id, failure.type().key, began);
            throw failure;
        } catch (QueryFailure e) {
            meters.failed(database.id, e.type().key, began);
            throw e;
        } catch (RuntimeException e) {
            meters.failed(database.id, QueryMeters.ERROR, began);
            throw e;
        }
    }

    private Cursor open(Database database, Driver driver, CompiledQuery query, long rowLimit, int timeoutSeconds,
                        java.util.function.Consumer<java.sql.Statement> prepared, long began) throws SQLException {
        Connection connection = null;
        PreparedStatement statement = null;
        try {
            connection = warehouses.borrowRead(database);
            // the engine's statement policy, on the connection the statement runs on, before it is prepared
            driver.checkStatement(connection, query.sql(), StatementKind.READ, query.authored());
            if (rowLimit > FETCH_SIZE) {
                // In a transaction, drivers that would otherwise read the whole result into memory first (PostgreSQL's)
                // fetch it in batches of the fetch size through a cursor. The pool rolls back and restores auto-commit
                // when the connection returns. Results that fit one fetch (the API's 2,000 rows) skip that round trip.
                connection.setAutoCommit(false);
            }
            statement = connection.prepareStatement(query.sql(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
            // One row past the limit tells whether the result was cut short.
            if (rowLimit < Integer.MAX_VALUE) {
                statement.setMaxRows((int) rowLimit + 1);
            }
            statement.setFetchSize((int) Math.min(FETCH_SIZE, rowLimit + 1));
            for (int i = 0; i < query.params().size(); i++) {
                statement.setObject(i + 1, query.params().get(i));
            }
            prepared.accept(statement);
            ResultSet rs = executeHolding(persistedTablesSwaps(driver, database, query), statement, timeoutSeconds);
            List<Column> columns = columns(rs.getMetaData(), driver, query.columns());
            return new Cursor(connection, statement, rs, columns, rowLimit, timeoutSeconds, began, meters, database.id);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(statement, connection);
            throw e;
        }
    }

    /**
     * The lock a statement that reads persisted models' tables holds while it executes, on engines where their refresh
     * could otherwise fail it (see {@link Driver#persistedTablesLock}); null for any other statement.
     */
    private static Lock persistedTablesSwaps(Driver driver, Database database, CompiledQuery query) {
        ReadWriteLock lock = driver.persistedTablesLock(database.id);
        return lock != null && query.sql().contains(Driver.PERSISTED_MODELS_SCHEMA_PREFIX) ? lock.readLock() : null;
    }

    /** {@link #execute} holding {@code swaps} (when not null) while the statement executes. */
    private ResultSet executeHolding(Lock swaps, PreparedStatement statement, int timeoutSeconds) throws SQLException {
        if (swaps == null) {
            return execute(statement, timeoutSeconds);
        }
        swaps.lock();
        try {
            return execute(statement, timeoutSeconds);
        } finally {
            swaps.unlock();
        }
    }

    /** Executes the statement, cancelling it if it still executes after {@code timeoutSeconds} (0: no limit). */
    private ResultSet execute(PreparedStatement statement, int timeoutSeconds) throws SQLException {
        if (timeoutSeconds <= 0) {
            return statement.executeQuery();
        }
        Deadline deadline = new Deadline(statement);
        QueryTimers.Timer timer = timers.schedule(deadline, timeoutSeconds, TimeUnit.SECONDS);
        ResultSet rs;
        try {
            rs = statement.executeQuery();
        } catch (SQLException e) {
            timer.cancel();
            if (deadline.finish()) {
                // whatever the engine says of a cancelled statement (PostgreSQL and H2 57014, MariaDB 1317, ...)
                throw new QueryFailure(QueryFailure.Type.TIMED_OUT, timedOutMessage(timeoutSeconds), e.getSQLState(), e);
            }
            throw e;
        }
        timer.cancel();
        if (deadline.finish()) {
            // cancelled as it finished, or by an engine that answers a cancelled statement anyway (MariaDB's SLEEP
            // returns 1): either way it took the whole timeout
            rs.close();
            throw new QueryFailure(QueryFailure.Type.TIMED_OUT, timedOutMessage(timeoutSeconds));
        }
        return rs;
    }

    /**
     * A statement's timeout: cancels it, unless it has finished executing by then. Never after: its connection may
     * already be executing the next query of the pool.
     */
    private static final class Deadline implements Runnable {
        private final Statement statement;
        private boolean finished;
        private boolean cancelled;

        Deadline(Statement statement) {
            this.statement = statement;
        }

        @Override
        public synchronized void run() {
            if (!finished) {
                cancelled = true;
                cancel(statement);
            }
        }

        /** Marks the statement as done executing; whether it was cancelled first. */
        synchronized boolean finish() {
            finished = true;
            return cancelled;
        }
    }

    private static void cancel(Statement statement) {
        try {
            statement.cancel();
        } catch (SQLException e) {
            log.debug("Cancelling a statement failed: {}", e.getMessage());
        }
    }

    static QueryFailure failure(SQLException e, int timeoutSeconds) {
        if (e instanceof SQLTimeoutException || "57014".equals(e.getSQLState()) || e.getErrorCode() == 57014) {
            return new QueryFailure(QueryFailure.Type.TIMED_OUT, timedOutMessage(timeoutSeconds), e.getSQLState(), e);
        }
        return new QueryFailure(QueryFailure.Type.DRIVER, e.getMessage(), e.getSQLState(), e);
    }

    private static String timedOutMessage(int timeoutSeconds) {
        return "The query took longer than " + timeoutSeconds + " seconds and was cancelled.";
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
        private final QueryMeters meters;
        private final long databaseId;
        /** Whether the query's outcome has been recorded (once: by the stream, else when the cursor closes). */
        private boolean recorded;

        private Cursor(Connection connection, PreparedStatement statement, ResultSet rs, List<Column> columns, long rowLimit,
                       int timeoutSeconds, long began, QueryMeters meters, long databaseId) {
            this.connection = connection;
            this.statement = statement;
            this.rs = rs;
            this.columns = columns;
            this.rowLimit = rowLimit;
            this.timeoutSeconds = timeoutSeconds;
            this.began = began;
            this.meters = meters;
            this.databaseId = databaseId;
        }

        /** What a failure while streaming is called in the metrics (as a failure to execute is, {@link QueryMeters}). */
        private String outcomeOf(Throwable failure) {
            if (failure instanceof IOException) {
                return QueryMeters.CLIENT_GONE;
            }
            if (failure instanceof QueryFailure queryFailure) {
                return queryFailure.type().key;
            }
            if (failure instanceof SQLException sql) {
                return failure(sql, timeoutSeconds).type().key;
            }
            return QueryMeters.ERROR;
        }

        /** Records the query's outcome once: what its stream came to, or (closed unread) that it executed. */
        private void record(String outcome) {
            if (!recorded) {
                recorded = true;
                if (outcome == null) {
                    meters.completed(databaseId, began);
                } else {
                    meters.failed(databaseId, outcome, began);
                }
            }
        }

        public List<Column> columns() {
            return columns;
        }

        /** Writes every row (up to the limit) and the summary, then closes the cursor. */
        public ResultWriter.Summary stream(ResultWriter writer) throws IOException {
            try (this) {
                writer.begin(columns);
                RowReader reader = new RowReader(temporalClasses(rs.getMetaData(), columns.size()));
                long rows = 0;
                // Downloads read ahead on a second thread, so that fetching and decoding overlap with writing.
                ReadAhead ahead = rowLimit > FETCH_SIZE ? new ReadAhead(reader, READ_AHEAD_ROWS, READ_AHEAD_BATCHES) : null;
                try {
                    Object[] row;
                    while ((row = ahead != null ? ahead.next() : reader.next()) != null) {
                        writer.row(row);
                        rows++;
                    }
                } catch (IOException | SQLException | RuntimeException | Error e) {
                    // The client went away, or reading failed: stop the statement on the database at once.
                    cancel();
                    record(outcomeOf(e));
                    throw e;
                } finally {
                    if (ahead != null) {
                        ahead.close();
                    }
                }
                ResultWriter.Summary summary = new ResultWriter.Summary(rows, reader.truncated, rowLimit,
                        (System.nanoTime() - began) / 1_000_000);
                writer.end(summary);
                record(null);
                return summary;
            } catch (SQLException e) {
                throw failure(e, timeoutSeconds);
            }
        }

        /** Reads rows up to the limit, as plain Java values, and stops the query at its deadline. */
        private final class RowReader implements ReadAhead.Rows {
            private final Class<?>[] temporal;
            /**
             * The timeout of {@link #open} covers executing the statement, not fetching the rest of a streamed result:
             * past this deadline the stream stops and the statement is cancelled.
             */
            private final long deadline = began + timeoutSeconds * 1_000_000_000L;
            private long read;
            boolean truncated;

            RowReader(Class<?>[] temporal) {
                this.temporal = temporal;
            }

            @Override
            public Object[] next() throws SQLException {
                if (!rs.next()) {
                    return null;
                }
                if (read == rowLimit) {
                    truncated = true;
                    return null;
                }
                if ((read & 0xFF) == 0 && timeoutSeconds > 0 && System.nanoTime() - deadline > 0) {
                    cancel();
                    throw new QueryFailure(QueryFailure.Type.TIMED_OUT, timedOutMessage(timeoutSeconds));
                }
                Object[] row = new Object[temporal.length];
                for (int i = 0; i < row.length; i++) {
                    row[i] = Values.normalize(read(temporal, i));
                }
                read++;
                return row;
            }
        }

        /**
         * Date and time columns are read as java.time values (JDBC 4.2) where the driver can: it is exact for
         * {@code timestamp with time zone} (no detour through the JVM's zone) and several times faster than building a
         * {@link java.sql.Timestamp}. A driver that cannot is asked for its default object from then on.
         */
        private static Class<?>[] temporalClasses(ResultSetMetaData meta, int count) throws SQLException {
            Class<?>[] classes = new Class<?>[count];
            for (int i = 0; i < count; i++) {
                classes[i] = switch (meta.getColumnType(i + 1)) {
                    // PostgreSQL's driver reports timestamptz as TIMESTAMP
                    case Types.TIMESTAMP -> "timestamptz".equalsIgnoreCase(meta.getColumnTypeName(i + 1))
                            ? OffsetDateTime.class : LocalDateTime.class;
                    case Types.TIMESTAMP_WITH_TIMEZONE -> OffsetDateTime.class;
                    case Types.DATE -> LocalDate.class;
                    default -> null;
                };
            }
            return classes;
        }

        private Object read(Class<?>[] temporal, int i) throws SQLException {
            Class<?> type = temporal[i];
            if (type != null) {
                try {
                    return rs.getObject(i + 1, type);
                } catch (SQLException | RuntimeException unsupported) {
                    temporal[i] = null;
                }
            }
            return rs.getObject(i + 1);
        }

        private void cancel() {
            QueryExecutor.cancel(statement);
        }

        @Override
        public void close() {
            record(null);
            try {
                rs.close();
            } catch (SQLException ignored) {
                // releasing
            }
            closeQuietly(statement, connection);
        }
    }
}
