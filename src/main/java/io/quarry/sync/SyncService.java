package io.quarry.sync;

import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs syncs on the shared scheduler, never on API threads, and never two at once for one database: asking for a sync
 * while one runs returns the running one.
 */
public final class SyncService {
    private static final Logger log = LoggerFactory.getLogger(SyncService.class);

    private final DatabaseService databases;
    private final SchemaSync schemaSync;
    private final Executor executor;
    private final Map<Long, CompletableFuture<Void>> running = new ConcurrentHashMap<>();

    public SyncService(DatabaseService databases, SchemaSync schemaSync, Executor executor) {
        this.databases = databases;
        this.schemaSync = schemaSync;
        this.executor = executor;
    }

    /** Starts a sync of the database in the background (or joins the one already running). */
    public CompletableFuture<Void> syncInBackground(long databaseId) {
        return running.computeIfAbsent(databaseId, id -> {
            CompletableFuture<Void> future = CompletableFuture.runAsync(() -> syncNow(id), executor);
            future.whenComplete((ok, failure) -> running.remove(id));
            return future;
        });
    }

    public boolean isSyncing(long databaseId) {
        return running.containsKey(databaseId);
    }

    private void syncNow(long databaseId) {
        Database database = databases.find(databaseId);
        if (database == null) {
            return; // deleted meanwhile
        }
        long began = System.nanoTime();
        try {
            schemaSync.sync(database);
            log.info("Synced database {} ({}) in {} ms", database.id, database.name, (System.nanoTime() - began) / 1_000_000);
        } catch (Exception e) {
            log.warn("Sync of database {} ({}) failed: {}", database.id, database.name, e.getMessage());
        }
    }
}
