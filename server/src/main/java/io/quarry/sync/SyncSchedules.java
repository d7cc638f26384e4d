package io.quarry.sync;

import io.quarry.appdb.Db;
import io.quarry.qp.Warehouses;
import io.quarry.schedule.ClusterJobs;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each database's two schedules: {@code metadata_sync_schedule} (sync-metadata + analyze) and
 * {@code cache_field_values_schedule} (update-field-values; none when {@code is_full_sync} is false). Both are Quartz
 * cron strings, run as {@link ClusterJobs} jobs, so that each fire time starts one sync across every instance sharing
 * the application database. The schedules are kept in step with the databases' rows every minute (databases added,
 * changed or deleted by other code paths or other instances) and as soon as a database's first sync ends; code that
 * changes a database's schedules may call {@link #refresh} to apply them at once. At each fire the database's row is
 * read again: a deleted database drops its schedules, a changed cron string replaces the schedule. A run that ends
 * after its database was deleted closes the pool it may have reopened.
 *
 * <p>A fire time only <em>requests</em> the sync (it runs in this instance's sync lanes, which merge it with a sync
 * already under way); the job's lease covers the request, not the whole sync. A fire time missed by more than a
 * minute (every instance down, or busy) is skipped, as Quartz, which Metabase uses, does with its default misfire
 * threshold of 60 s and the do-nothing misfire instruction of Metabase's sync triggers.
 */
public final class SyncSchedules implements ClusterJobs.JobSource {
    private static final Logger log = LoggerFactory.getLogger(SyncSchedules.class);
    static final Duration RECONCILE_EVERY = Duration.ofMinutes(1);
    static final Duration CATCH_UP = Duration.ofMinutes(1);
    static final Duration MAX_RUN = Duration.ofMinutes(1);

    /** The two schedules of a database. */
    public enum Kind {
        METADATA("sync:metadata:"), FIELD_VALUES("sync:field-values:");

        private final String keyPrefix;

        Kind(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }
    }

    private final Db db;
    private final SyncService sync;
    private final Warehouses warehouses;
    private final ScheduledExecutorService scheduler;
    private final ClusterJobs clusterJobs;
    private final Clock clock;
    private final ZoneId zone;
    private final Map<Long, Map<Kind, Cron>> entries = new HashMap<>();

    public SyncSchedules(Db db, SyncService sync, Warehouses warehouses, ScheduledExecutorService scheduler,
            ClusterJobs clusterJobs, Clock clock) {
        this.db = db;
        this.sync = sync;
        this.warehouses = warehouses;
        this.scheduler = scheduler;
        this.clusterJobs = clusterJobs;
        this.clock = clock;
        // Quartz, which Metabase uses, fires cron triggers in the JVM's time zone
        this.zone = ZoneId.systemDefault();
        clusterJobs.addSource(this);
    }

