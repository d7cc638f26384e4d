package io.quarry.warehouse;

import static java.util.Objects.requireNonNull;

import io.quarry.appdb.Db;
import io.quarry.appdb.RevisionCache;
import io.quarry.driver.ConnectionTester;
import io.quarry.driver.Driver;
import io.quarry.driver.Drivers;
import io.quarry.web.error.Checks;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;
import org.apache.ibatis.session.SqlSession;

/**
 * Connected databases: storing them (details decoded here, never elsewhere) and trying their connection details.
 * Connections to them are the query runner's alone ({@code io.quarry.qp.Warehouses}); this service tells it when a
 * database's connection changed or the database is gone ({@link #onConnectionChanged}).
 */
public final class DatabaseService {
    /** Metabase's default: metadata sync hourly; Quarry picks the minute when none is given. */
    public static final String DEFAULT_SYNC_SCHEDULE = "0 50 * * * ? *";
    public static final String DEFAULT_FIELD_VALUES_SCHEDULE = "0 50 0 * * ? *";

    private final Db db;
    private final RevisionCache<Long, Database> shared;
    private final Drivers drivers;
    private final DetailsCodec codec;
    private final ConnectionTester tester;
    private final Clock clock;
    private final BiConsumer<SqlSession, Database> onCreate;
    /** Told the id of a database whose connection changed or that was deleted (the runner closes its pools). */
    private final List<LongConsumer> connectionListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * @param onCreate runs in the transaction that stores each new database (the data permissions module grants its
     *        defaults)
     */
    public DatabaseService(Db db, Drivers drivers, DetailsCodec codec, ConnectionTester tester, Clock clock,
            BiConsumer<SqlSession, Database> onCreate) {
        this.db = requireNonNull(db, "db is null");
        this.shared = db.cache(1_000);
        this.drivers = requireNonNull(drivers, "drivers is null");
        this.codec = requireNonNull(codec, "codec is null");
        this.tester = requireNonNull(tester, "tester is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.onCreate = requireNonNull(onCreate, "onCreate is null");
    }

    /**
     * Tries the details for real (one connection, bounded in time). Null when the database answered, otherwise why not
     * (Metabase's {@code {"message", "errors"}}). Details the engine refuses outright answer a 400.
     */
    public ConnectionTester.Failure testConnection(String engine, Map<String, Object> details) {
        return tester.test(engine, details);
    }

    /** As {@link #testConnection}, answering the failure as a 400. */
    public void requireConnection(String engine, Map<String, Object> details) {
        tester.require(engine, details);
    }

    /** Stores a new database (details already validated by its driver); returns it with its id. */
    public Database create(Database database) {
        drivers.require(database.engine).connectionSpec(database.details);
        OffsetDateTime now = now();
        database.createdAt = now;
        database.updatedAt = now;
        if (database.metadataSyncSchedule == null) {
            database.metadataSyncSchedule = Schedules.randomHourly();
        }
        if (database.cacheFieldValuesSchedule == null && database.isFullSync) {
            database.cacheFieldValuesSchedule = Schedules.randomDaily();
        }
        database.storedDetails = codec.encode(database.details);
        db.run(session -> {
            session.getMapper(WarehouseMapper.class).insertDatabase(database);
            onCreate.accept(session, database);
        });
        return database;
    }

    /** Writes every column of an existing database; the pool is rebuilt on next use if the details changed. */
    public Database update(Database database) {
        database.updatedAt = now();
        database.storedDetails = codec.encode(database.details);
        db.run(session -> session.getMapper(WarehouseMapper.class).updateDatabase(database));
        return database;
    }

    /**
     * Writes an edited database. When its connection changed (engine or details), the pool is closed at once:
     * connections to what the database used to point at are not kept, and the next use builds a pool from the new
     * details.
     */
    public Database update(Database database, boolean connectionChanged) {
        Database updated = update(database);
        if (connectionChanged) {
            connectionChanged(database.id);
        }
        return updated;
    }

    /**
     * The details a client sent for an existing database, as Metabase merges them: over the stored ones (keys not
     * sent are kept), and a secret sent back as the redaction placeholder keeps its stored value — also a secret the
     * engine masks inside another detail ({@link Driver#mergedDetails}).
     */
    public static Map<String, Object> mergeDetails(Driver driver, Map<String, Object> stored, Map<String, Object> incoming) {
        return driver.mergedDetails(stored, incoming);
    }

    /** True when the details differ (compared as JSON values, so 5432 and 5432.0 are not told apart by accident). */
    public static boolean sameDetails(Map<String, Object> a, Map<String, Object> b) {
        return Objects.equals(io.quarry.core.Json.MAPPER.valueToTree(a == null ? Map.of() : a),
                io.quarry.core.Json.MAPPER.valueToTree(b == null ? Map.of() : b));
    }

    /** The database, or null. */
    public Database find(long id) {
        Database database = db.with(WarehouseMapper.class, m -> m.findDatabase(id));
        return database == null ? null : decoded(database);
    }

    /**
     * The database, or null, as queries read it: cached until the application database's cached data changes (a
     * database's details, engine or settings among them), its details decrypted once. The object is shared between
     * requests: read it, never change it (its details refuse changes).
     */
    public Database findShared(long id) {
        return shared.get(id, key -> {
            Database database = find(key);
            if (database != null && database.details != null) {
                database.details = java.util.Collections.unmodifiableMap(database.details);
            }
            return database;
        });
    }

    /** The database, or 404. */
    public Database require(long id) {
        return Checks.found(find(id));
    }

    public List<Database> list() {
        return db.with(WarehouseMapper.class, WarehouseMapper::listDatabases).stream().map(this::decoded).toList();
    }

    /** Deletes the database with its metadata, and closes its pool. */
    public void delete(long id) {
        require(id);
        // A sync writing this database's metadata at the same moment can make the delete the deadlock victim; the
        // database rolls it back whole, so it is safe to try again once the sync's transaction is through.
        for (int attempt = 1; ; attempt++) {
            try {
                db.run(session -> session.getMapper(WarehouseMapper.class).deleteDatabase(id));
                break;
            } catch (org.apache.ibatis.exceptions.PersistenceException e) {
                if (attempt >= 3 || !isDeadlock(e)) {
                    throw e;
                }
                try {
                    Thread.sleep(100L * attempt);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
        connectionChanged(id);
    }

    /** Registers a listener told the id of each database whose connection changed or that was deleted. */
    public void onConnectionChanged(LongConsumer listener) {
        connectionListeners.add(requireNonNull(listener, "listener is null"));
    }

    private void connectionChanged(long id) {
        for (LongConsumer listener : connectionListeners) {
            listener.accept(id);
        }
    }

    private static boolean isDeadlock(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLException sql && ("40001".equals(sql.getSQLState()) || "40P01".equals(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    public Driver driverOf(Database database) {
        return drivers.require(database.engine);
    }

    /** The driver of the database's engine, or null when Quarry ships none for it. */
    public Driver findDriverOf(Database database) {
        return database.engine == null ? null : drivers.find(database.engine);
    }

    /** The database-local setting that switches model persistence on for a database (set by the persistence module). */
    public static final String PERSIST_MODELS_SETTING = "persist-models-enabled";

    /** The database-local setting that lets actions run on (and so write to) a database. */
    public static final String ENABLE_ACTIONS_SETTING = "database-enable-actions";

    /**
     * Whether Quarry may write to the database: model persistence is on for it (its settings'
     * {@code persist-models-enabled}, which only the persistence endpoints set: it holds persisted models' tables) or
     * actions are ({@code database-enable-actions}). Only settings decide, never details a client sends. Engines opened
     * read-only (DuckDB, SQLite files) open read-write then.
     */
    public static boolean mayWrite(Database database) {
        return database.settings != null && (Boolean.TRUE.equals(database.settings.get(PERSIST_MODELS_SETTING))
                || Boolean.TRUE.equals(database.settings.get(ENABLE_ACTIONS_SETTING)));
    }

    private Database decoded(Database database) {
        database.details = codec.decode(database.storedDetails);
        return database;
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }

    /** For views: the engine's driver description. */
    public Map<String, Object> engines() {
        return drivers.describe();
    }
}
