package io.quarry.sync;

import io.quarry.appdb.Db;
import io.quarry.qp.Warehouses;
import io.quarry.schedule.ClusterJobs;
import io.quarry.warehouse.DatabaseService;
import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The sync module: schema sync, analysis and field values, run on demand and on each database's schedules. The
 * schedules start with {@link #start()}, once the whole application is built.
 */
public record SyncModule(SchemaSync schemaSync, SyncService sync, FieldValuesService fieldValues, SyncSchedules syncSchedules) {
    public static SyncModule create(Clock clock, Db db, DatabaseService databases, Warehouses warehouses,
            ScheduledExecutorService scheduler, ClusterJobs clusterJobs) {
        SchemaSync schemaSync = new SchemaSync(db, databases, warehouses, clock);
        SyncService sync = new SyncService(databases, schemaSync, scheduler);
        return new SyncModule(schemaSync, sync, sync.fieldValues(), new SyncSchedules(db, sync, warehouses, scheduler, clusterJobs, clock));
    }

    /** Schedules every database's sync and field values scan. */
    public void start() {
        syncSchedules.start();
    }
}