    /** Schedules every database now (in the background) and keeps the schedules in step with the application database. */
    public void start() {
        sync.listen(new SyncService.Listener() {
            @Override
            public void runFinished(long databaseId, SyncService.Run run) {
                if (!isScheduled(databaseId)) {
                    refresh(databaseId);
                }
                if (db.with(SyncMapper.class, m -> m.scheduleRow(databaseId)) == null) {
                    // deleted while this run was under way: the run may have opened a pool again
                    cancel(databaseId);
                    warehouses.forget(databaseId);
                }
            }
        });
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                reconcile();
            } catch (RuntimeException e) {
                log.warn("Reconciling sync schedules failed: {}", e.toString());
            }
        }, 0, RECONCILE_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The cluster jobs of every scheduled database, asked by {@link ClusterJobs} at each poll. */
    @Override
    public synchronized Collection<ClusterJobs.Job> jobs() {
        List<ClusterJobs.Job> jobs = new ArrayList<>();
        entries.forEach((databaseId, byKind) -> byKind.forEach((kind, cron) -> jobs.add(new ClusterJobs.Job(
                kind.keyPrefix + databaseId, cron.expression(), zone, CATCH_UP, MAX_RUN,
                due -> fire(databaseId, kind, cron.expression())))));
        return jobs;
    }

    /** Brings every database's schedules in line with its row; drops those of deleted databases. */
    public void reconcile() {
        List<Database> rows = db.with(SyncMapper.class, SyncMapper::scheduleRows);
        boolean changed = false;
        synchronized (this) {
            Set<Long> present = new HashSet<>();
            for (Database row : rows) {
                present.add(row.id);
                changed |= apply(row);
            }
            for (Long id : Set.copyOf(entries.keySet())) {
                if (!present.contains(id)) {
                    changed |= drop(id);
                }
            }
        }
        if (changed) {
            clusterJobs.wakeUp();
        }
    }

    /** Applies one database's current schedules (or drops them when the database is gone). */
    public void refresh(long databaseId) {
        Database row = db.with(SyncMapper.class, m -> m.scheduleRow(databaseId));
        boolean changed;
        synchronized (this) {
            changed = row == null ? drop(databaseId) : apply(row);
        }
        if (changed) {
            clusterJobs.wakeUp();
        }
    }

    /** Drops a database's schedules. */
    public synchronized void cancel(long databaseId) {
        drop(databaseId);
    }

    public synchronized boolean isScheduled(long databaseId) {
        return entries.containsKey(databaseId);
    }

    /** When a schedule of a database fires next. */
    public synchronized Optional<ZonedDateTime> next(long databaseId, Kind kind) {
        Map<Kind, Cron> byKind = entries.get(databaseId);
        Cron cron = byKind == null ? null : byKind.get(kind);
        return cron == null ? Optional.empty() : cron.nextAfter(ZonedDateTime.ofInstant(clock.instant(), zone));
    }

    /** The cron strings a database's row asks for: nulls mean no such schedule. */
    static Map<Kind, String> wanted(Database row) {
        Map<Kind, String> wanted = new EnumMap<>(Kind.class);
        wanted.put(Kind.METADATA, row.metadataSyncSchedule != null ? row.metadataSyncSchedule
                : DatabaseService.DEFAULT_SYNC_SCHEDULE);
        wanted.put(Kind.FIELD_VALUES, !row.isFullSync ? null : row.cacheFieldValuesSchedule != null
                ? row.cacheFieldValuesSchedule : DatabaseService.DEFAULT_FIELD_VALUES_SCHEDULE);
        return wanted;
    }

    private boolean drop(long databaseId) {
        if (entries.remove(databaseId) != null) {
            log.info("Unscheduled the syncs of database {}", databaseId);
            return true;
        }
        return false;
    }

    /** Applies a row's schedules; true when they changed. */
    private boolean apply(Database row) {
        Map<Kind, String> wanted = wanted(row);
        Map<Kind, Cron> current = entries.computeIfAbsent(row.id, id -> new EnumMap<>(Kind.class));
        boolean changed = false;
        for (Kind kind : Kind.values()) {
            String expression = wanted.get(kind);
            Cron cron = current.get(kind);
            if (cron != null && cron.expression().equals(expression)) {
                continue;
            }
            current.remove(kind);
            changed = true;
            if (expression != null) {
                try {
                    current.put(kind, Cron.parse(expression));
                } catch (IllegalArgumentException e) {
                    log.warn("Database {} has an invalid {} schedule '{}': not scheduled", row.id, kind, expression);
                }
            }
        }
        if (current.isEmpty()) {
            entries.remove(row.id);
        }
        return changed;
    }

    /** A fire time of a schedule, once across the cluster: the row is read again before the sync is requested. */
    private void fire(long databaseId, Kind kind, String expression) {
        Database row = db.with(SyncMapper.class, m -> m.scheduleRow(databaseId));
        boolean changed;
        synchronized (this) {
            if (row == null) {
                changed = drop(databaseId);
            } else if (!expression.equals(wanted(row).get(kind))) {
                changed = apply(row);
            } else {
                changed = false;
            }
        }
        if (changed) {
            clusterJobs.wakeUp();
        }
        if (row == null || !expression.equals(wanted(row).get(kind))) {
            return;
        }
        sync.request(databaseId, kind == Kind.METADATA ? SyncService.SCHEMA : SyncService.VALUES, true);
    }
}
