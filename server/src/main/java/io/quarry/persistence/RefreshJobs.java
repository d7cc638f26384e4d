package io.quarry.persistence;

import io.quarry.schedule.ClusterJobs;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The scheduled refresh of persisted models, once per cluster: one job on the refresh cron
 * ({@code persisted-model-refresh-cron-schedule}, by default every 6 hours, in UTC) while persistence is on, none
 * while it is off. A run refreshes every model due one, one after the other, and drops the tables marked for it.
 */
public final class RefreshJobs implements ClusterJobs.JobSource {
    static final String KEY = "persisted-models-refresh";
    /** A missed run (every instance down at its time) is made up within an hour, else skipped for the next. */
    private static final Duration CATCH_UP = Duration.ofHours(1);
    /** The lease a run holds at most: longer than any refresh of every model should take. */
    private static final Duration MAX_RUN = Duration.ofHours(6);

    private final PersistenceService persistence;
    private final PersistedTables tables;

    public RefreshJobs(PersistenceService persistence, PersistedTables tables) {
        this.persistence = Objects.requireNonNull(persistence, "persistence is null");
        this.tables = Objects.requireNonNull(tables, "tables is null");
    }

    @Override
    public Collection<ClusterJobs.Job> jobs() {
        if (!tables.enabled()) {
            return List.of();
        }
        return List.of(new ClusterJobs.Job(KEY, persistence.refreshCron(), ZoneOffset.UTC, CATCH_UP, MAX_RUN,
                due -> persistence.refreshAll()));
    }
}
