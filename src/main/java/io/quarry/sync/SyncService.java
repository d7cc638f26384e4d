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
        // A finished sync may still be in the map for a moment (its clean-up runs after its waiters wake up): it must
        // not be handed out as if it were running, or a sync asked for after a change would never see the change.
        CompletableFuture<Void> fresh = new CompletableFuture<>();
        CompletableFuture<Void> result = running.compute(databaseId,
                (id, current) -> current != null && !current.isDone() ? current : fresh);
        if (result == fresh) {
            fresh.whenComplete((ok, failure) -> running.remove(databaseId, fresh));
            try {
                CompletableFuture.runAsync(() -> syncNow(databaseId), executor).whenComplete((ok, failure) -> {
                    if (failure != null) {
                        fresh.completeExceptionally(failure);
                    } else {
                        fresh.complete(null);
                    }
                });
            } catch (RuntimeException rejected) {
                fresh.completeExceptionally(rejected); // shutting down
                throw rejected;
            }
        }
        return result;
    }

    public boolean isSyncing(long databaseId) {
        CompletableFuture<Void> current = running.get(databaseId);
        return current != null && !current.isDone();
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
