package io.quarry.schedule;

import java.time.Instant;

/** A row of {@code quarry_job_run}: the last due time handled for a job key, and how it went. */
public final class JobRun {
    public String jobKey;
    public Instant lastDue;
    /** {@code seen} (first seen, nothing run), {@code ok}, {@code failed} or {@code skipped}. */
    public String lastStatus;
    public Instant lastStartedAt;
    public Instant lastFinishedAt;
    public String lastError;
    public String lastInstance;
}
