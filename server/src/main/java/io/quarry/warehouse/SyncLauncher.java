package io.quarry.warehouse;

import java.util.concurrent.CompletableFuture;

/**
 * Starts a sync of a connected database without waiting for it. The warehouse module asks for one when a database is
 * added, its connection changes or a re-scan is requested; the sync module provides it (sync reads and writes warehouse
 * metadata, so the warehouse module must not depend on sync itself).
 */
public interface SyncLauncher {
    /** @return completes when the run that covers this request ends */
    CompletableFuture<Void> syncInBackground(long databaseId);
}
