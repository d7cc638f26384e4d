package io.quarry.sync;

import io.quarry.appdb.Db;
import io.quarry.driver.Driver;
import io.quarry.qp.WarehouseSession;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.SyncLauncher;
import io.quarry.warehouse.WarehouseMapper;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sync pipeline of a database, in Metabase's order: {@link Step#METADATA sync-metadata} (tables, fields, keys) →
 * {@link Step#ANALYZE analyze} (fingerprints, classification) → {@link Step#FIELD_VALUES update-field-values} (cached
 * values of list fields). Each step logs one summary line and its result is kept ({@link #lastRun}).
 *
 * <p>Runs happen on the shared scheduler, never on API threads, and never two at once for one database. A request
 * while a run is under way joins it when the run covers the requested steps and has not gone past the first of them;
 * otherwise it is queued as the one follow-up run of that database (later requests merge into it). So any number of
 * concurrent requests cost at most one run plus one follow-up.
 *
 * <p>{@code initial_sync_status}: a database (and its tables) goes from {@code incomplete} to {@code complete} when a
 * run with metadata and analysis (for databases with {@code is_full_sync}) succeeds, and to {@code aborted} when its
 * first run fails. Tables that appear later are {@code incomplete} until the run that found them ends.
 */
public final class SyncService implements SyncLauncher {
    private static final Logger log = LoggerFactory.getLogger(SyncService.class);

    /** A step of the pipeline, with Metabase's name for it. */
    public enum Step {
        METADATA("sync-metadata"), ANALYZE("analyze"), FIELD_VALUES("update-field-values");

        public final String label;

        Step(String label) {
            this.label = label;
        }
    }

    /** Every step; what a new database gets. */
    public static final Set<Step> FULL = Collections.unmodifiableSet(EnumSet.allOf(Step.class));
    /** What {@code POST /api/database/:id/sync_schema} and the metadata schedule run (Metabase: sync + analyze). */
    public static final Set<Step> SCHEMA = Collections.unmodifiableSet(EnumSet.of(Step.METADATA, Step.ANALYZE));
    /** What {@code rescan_values} and the field-values schedule run. */
    public static final Set<Step> VALUES = Collections.unmodifiableSet(EnumSet.of(Step.FIELD_VALUES));

    /** Observes runs (logging, schedules, tests). Called on the sync thread; must not block for long. */
    public interface Listener {
        default void stepStarting(long databaseId, Step step) {
        }

        default void runFinished(long databaseId, Run run) {
        }
    }

    /** One step's outcome: its sub-step summaries (Metabase's keys) or its error. */
    public record StepResult(String name, Instant start, Instant end, Map<String, Object> summary, String error) {
    }

    /** One run of the pipeline for one database. */
    public record Run(long databaseId, Set<Step> steps, Instant start, Instant end, List<StepResult> results, String error) {
        public boolean succeeded() {
            return error == null;
        }
    }

    private final DatabaseService databases;
    private final SchemaSync schemaSync;
    private final Analyzer analyzer;
    private final FieldValuesService fieldValues;
    private final Db db;
    private final Executor executor;
    private final Map<Long, Lane> lanes = new HashMap<>();
    private final Map<Long, Run> lastRuns = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> runCounts = new ConcurrentHashMap<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();

    public SyncService(DatabaseService databases, SchemaSync schemaSync, Executor executor) {
        this.databases = databases;
        this.schemaSync = schemaSync;
        this.db = schemaSync.db();
        this.analyzer = new Analyzer(schemaSync.db(), databases, schemaSync.warehouses(), schemaSync.clock());
        this.fieldValues = new FieldValuesService(schemaSync.db(), databases, schemaSync.warehouses(), schemaSync.clock());
        this.executor = executor;
    }

    /** The schemas sync could read, asked of the database itself (system schemas left out), sorted. */
    public List<String> syncableSchemas(Database database) throws SQLException {
        Driver driver = databases.driverOf(database);
        java.util.TreeSet<String> schemas = new java.util.TreeSet<>();
        try (WarehouseSession session = schemaSync.warehouses().openRead(database);
             java.sql.ResultSet rs = session.metadata().getSchemas()) {
            while (rs.next()) {
                String schema = rs.getString("TABLE_SCHEM");
                if (schema != null && !driver.systemSchemas().contains(schema)) {
                    schemas.add(schema);
                }
            }
        }
        return new ArrayList<>(schemas);
    }

    /** Cached field values: reading, refreshing and discarding them. */
    public FieldValuesService fieldValues() {
        return fieldValues;
    }

    /**
     * Refreshes the cached values of one table's fields in the background (Metabase's table rescan): eligible fields
     * are read again, the others lose their values. Completes when done.
     */
    public CompletableFuture<Void> rescanTable(long tableId) {
        return CompletableFuture.runAsync(() -> {
            for (Field field : db.with(WarehouseMapper.class, m -> m.listFieldsOfTables(List.of(tableId)))) {
                fieldValues.refresh(field);
            }
        }, executor);
    }

    /** Drops the cached values of every field of one table. */
    public void discardTableValues(long tableId) {
        for (Field field : db.with(WarehouseMapper.class, m -> m.listFieldsOfTables(List.of(tableId)))) {
            fieldValues.discard(field.id);
        }
    }

    /** One run at a time per database: the one under way and the one queued after it. */
    private static final class Lane {
        Job running;
        Job pending;
    }

    private static final class Job {
        final EnumSet<Step> steps;
        /** True while every request merged in is automatic: steps then follow the database's is_full_sync. */
        boolean automatic;
        final CompletableFuture<Void> done = new CompletableFuture<>();
        volatile Step current;

        Job(Set<Step> steps, boolean automatic) {
            this.steps = EnumSet.copyOf(steps);
            this.automatic = automatic;
        }

        boolean covers(Set<Step> requested, boolean automaticRequest) {
            if (!steps.containsAll(requested) || (automatic && !automaticRequest)) {
                return false;
            }
            Step first = Collections.min(requested);
            Step now = current;
            return now == null || now.ordinal() <= first.ordinal();
        }
    }

    /**
     * The first sync of a new database (and any full sync): every step, analysis and values only when the database
     * has {@code is_full_sync}. Returns when the run this request joined or started ends.
     */
    @Override
    public CompletableFuture<Void> syncInBackground(long databaseId) {
        return request(databaseId, FULL, true);
    }

    /**
     * Runs {@code steps} for a database in the background. {@code automatic} requests (schedules, first sync) follow
     * the database's {@code is_full_sync} and {@code is_on_demand}; manual ones run the steps asked for.
     */
    public CompletableFuture<Void> request(long databaseId, Set<Step> steps, boolean automatic) {
        if (steps.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        Job start = null;
        CompletableFuture<Void> result;
        synchronized (lanes) {
            Lane lane = lanes.computeIfAbsent(databaseId, id -> new Lane());
            if (lane.running == null) {
                lane.running = new Job(steps, automatic);
                start = lane.running;
                result = start.done;
            } else if (lane.running.covers(steps, automatic)) {
                result = lane.running.done;
            } else if (lane.pending == null) {
                lane.pending = new Job(steps, automatic);
                result = lane.pending.done;
            } else {
                lane.pending.steps.addAll(steps);
                lane.pending.automatic &= automatic;
                result = lane.pending.done;
            }
        }
        if (start != null) {
            submit(databaseId, start);
        }
        return result;
    }

    private void submit(long databaseId, Job job) {
        try {
            executor.execute(() -> execute(databaseId, job));
        } catch (RuntimeException rejected) {
            // the scheduler is shutting down: nothing will run
            synchronized (lanes) {
                lanes.remove(databaseId);
            }
            job.done.completeExceptionally(rejected);
        }
    }

    private void execute(long databaseId, Job job) {
        try {
            Run run = runPipeline(databaseId, job);
            if (run != null) {
                lastRuns.put(databaseId, run);
                runCounts.computeIfAbsent(databaseId, id -> new AtomicInteger()).incrementAndGet();
                for (Listener listener : listeners) {
                    try {
                        listener.runFinished(databaseId, run);
                    } catch (RuntimeException e) {
                        log.warn("Sync listener failed: {}", e.toString());
                    }
                }
            }
        } catch (RuntimeException | Error e) {
            log.warn("Sync of database {} failed unexpectedly", databaseId, e);
        } finally {
            Job next;
            synchronized (lanes) {
                Lane lane = lanes.get(databaseId);
                next = lane.pending;
                lane.pending = null;
                lane.running = next;
                if (next == null) {
                    lanes.remove(databaseId);
                }
            }
            job.done.complete(null);
            if (next != null) {
                submit(databaseId, next);
            }
        }
    }

    private Run runPipeline(long databaseId, Job job) {
        Database database = databases.find(databaseId);
        if (database == null) {
            return null; // deleted meanwhile
        }
        EnumSet<Step> steps = EnumSet.copyOf(job.steps);
        if (job.automatic && !database.isFullSync) {
            steps.retainAll(EnumSet.of(Step.METADATA));
        }
        if (steps.isEmpty()) {
            return null;
        }
        String label = database.engine + " Database " + database.id + " '" + database.name + "'";
        Instant began = Instant.now();
        log.info("STARTING: Sync {} ({})", label, steps.stream().map(s -> s.label).toList());
        List<StepResult> results = new ArrayList<>();
        String failure = null;
        boolean metadataFailed = false;
        // what the metadata step wrote, handed to the following steps instead of being read back; dropped when a step
        // fails (its objects may then differ from what is stored)
        SchemaSync.Synced synced = null;
        for (Step step : steps) {
            if (metadataFailed) {
                break;
            }
            job.current = step;
            for (Listener listener : listeners) {
                listener.stepStarting(databaseId, step);
            }
            Instant stepBegan = Instant.now();
            Map<String, Object> summary = new LinkedHashMap<>();
            String error = null;
            try {
                switch (step) {
                    case METADATA -> {
                        synced = schemaSync.sync(database, steps.contains(Step.ANALYZE));
                        summary.put("sync-tables-and-fields", synced.summary().toMap());
                    }
                    case ANALYZE -> {
                        Analyzer.Summary analysis = analyzer.analyze(database, synced);
                        summary.put("fingerprint-fields", analysis.fingerprints());
                        summary.put("classify-fields", analysis.classification());
                    }
                    case FIELD_VALUES -> summary.put("update-field-values",
                            fieldValues.scanDatabase(database, job.automatic && database.isOnDemand, synced));
                    default -> throw new IllegalStateException(step.toString());
                }
            } catch (Exception e) {
                synced = null;
                error = e.getMessage() == null ? e.toString() : e.getMessage();
                failure = failure == null ? step.label + ": " + error : failure;
                metadataFailed = step == Step.METADATA;
            }
            Instant stepEnded = Instant.now();
            results.add(new StepResult(step.label, stepBegan, stepEnded, summary, error));
            if (error == null) {
                log.info("FINISHED: step '{}' for {} ({} ms): {}", step.label, label, millis(stepBegan, stepEnded), summary);
            } else {
                log.warn("FAILED: step '{}' for {} ({} ms): {}", step.label, label, millis(stepBegan, stepEnded), error);
            }
        }
        job.current = null;
        updateSyncStatus(database, steps, failure == null);
        Instant ended = Instant.now();
        if (failure == null) {
            log.info("FINISHED: Sync {} ({} ms)", label, millis(began, ended));
        } else {
            log.warn("FINISHED WITH ERRORS: Sync {} ({} ms): {}", label, millis(began, ended), failure);
        }
        return new Run(databaseId, Collections.unmodifiableSet(steps), began, ended, List.copyOf(results), failure);
    }

    private void updateSyncStatus(Database database, Set<Step> ran, boolean succeeded) {
        boolean complete = "complete".equals(database.initialSyncStatus);
        try {
            if (succeeded && ran.contains(Step.METADATA) && (!database.isFullSync || ran.contains(Step.ANALYZE) || complete)) {
                db.run(session -> {
                    session.getMapper(SyncMapper.class).setTablesSyncStatus(database.id, null, "complete");
                    if (!complete) {
                        session.getMapper(WarehouseMapper.class).updateDatabaseSyncStatus(database.id, "complete");
                    }
                });
            } else if (!succeeded && !complete && ran.contains(Step.METADATA)) {
                db.run(session -> {
                    session.getMapper(SyncMapper.class).setTablesSyncStatus(database.id, "incomplete", "aborted");
                    session.getMapper(WarehouseMapper.class).updateDatabaseSyncStatus(database.id, "aborted");
                });
            }
        } catch (RuntimeException e) {
            log.warn("Could not record the sync status of database {}: {}", database.id, e.toString());
        }
    }

    private static long millis(Instant from, Instant to) {
        return Duration.between(from, to).toMillis();
    }

    /** Marks the initial sync of a database and of its tables complete ({@code dismiss_spinner}). */
    public void dismissSpinner(long databaseId) {
        db.run(session -> {
            session.getMapper(WarehouseMapper.class).updateDatabaseSyncStatus(databaseId, "complete");
            session.getMapper(SyncMapper.class).setTablesSyncStatus(databaseId, null, "complete");
        });
    }

    /** True while a run of the database is under way or queued. */
    public boolean isSyncing(long databaseId) {
        synchronized (lanes) {
            return lanes.containsKey(databaseId);
        }
    }

    /** The last finished run of the database, or null. */
    public Run lastRun(long databaseId) {
        return lastRuns.get(databaseId);
    }

    /** How many runs of the database have finished since start-up. */
    public int runCount(long databaseId) {
        AtomicInteger count = runCounts.get(databaseId);
        return count == null ? 0 : count.get();
    }

    /** Adds a listener; the returned handle removes it. */
    public AutoCloseable listen(Listener listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }
}
