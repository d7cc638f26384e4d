package io.quarry.sync;

import static org.junit.jupiter.api.Assertions.fail;

import io.quarry.boot.Quarry;
import io.quarry.testing.Api;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseMapper;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** Small helpers shared by the sync HTTP tests. */
final class SyncSupport {
    private SyncSupport() {
    }

    /** Waits (polling) until {@code condition} holds; fails after {@code timeout}. */
    static void await(Duration timeout, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        fail("Timed out after " + timeout + " waiting for " + what);
    }

    /** Waits until the database's first sync has finished (complete over HTTP, nothing running or queued). */
    static void awaitSynced(Quarry quarry, Api admin, long databaseId) {
        await(Duration.ofSeconds(90), "the sync of database " + databaseId, () ->
                "complete".equals(admin.get(200, "database/" + databaseId).json().get("initial_sync_status").asText())
                        && !quarry.sync.isSyncing(databaseId));
    }

    /** The database's fields by lower-case {@code table.column}. */
    static Map<String, Field> fields(Quarry quarry, long databaseId) {
        Map<Long, Table> tables = new HashMap<>();
        for (Table t : quarry.db.with(WarehouseMapper.class, m -> m.listTables(databaseId, false))) {
            tables.put(t.id, t);
        }
        Map<String, Field> out = new HashMap<>();
        for (Field f : quarry.db.with(WarehouseMapper.class, m -> m.listFieldsOfDatabase(databaseId))) {
            out.put((tables.get(f.tableId).name + "." + f.name).toLowerCase(Locale.ROOT), f);
        }
        return out;
    }

    static Field field(Quarry quarry, long databaseId, String tableDotColumn) {
        Field f = fields(quarry, databaseId).get(tableDotColumn.toLowerCase(Locale.ROOT));
        if (f == null) {
            fail("no field " + tableDotColumn);
        }
        return f;
    }
}
