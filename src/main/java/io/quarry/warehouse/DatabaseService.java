package io.quarry.warehouse;

import io.quarry.appdb.Db;
import io.quarry.driver.DatabasePools;
import io.quarry.driver.Driver;
import io.quarry.driver.Drivers;
import io.quarry.web.error.Checks;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/** Connected databases: storing them (details decoded here, never elsewhere), and connecting to them. */
public final class DatabaseService {
    /** Metabase's default: metadata sync hourly; Quarry picks the minute when none is given. */
    public static final String DEFAULT_SYNC_SCHEDULE = "0 50 * * * ? *";
    public static final String DEFAULT_FIELD_VALUES_SCHEDULE = "0 50 0 * * ? *";

    private final Db db;
    private final Drivers drivers;
    private final DatabasePools pools;
    private final DetailsCodec codec;
    private final Clock clock;

    public DatabaseService(Db db, Drivers drivers, DatabasePools pools, DetailsCodec codec, Clock clock) {
        this.db = db;
        this.drivers = drivers;
        this.pools = pools;
        this.codec = codec;
        this.clock = clock;
    }

    /** Stores a new database (details already validated by its driver); returns it with its id. */
    public Database create(Database database) {
        drivers.require(database.engine).connectionSpec(database.details);
        OffsetDateTime now = now();
        database.createdAt = now;
        database.updatedAt = now;
        if (database.metadataSyncSchedule == null) {
            database.metadataSyncSchedule = DEFAULT_SYNC_SCHEDULE;
        }
        database.storedDetails = codec.encode(database.details);
        db.run(session -> session.getMapper(WarehouseMapper.class).insertDatabase(database));
        return database;
    }

    /** Writes every column of an existing database; the pool is rebuilt on next use if the details changed. */
    public Database update(Database database) {
        database.updatedAt = now();
        database.storedDetails = codec.encode(database.details);
        db.run(session -> session.getMapper(WarehouseMapper.class).updateDatabase(database));
        return database;
    }

    /** The database, or null. */
    public Database find(long id) {
        Database database = db.with(WarehouseMapper.class, m -> m.findDatabase(id));
        return database == null ? null : decoded(database);
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
        db.run(session -> session.getMapper(WarehouseMapper.class).deleteDatabase(id));
        pools.close(id);
    }

    public Driver driverOf(Database database) {
        return drivers.require(database.engine);
    }

    /** A pooled connection to a connected database; the caller closes it. */
    public Connection connect(Database database) throws SQLException {
        return pools.connection(database.id, driverOf(database).connectionSpec(database.details));
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
