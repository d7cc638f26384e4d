package io.quarry.qp;

import static java.util.Objects.requireNonNull;

import io.quarry.core.Problem;
import io.quarry.driver.DatabasePools;
import io.quarry.driver.Driver;
import io.quarry.driver.Drivers;
import io.quarry.driver.StatementKind;
import io.quarry.driver.StatementRefused;
import io.quarry.warehouse.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The one door to connected databases. Every connection Quarry opens to a warehouse is borrowed here — from one pool
 * per database for reads and one for writes — and every statement run on it first passes its engine's statement policy
 * ({@link Driver#checkStatement}): queries through {@link QueryExecutor}; sync's metadata walk, field values and
 * analysis through {@link #read read sessions}; actions, uploads and persisted models' tables through
 * {@link #write write sessions}, which exist only for databases whose settings let Quarry write to them. No class
 * outside this package and the engines ({@code io.quarry.driver}) opens a warehouse connection: {@code WarehouseDoorTest}
 * fails when one does.
 *
 * <p>Read connections are read-only wherever the engine can open them so: always on SQLite; on H2 and DuckDB files
 * (opened in one mode per process) unless Quarry may write to the database, when reads rely on the engine's statement
 * policy alone.
 */
public final class Warehouses {
    private final Drivers drivers;
    private final DatabasePools pools;
    private final Predicate<Database> writable;
    private final int timeoutSeconds;
    /**
     * The connection spec last built for each database and pool, reused while the database is the same cached object
     * (its details unchanged: a change reads a new one) in the same mode: parsing the details and building the URL and
     * properties on every connection was ~2 % of a card query.
     */
    private final Map<SpecKey, BuiltSpec> specs = new ConcurrentHashMap<>();
    /** By database id: the last failure to get a connection from its pools (for the health details). */
    private final Map<Long, Problem> connectionFailures = new ConcurrentHashMap<>();

    private record SpecKey(long databaseId, boolean writes) {
    }

    private record BuiltSpec(Database database, boolean mayWrite, Driver.ConnectionSpec spec) {
    }

    /**
     * @param writable whether a database's settings let Quarry write to it (actions or persisted models on, the uploads
     *        database): only those get write sessions, and read-write files
     * @param timeoutSeconds how long a statement of a session may run before it is cancelled (the query timeout)
     */
    public Warehouses(Drivers drivers, DatabasePools pools, Predicate<Database> writable, int timeoutSeconds) {
        this.drivers = requireNonNull(drivers, "drivers is null");
        this.pools = requireNonNull(pools, "pools is null");
        this.writable = requireNonNull(writable, "writable is null");
        this.timeoutSeconds = timeoutSeconds;
    }

    /** The engine of a database. */
    public Driver driverOf(Database database) {
        return drivers.require(database.engine);
    }

    /** Whether Quarry may write to the database (its settings: actions, persisted models, uploads). */
    public boolean writable(Database database) {
        return writable.test(database);
    }

    /** Work on a session: its statements go through the session, never a connection of its own. */
    public interface SessionWork<T> {
        T run(WarehouseSession session) throws SQLException;
    }

    /**
     * Runs {@code work} on a read session: its statements are reads ({@link StatementKind#READ}), each checked by the
     * engine, each bounded by the query timeout.
     */
    public <T> T read(Database database, SessionWork<T> work) throws SQLException {
        try (WarehouseSession session = openRead(database)) {
            return work.run(session);
        }
    }

    /** A read session the caller closes (which returns its connection to the pool), for work of several steps. */
    public WarehouseSession openRead(Database database) throws SQLException {
        return new WarehouseSession(borrowRead(database), driverOf(database), null, timeoutSeconds);
    }

    /**
     * Runs {@code work} in one transaction on a write session of this kind: committed when it returns, rolled back when
     * it throws. Refused ({@link StatementRefused}) unless the database's settings let Quarry write to it.
     */
    public <T> T write(Database database, StatementKind kind, SessionWork<T> work) throws SQLException {
        if (!kind.writes()) {
            throw new IllegalArgumentException(kind + " is not a writing kind");
        }
        if (!writable(database)) {
            throw new StatementRefused("Quarry may not write to the database " + database.name
                    + ": turn on actions, model persistence or uploads for it first.");
        }
        Driver driver = driverOf(database);
        if (!driver.opensReadOnlyBesideWriters()) {
            // an engine that opens a file in one mode per process: a read pool opened read-only (before Quarry could
            // write) goes first, so that the file opens read-write
            BuiltSpec read = specs.get(new SpecKey(database.id, false));
            if (read != null && !read.mayWrite()) {
                pools.close(database.id, false);
                specs.remove(new SpecKey(database.id, false));
            }
        }
        try (Connection connection = connection(database, true, true)) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                T result = work.run(new WarehouseSession(connection, driver, kind, timeoutSeconds));
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        }
    }

    /**
     * A read connection (for {@link QueryExecutor}, which checks each statement itself). A database Quarry may no
     * longer write to loses its write pool first, so that an engine opening its file in one mode per process opens it
     * read-only again.
     */
    Connection borrowRead(Database database) throws SQLException {
        boolean mayWrite = writable(database);
        if (!mayWrite && pools.isOpen(database.id, true)) {
            pools.close(database.id, true);
            specs.remove(new SpecKey(database.id, true));
        }
        return connection(database, false, mayWrite && !driverOf(database).opensReadOnlyBesideWriters());
    }

    private Connection connection(Database database, boolean writes, boolean mayWrite) throws SQLException {
        SpecKey key = new SpecKey(database.id, writes);
        BuiltSpec built = specs.get(key);
        if (built == null || built.database() != database || built.mayWrite() != mayWrite) {
            built = new BuiltSpec(database, mayWrite, driverOf(database).connectionSpec(database.details, mayWrite));
            specs.put(key, built);
        }
        try {
            return pools.connection(database.id, writes, built.spec());
        } catch (SQLException | RuntimeException e) {
            connectionFailures.put(database.id, Problem.of(e));
            throw e;
        }
    }

    /**
     * A health check of the database (for the health details): a read connection borrowed from its pool and asked
     * whether it is valid, within {@code timeoutSeconds}. A failure is recorded as the database's last connection failure
     * and thrown.
     */
    public void check(Database database, int timeoutSeconds) throws SQLException {
        try (Connection connection = borrowRead(database)) {
            if (!connection.isValid(timeoutSeconds)) {
                SQLException invalid = new SQLException("The connection did not answer a validity check within " + timeoutSeconds + " s",
                        "08006");
                connectionFailures.put(database.id, Problem.of(invalid));
                throw invalid;
            }
        }
    }

    /** The last failure to get a connection to the database since start-up (or since it was forgotten), or null. */
    public Problem lastConnectionFailure(long databaseId) {
        return connectionFailures.get(databaseId);
    }

    /** Closes the database's pools (it was deleted, or its connection details changed). */
    public void forget(long databaseId) {
        specs.remove(new SpecKey(databaseId, false));
        specs.remove(new SpecKey(databaseId, true));
        connectionFailures.remove(databaseId);
        pools.close(databaseId);
    }

    /** Whether a pool of the database is open (for tests and diagnostics). */
    public boolean isOpen(long databaseId) {
        return pools.isOpen(databaseId);
    }
}
