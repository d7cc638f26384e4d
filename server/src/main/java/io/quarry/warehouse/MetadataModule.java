package io.quarry.warehouse;

import io.quarry.appdb.Db;
import io.quarry.core.AppConfig;
import io.quarry.permission.DataPermissions;
import java.time.Clock;
import java.util.concurrent.Executor;

/**
 * The warehouse module's metadata: tables and fields as clients edit and read them, their query metadata, and the sample
 * database. Built after sync, which it starts ({@link SyncLauncher}).
 */
public record MetadataModule(MetadataService metadata, TableQueryMetadata tableQueryMetadata,
                             SampleDatabaseService sampleDatabases) {
    public static MetadataModule create(AppConfig config, Clock clock, Db db, DatabaseService databases, SyncLauncher sync,
            DataPermissions dataPermissions, Executor executor) {
        MetadataService metadata = new MetadataService(db, databases, sync, clock);
        return new MetadataModule(metadata, new TableQueryMetadata(databases, metadata, dataPermissions),
                new SampleDatabaseService(databases, sync, config, executor));
    }
}
