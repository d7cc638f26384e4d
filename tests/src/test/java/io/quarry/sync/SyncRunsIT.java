package io.quarry.sync;

import static io.quarry.sync.SyncSupport.await;
import static io.quarry.sync.SyncSupport.awaitSynced;
import static io.quarry.sync.SyncSupport.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.boot.Quarry;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.WarehouseMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** When syncs run: one at a time per database, off the API threads, on their schedules, as is_full_sync/is_on_demand say. */
class SyncRunsIT {
    private static TestServer server;
    private static Quarry quarry;
    private static Api admin;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        quarry = server.quarry();
        Api anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long addH2(String name, Path file) {
        long id = admin.post(200, "database", Map.of("engine", "h2", "name", name,
                "details", Map.of("db", "file:" + file, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        awaitSynced(quarry, admin, id);
        return id;
    }

    @Test
    void concurrentRequestsJoinOneRunThatNeverOverlapsAnother() throws Exception {
        long id = addH2("Busy shop", TargetDatabases.h2Shop());
        int before = quarry.sync.runCount(id);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<SyncService.Run> runs = new CopyOnWriteArrayList<>();
        SyncService.Listener gate = new SyncService.Listener() {
            @Override
            public void stepStarting(long databaseId, SyncService.Step step) {
                if (databaseId == id && step == SyncService.Step.METADATA && release.getCount() > 0) {
                    entered.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }

            @Override
            public void runFinished(long databaseId, SyncService.Run run) {
                if (databaseId == id) {
                    runs.add(run);
                }
            }
        };
        ExecutorService clients = Executors.newFixedThreadPool(10);
        try (AutoCloseable ignored = quarry.sync.listen(gate)) {
            admin.post(200, "database/" + id + "/sync_schema", null);
            assertTrue(entered.await(30, TimeUnit.SECONDS), "the first run started and is held in sync-metadata");

            // ten more requests while it is held: each answers at once, none starts a second run
            long began = System.nanoTime();
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                answers.add(clients.submit(() -> admin.post(200, "database/" + id + "/sync_schema", null).body()));
            }
            for (Future<String> answer : answers) {
                assertEquals("{\"status\":\"ok\"}", answer.get(30, TimeUnit.SECONDS));
            }
            assertTrue(Duration.ofNanos(System.nanoTime() - began).toSeconds() < 10, "the API never waits for a sync");
            // a values scan cannot join a schema sync: it is queued behind it
            admin.post(200, "database/" + id + "/rescan_values", null);
            admin.post(200, "database/" + id + "/rescan_values", null);
            assertEquals(before, quarry.sync.runCount(id), "nothing finished while the run is held");
            assertTrue(quarry.sync.isSyncing(id));
            release.countDown();
            await(Duration.ofSeconds(60), "the runs to end", () -> !quarry.sync.isSyncing(id));
        } finally {
            release.countDown();
            clients.shutdownNow();
        }
        assertEquals(before + 2, quarry.sync.runCount(id), "11 schema requests made one run, 2 scans one more");
        assertEquals(2, runs.size());
        assertEquals(List.of("sync-metadata", "analyze"), runs.get(0).results().stream().map(SyncService.StepResult::name).toList());
        assertEquals(List.of("update-field-values"), runs.get(1).results().stream().map(SyncService.StepResult::name).toList());
        List<SyncService.Run> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparing(SyncService.Run::start));
        for (int i = 1; i < sorted.size(); i++) {
            assertFalse(sorted.get(i).start().isBefore(sorted.get(i - 1).end()), "runs of one database never overlap");
        }
        admin.delete(204, "database/" + id);
    }

    @Test
    void aScheduleOfEveryFewSecondsResyncsUntilTheDatabaseIsDeleted() throws Exception {
        Path shop = TargetDatabases.h2Shop();
        long id = addH2("Scheduled shop", shop);
        await(Duration.ofSeconds(10), "the new database to be scheduled", () -> quarry.syncSchedules.isScheduled(id));
        ZonedDateTime hourly = quarry.syncSchedules.next(id, SyncSchedules.Kind.METADATA).orElseThrow();
        ZonedDateTime following = quarry.syncSchedules.next(id, SyncSchedules.Kind.METADATA).orElseThrow();
        assertTrue(hourly.getSecond() == 0 && !hourly.isAfter(following), "the default schedule: hourly, at a minute picked per database");
        assertTrue(quarry.syncSchedules.next(id, SyncSchedules.Kind.FIELD_VALUES).isPresent());

        Database database = quarry.databases.require(id);
        database.metadataSyncSchedule = "*/2 * * * * ? *";
        quarry.databases.update(database);
        quarry.syncSchedules.reconcile(); // what the minutely reconciliation does
        ZonedDateTime next = quarry.syncSchedules.next(id, SyncSchedules.Kind.METADATA).orElseThrow();
        assertTrue(next.isBefore(ZonedDateTime.now().plusSeconds(3)), "fires within two seconds: " + next);

        // the schema changes and nobody asks for a sync: the schedule finds it
        TargetDatabases.h2Execute(shop, "CREATE TABLE LATECOMER (ID INT PRIMARY KEY, NAME VARCHAR(20))");
        await(Duration.ofSeconds(30), "the scheduled sync to find the new table", () -> quarry.db
                .with(WarehouseMapper.class, m -> m.listTables(id, true)).stream().anyMatch(t -> t.name.equals("LATECOMER")));
        int runs = quarry.sync.runCount(id);
        await(Duration.ofSeconds(30), "another scheduled run", () -> quarry.sync.runCount(id) > runs);
        assertEquals(List.of("sync-metadata", "analyze"), quarry.sync.lastRun(id).results().stream()
                .map(SyncService.StepResult::name).toList(), "the metadata schedule syncs and analyzes");

        admin.delete(204, "database/" + id);
        await(Duration.ofSeconds(10), "the schedule to stop", () -> !quarry.syncSchedules.isScheduled(id)
                && !quarry.sync.isSyncing(id));
        int after = quarry.sync.runCount(id);
        Thread.sleep(5_000);
        assertEquals(after, quarry.sync.runCount(id), "a deleted database is never synced again");
        assertFalse(quarry.syncSchedules.isScheduled(id));
        assertFalse(quarry.databasePools.isOpen(id), "no pool outlives its database");
    }

    @Test
    void withoutFullSyncOnlyMetadataIsSyncedAndValuesAreNeverScheduled() throws Exception {
        Database database = new Database();
        database.engine = "h2";
        database.name = "Metadata only";
        database.details = Map.of("db", "file:" + SyncTargets.h2RichShop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD);
        database.isFullSync = false;
        long id = quarry.databases.create(database).id;
        quarry.sync.syncInBackground(id).get(60, TimeUnit.SECONDS);
        assertEquals(List.of("sync-metadata"), quarry.sync.lastRun(id).results().stream().map(SyncService.StepResult::name).toList());
        assertEquals("complete", admin.get(200, "database/" + id).json().get("initial_sync_status").asText());
        Field category = field(quarry, id, "products.category");
        assertNull(category.fingerprint);
        assertNull(category.hasFieldValues);
        assertNull(quarry.fieldValues.cached(category.id));
        await(Duration.ofSeconds(10), "the schedules", () -> quarry.syncSchedules.isScheduled(id));
        assertTrue(quarry.syncSchedules.next(id, SyncSchedules.Kind.METADATA).isPresent());
        assertTrue(quarry.syncSchedules.next(id, SyncSchedules.Kind.FIELD_VALUES).isEmpty(), "no scheduled values scan");
        // a person can still ask for analysis: manual requests run what they ask for
        admin.post(200, "database/" + id + "/sync_schema", null);
        await(Duration.ofSeconds(60), "the manual analysis", () -> field(quarry, id, "products.category").fingerprint != null
                && !quarry.sync.isSyncing(id));
        assertEquals("type/Category", field(quarry, id, "products.category").semanticType);
        admin.delete(204, "database/" + id);
    }

    @Test
    void onDemandDatabasesCacheValuesOnlyWhenTheyAreAskedFor() throws Exception {
        Path shop = SyncTargets.h2RichShop();
        Database database = new Database();
        database.engine = "h2";
        database.name = "On demand";
        database.details = Map.of("db", "file:" + shop, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD);
        database.isOnDemand = true;
        long id = quarry.databases.create(database).id;
        quarry.sync.syncInBackground(id).get(60, TimeUnit.SECONDS);
        Field category = field(quarry, id, "products.category");
        Field status = field(quarry, id, "orders.status");
        assertEquals("list", category.hasFieldValues);
        assertNull(quarry.fieldValues.cached(category.id), "the first sync cached nothing");
        assertNull(quarry.fieldValues.cached(status.id));

        assertEquals(4, admin.get(200, "field/" + category.id + "/values").json().get("values").size(), "made on demand");
        TargetDatabases.h2Execute(shop, "INSERT INTO products VALUES (1000, 'Odd one', 'Thingamajig', 'Vendor 1 Inc.', 1.5, 3.0, "
                + "'A thing.', TIMESTAMP '2024-01-01 00:00:00')");
        // the scheduled scan refreshes the values that were asked for, and only those
        quarry.sync.request(id, SyncService.VALUES, true).get(60, TimeUnit.SECONDS);
        assertEquals(List.of("Doohickey", "Gadget", "Gizmo", "Thingamajig", "Widget"), quarry.fieldValues.cached(category.id));
        assertNull(quarry.fieldValues.cached(status.id));
        // a manual rescan fills everything
        admin.post(200, "database/" + id + "/rescan_values", null);
        await(Duration.ofSeconds(60), "the manual scan", () -> quarry.fieldValues.cached(status.id) != null);
        admin.delete(204, "database/" + id);
    }
}
