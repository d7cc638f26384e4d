package io.quarry.sync;

import io.quarry.appdb.Db;
import io.quarry.driver.DatabasePools;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each database's two schedules, run on the shared scheduler: {@code metadata_sync_schedule} (sync-metadata +
 * analyze) and {@code cache_field_values_schedule} (update-field-values; none when {@code is_full_sync} is false).
 * Both are Quartz cron strings; the next fire time comes from {@link Cron} and one delayed task per schedule waits
 * for it. At each fire the database's row is read again: a deleted database drops its schedules, a changed cron string
 * replaces the schedule. Schedules are also reconciled with the application database every minute (databases added,
 * changed or deleted by other code paths or other instances), and a database is scheduled as soon as its first sync
 * ends. Code that changes a database's schedules may call {@link #refresh} to apply them at once. A run that ends after
 * its database was deleted closes the pool it may have reopened.
 */
public final class SyncSchedules {
    private static final Logger log = LoggerFactory.getLogger(SyncSchedules.class);
    static final Duration RECONCILE_EVERY = Duration.ofMinutes(1);

    /** The two schedules of a database. */
    public enum Kind { METADATA, FIELD_VALUES }

    private record Entry(String cron, ZonedDateTime next, ScheduledFuture<?> future) {
    }

    private final Db db;
    private final SyncService sync;
    private final DatabasePools pools;
    private final ScheduledExecutorService scheduler;
    private final Clock clock;
    private final ZoneId zone;
    private final Map<Long, Map<Kind, Entry>> entries = new HashMap<>();

    public SyncSchedules(Db db, SyncService sync, DatabasePools pools, ScheduledExecutorService scheduler, Clock clock) {
        this.db = db;
        this.sync = sync;
        this.pools = pools;
        this.scheduler = scheduler;
        this.clock = clock;
        // Quartz, which Metabase uses, fires cron triggers in the JVM's time zone
        this.zone = ZoneId.systemDefault();
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
                    pools.close(databaseId);
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

    /** Brings every database's schedules in line with its row; drops those of deleted databases. */
    public synchronized void reconcile() {
        List<Database> rows = db.with(SyncMapper.class, SyncMapper::scheduleRows);
        Set<Long> present = new HashSet<>();
        for (Database row : rows) {
            present.add(row.id);
            apply(row);
        }
        for (Long id : Set.copyOf(entries.keySet())) {
            if (!present.contains(id)) {
                cancel(id);
            }
        }
    }

    /** Applies one database's current schedules (or drops them when the database is gone). */
    public synchronized void refresh(long databaseId) {
        Database row = db.with(SyncMapper.class, m -> m.scheduleRow(databaseId));
        if (row == null) {
            cancel(databaseId);
        } else {
            apply(row);
        }
    }

    /** Drops a database's schedules. */
    public synchronized void cancel(long databaseId) {
        Map<Kind, Entry> gone = entries.remove(databaseId);
        if (gone != null) {
            gone.values().forEach(e -> e.future().cancel(false));
            log.info("Unscheduled the syncs of database {}", databaseId);
        }
    }

    public synchronized boolean isScheduled(long databaseId) {
        return entries.containsKey(databaseId);
    }

    /** When a schedule of a database fires next. */
    public synchronized Optional<ZonedDateTime> next(long databaseId, Kind kind) {
        Map<Kind, Entry> byKind = entries.get(databaseId);
        Entry entry = byKind == null ? null : byKind.get(kind);
        return entry == null ? Optional.empty() : Optional.of(entry.next());
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

    private void apply(Database row) {
        Map<Kind, String> wanted = wanted(row);
        Map<Kind, Entry> current = entries.computeIfAbsent(row.id, id -> new EnumMap<>(Kind.class));
        for (Kind kind : Kind.values()) {
            String cron = wanted.get(kind);
            Entry entry = current.get(kind);
            if (entry != null && entry.cron().equals(cron)) {
                continue;
            }
            if (entry != null) {
                entry.future().cancel(false);
                current.remove(kind);
            }
            if (cron != null) {
                schedule(row.id, kind, cron, now());
            }
        }
        if (current.isEmpty()) {
            entries.remove(row.id);
        }
    }

    private void schedule(long databaseId, Kind kind, String expression, ZonedDateTime after) {
        Cron cron;
        try {
            cron = Cron.parse(expression);
        } catch (IllegalArgumentException e) {
            log.warn("Database {} has an invalid {} schedule '{}': not scheduled", databaseId, kind, expression);
            return;
        }
        Optional<ZonedDateTime> next = cron.nextAfter(after);
        if (next.isEmpty()) {
            return;
        }
        long delay = Math.max(0, Duration.between(now(), next.get()).toMillis());
        ZonedDateTime planned = next.get();
        ScheduledFuture<?> future;
        try {
            future = scheduler.schedule(() -> fire(databaseId, kind, expression, planned), delay, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return; // shutting down
        }
        entries.computeIfAbsent(databaseId, id -> new EnumMap<>(Kind.class)).put(kind, new Entry(expression, planned, future));
    }

    private void fire(long databaseId, Kind kind, String expression, ZonedDateTime planned) {
        synchronized (this) {
            Map<Kind, Entry> byKind = entries.get(databaseId);
            Entry entry = byKind == null ? null : byKind.get(kind);
            if (entry == null || !entry.cron().equals(expression) || !entry.next().equals(planned)) {
                return; // replaced or cancelled meanwhile
            }
            try {
                Database row = db.with(SyncMapper.class, m -> m.scheduleRow(databaseId));
                if (row == null) {
                    cancel(databaseId);
                    return;
                }
                if (!expression.equals(wanted(row).get(kind))) {
                    apply(row);
                    return;
                }
                sync.request(databaseId, kind == Kind.METADATA ? SyncService.SCHEMA : SyncService.VALUES, true);
            } catch (RuntimeException e) {
                log.warn("Scheduled {} of database {} failed to start: {}", kind, databaseId, e.toString());
            }
            ZonedDateTime after = planned.isAfter(now()) ? planned : now();
            schedule(databaseId, kind, expression, after);
        }
    }

    private ZonedDateTime now() {
        return ZonedDateTime.ofInstant(clock.instant(), zone);
    }
}
