package io.quarry.warehouse;

import io.quarry.appdb.Db;
import io.quarry.core.AppConfig;
import io.quarry.driver.ConnectionTester;
import io.quarry.driver.Drivers;
import java.time.Clock;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.apache.ibatis.session.SqlSession;

/**
 * The warehouse module: the engines, the connection test and the stored databases. It holds no connection to them:
 * the pools belong to the query runner's door ({@code qp.Warehouses}), which the composition root builds. Its
 * metadata services come later ({@link MetadataModule}), once sync exists.
 */
public record WarehouseModule(Drivers drivers, ConnectionTester connectionTester,
                              DatabaseService databases) {
    /**
     * @param connectionTimeoutMillis how long a connection test may take (a driver setting, read at each test)
     * @param onDatabaseCreated runs in the transaction that stores each new database (the data permissions module
     *        grants its defaults)
     */
    public static WarehouseModule create(AppConfig config, Clock clock, Db db,
            LongSupplier connectionTimeoutMillis, BiConsumer<SqlSession, Database> onDatabaseCreated) {
        // the H2 driver refuses Quarry's own application database file
        Drivers drivers = Drivers.standard(config.dbType == AppConfig.DbType.H2 ? config.dbUrl : null);
        ConnectionTester connectionTester = new ConnectionTester(drivers, connectionTimeoutMillis);
        DatabaseService databases = new DatabaseService(db, drivers, DetailsCodec.forKey(config.encryptionSecretKey),
                connectionTester, clock, onDatabaseCreated);
        return new WarehouseModule(drivers, connectionTester, databases);
    }

    /** Closes the connection test's threads and releases the engines. */
    public void close() {
        connectionTester.close();
        drivers.release();
    }
}
