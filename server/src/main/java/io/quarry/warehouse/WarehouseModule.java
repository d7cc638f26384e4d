package io.quarry.warehouse;

import io.quarry.appdb.Db;
import io.quarry.core.AppConfig;
import io.quarry.core.ConnectionPools;
import io.quarry.driver.ConnectionTester;
import io.quarry.driver.DatabasePools;
import io.quarry.driver.Drivers;
import java.time.Clock;
import java.util.function.BiConsumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.apache.ibatis.session.SqlSession;

/**
 * The warehouse module's connections: the engines, one connection pool per database, the connection test and the
 * stored databases. Its metadata services come later ({@link MetadataModule}), once sync exists.
 */
public record WarehouseModule(Drivers drivers, DatabasePools databasePools, ConnectionTester connectionTester,
                              DatabaseService databases) {
    /**
     * @param connectionTimeoutMillis how long a connection test may take (a driver setting, read at each test)
     * @param maxPoolSize the size of each database's connection pool (a driver setting, read when a pool is built)
     * @param onDatabaseCreated runs in the transaction that stores each new database (the data permissions module
     *        grants its defaults)
     */
    public static WarehouseModule create(AppConfig config, Clock clock, Db db, ConnectionPools connectionPools,
            LongSupplier connectionTimeoutMillis, IntSupplier maxPoolSize, BiConsumer<SqlSession, Database> onDatabaseCreated) {
        // the H2 driver refuses Quarry's own application database file
        Drivers drivers = Drivers.standard(config.dbType == AppConfig.DbType.H2 ? config.dbUrl : null);
        DatabasePools databasePools = new DatabasePools(connectionPools, config.queryTimeoutSeconds, maxPoolSize);
        ConnectionTester connectionTester = new ConnectionTester(drivers, connectionTimeoutMillis);
        DatabaseService databases = new DatabaseService(db, drivers, DetailsCodec.forKey(config.encryptionSecretKey),
                connectionTester, clock, onDatabaseCreated);
        return new WarehouseModule(drivers, databasePools, connectionTester, databases);
    }

    /** Closes the pools and the connection test's threads, and releases the engines. */
    public void close() {
        databasePools.close();
        connectionTester.close();
        drivers.release();
    }
}
