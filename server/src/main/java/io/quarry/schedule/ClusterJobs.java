package io.quarry.schedule;

import com.cronutils.model.time.ExecutionTime;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarry.appdb.Db;
import io.quarry.core.Problem;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbc.JdbcLockProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scheduled work that runs once across every Quarry instance sharing the application database.
 *
 * <p>Each instance polls (every {@link #POLL_EVERY}, on the shared scheduler, reading the app's {@link Clock}) the jobs
 * its {@link JobSource}s list. A job's due time is the latest time of its Quartz cron, in its zone, that is at or before
 * now and after the last due time recorded for its key in {@code quarry_job_run}. A job seen for the first time records
 * now (nothing in the past fires). A due time older than the job's {@code catchUp} is skipped (recorded, logged, not
 * run): a send due while every instance was down runs when one comes back, within that window. Otherwise the instance
 * takes the job's lease (ShedLock's JDBC lease, {@code quarry_job_lease}, held for at most {@code maxRun}), reads the
 * last due time again inside it (another instance may have run it meanwhile), runs the task, records the due time and
 * releases the lease. An instance that dies mid-run leaves the lease to expire after {@code maxRun}; the next poll of
 * another instance then takes it and runs that due time again. A task that throws is logged and its due time recorded
 * as failed: retrying is the task's business.
 *
 * <p>Lease times are wall-clock times (ShedLock's clock): a lease is about how long a run really takes. Due times use
 * the app's clock, which tests drive.
 */
public final class ClusterJobs {
    private static final Logger log = LoggerFactory.getLogger(ClusterJobs.class);
    public static final Duration POLL_EVERY = Duration.ofSeconds(15);
    private static final int WORKERS = 4;

    /** A job fired at each time of its Quartz cron in its zone, once across the instances sharing the app DB. */
    public record Job(String key, String quartzCron, ZoneId zone, Duration catchUp, Duration maxRun,
                      Consumer<ZonedDateTime> task) {
        public Job {
            Objects.requireNonNull(key, "key is null");
            if (key.isBlank() || key.length() > 255) {
                throw new IllegalArgumentException("A job key is 1 to 255 characters: '" + key + "'");
            }
            Objects.requireNonNull(quartzCron, "quartzCron is null");
            Objects.requireNonNull(zone, "zone is null");
            Objects.requireNonNull(catchUp, "catchUp is null");
            Objects.requireNonNull(maxRun, "maxRun is null");
            Objects.requireNonNull(task, "task is null");
            if (catchUp.isNegative() || maxRun.isNegative() || maxRun.isZero()) {
                throw new IllegalArgumentException("catchUp must be ≥ 0 and maxRun > 0");
            }
        }
    }

    /** Lists the jobs; asked on every poll, so jobs come and go with what they are made from. */
    public interface JobSource {
        Collection<Job> jobs();
    }

    private final Db db;
    private final LockProvider leases;
    private final ScheduledExecutorService scheduler;
    private final Clock clock;
    private final String instance;
    private final List<JobSource> sources = new CopyOnWriteArrayList<>();
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final Map<String, ExecutionTime> parsed = new ConcurrentHashMap<>();
    private final Set<String> invalidReported = ConcurrentHashMap.newKeySet();
    private final ExecutorService workers;
    private final MeterRegistry meters;
    private volatile Instant lastPoll;
    private volatile Problem lastPollFailure;
    private volatile Problem lastLeaseFailure;
    private volatile boolean stopped;
    private ScheduledFuture<?> polling;
    private ScheduledFuture<?> wakeUp;
    private long wakeUpAt;

    /**
     * {@code meters}: each run's duration is recorded as {@code quarry_job_duration_seconds{job, outcome}} (the job's
     * kind, {@link #kindOf}, not its key: one series per kind of job), each skipped due time as
     * {@code quarry_job_skipped_total{job}}.
     */
    public ClusterJobs(Db db, DataSource dataSource, ScheduledExecutorService scheduler, Clock clock, MeterRegistry meters) {
        this.db = Objects.requireNonNull(db, "db is null");
        this.meters = Objects.requireNonNull(meters, "meters is null");
        this.leases = new JdbcLockProvider(Objects.requireNonNull(dataSource, "dataSource is null"), "quarry_job_lease");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.instance = ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID().toString().substring(0, 8);
        AtomicInteger n = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(WORKERS, r -> {
            Thread t = new Thread(r, "quarry-job-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    public void addSource(JobSource source) {
        sources.add(Objects.requireNonNull(source, "source is null"));
    }

    /** This instance's name in the lease and run tables. */
    public String instance() {
        return instance;
    }

    /** Starts polling on the shared scheduler: the first poll at once (catching up what was due while down). */
    public synchronized void start() {
        if (polling != null || stopped) {
            return;
        }
        polling = scheduler.scheduleWithFixedDelay(this::pollQuietly, 0, POLL_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Polls soon (on the scheduler), for a source whose jobs just changed: a new job is seen, and a changed cron
     * string is followed, without waiting for the next periodic poll. Nothing happens before {@link #start()}.
     */
    public void wakeUp() {
        wakeUpIn(Duration.ZERO);
    }

    private void pollQuietly() {
        try {
            poll();
        } catch (RuntimeException e) {
            log.warn("Polling scheduled jobs failed: {}", e.toString());
        }
    }

    /**
     * What the health details report of the scheduler: whether it polls, when it last polled to the end, the last poll
     * that failed and the last lease that could not be asked for (the lease table unreachable), each null when none.
     */
    public record Health(boolean started, Instant lastPoll, Problem lastPollFailure, Problem lastLeaseFailure) {
    }

    public Health health() {
        boolean started;
        synchronized (this) {
            started = polling != null && !stopped;
        }
        return new Health(started, lastPoll, lastPollFailure, lastLeaseFailure);
    }

    /**
     * A job's kind, for metrics: its key without the id and schedule that follow the first {@code :} or {@code .} before
     * a digit ({@code sync:metadata:3} → {@code sync:metadata}, {@code send-pulse.12.0_0_*} → {@code send-pulse}).
     */
    public static String kindOf(String key) {
        for (int i = 0; i + 1 < key.length(); i++) {
            char c = key.charAt(i);
            if ((c == ':' || c == '.') && Character.isDigit(key.charAt(i + 1))) {
                return key.substring(0, i);
            }
        }
        return key;
    }

    /** Makes sure a poll happens within {@code delay} (besides the periodic ones), keeping an earlier one planned. */
    private synchronized void wakeUpIn(Duration delay) {
        if (polling == null || stopped) {
            return;
        }
        long nanoNow = System.nanoTime();
        long at = nanoNow + delay.toNanos();
        // a planned wake-up still ahead and no later than this one will do (one whose time has come may be the very
        // poll asking, which cannot count as the next)
        if (wakeUp != null && !wakeUp.isDone() && wakeUpAt - nanoNow > 0 && wakeUpAt - at <= 0) {
            return;
        }
        if (wakeUp != null) {
            wakeUp.cancel(false);
        }
        try {
            wakeUp = scheduler.schedule(this::pollQuietly, delay.toMillis(), TimeUnit.MILLISECONDS);
            wakeUpAt = at;
        } catch (RejectedExecutionException e) {
            // shutting down
        }
    }

    /**
     * Stops polling and interrupts running tasks. A task stopped this way is neither recorded nor released: like a
     * dead instance's, its lease expires and another instance runs that due time again.
     */
    public synchronized void stop() {
        stopped = true;
        if (polling != null) {
            polling.cancel(false);
        }
        workers.shutdownNow();
    }

    /** One poll, synchronously: returns once every run it started has ended (tests drive the clock, then call this). */
    public void pollNow() {
        for (Future<?> run : poll()) {
            try {
                run.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                log.warn("Scheduled job run failed", e.getCause());
            }
        }
    }

    /** The last due time recorded for a job key, if the key was ever seen. */
    public Optional<Instant> lastDue(String key) {
        return Optional.ofNullable(db.with(JobRunMapper.class, m -> m.selectOne(key))).map(run -> run.lastDue);
    }

    /** The next time a job is due, after the later of now and its last recorded due time. */
    public Optional<ZonedDateTime> nextDue(Job job) {
        ExecutionTime cron = cron(job);
        if (cron == null) {
            return Optional.empty();
        }
        Instant after = lastDue(job.key()).filter(last -> last.isAfter(clock.instant())).orElse(clock.instant());
        return DueTimes.nextAfter(cron, after.atZone(job.zone()));
    }

    private synchronized List<Future<?>> poll() {
        if (stopped) {
            return List.of();
        }
        try {
            List<Future<?>> runs = pollJobs();
            lastPoll = Instant.now();
            return runs;
        } catch (RuntimeException e) {
            lastPollFailure = Problem.of(e);
            throw e;
        }
    }

    private List<Future<?>> pollJobs() {
        Map<String, Job> jobs = new LinkedHashMap<>();
        for (JobSource source : sources) {
            Collection<Job> listed;
            try {
                listed = source.jobs();
            } catch (RuntimeException e) {
                log.warn("A scheduled job source failed to list its jobs: {}", e.toString(), e);
                continue;
            }
            for (Job job : listed) {
                if (jobs.putIfAbsent(job.key(), job) != null) {
                    log.warn("Two scheduled jobs share the key '{}': the second is ignored", job.key());
                }
            }
        }
        if (jobs.isEmpty()) {
            return List.of();
        }
        Instant now = clock.instant();
        Map<String, Instant> lastDue = new HashMap<>();
        for (JobRun run : db.with(JobRunMapper.class, JobRunMapper::selectAll)) {
            lastDue.put(run.jobKey, run.lastDue);
        }
        List<Future<?>> runs = new ArrayList<>();
        Instant earliestNext = null;
        for (Job job : jobs.values()) {
            ExecutionTime cron = cron(job);
            Optional<ZonedDateTime> next = cron == null ? Optional.empty()
                    : DueTimes.nextAfter(cron, now.truncatedTo(ChronoUnit.SECONDS).atZone(job.zone()));
            if (next.isPresent() && (earliestNext == null || next.get().toInstant().isBefore(earliestNext))) {
                earliestNext = next.get().toInstant();
            }
            try {
                Future<?> run = consider(job, lastDue.get(job.key()), now);
                if (run != null) {
                    runs.add(run);
                }
            } catch (RuntimeException e) {
                log.warn("Scheduled job '{}' could not be considered: {}", job.key(), e.toString());
            }
        }
        // a job due before the next periodic poll gets a poll of its own at its time: jobs fire to the second
        if (earliestNext != null && Duration.between(now, earliestNext).compareTo(POLL_EVERY) < 0) {
            wakeUpIn(Duration.between(now, earliestNext).plusMillis(5));
        }
        return runs;
    }

    private Future<?> consider(Job job, Instant last, Instant now) {
        ExecutionTime cron = cron(job);
        if (cron == null) {
            return null;
        }
        if (last == null) {
            try {
                db.with(JobRunMapper.class, m -> m.insertIfAbsent(job.key(), now, now, instance));
            } catch (org.apache.ibatis.exceptions.PersistenceException e) {
                // another instance recorded it between the check and the insert: its record stands
                if (db.with(JobRunMapper.class, m -> m.selectOne(job.key())) == null) {
                    throw e;
                }
            }
            return null;
        }
        DueTimes.Decision decision = DueTimes.decide(cron, job.zone(), last, now, job.catchUp());
        if (decision instanceof DueTimes.Skip skip) {
            int changed = db.with(JobRunMapper.class, m -> m.advance(job.key(), skip.upTo(), "skipped", null, null,
                    "Due at " + skip.missed() + ", more than " + job.catchUp() + " ago", instance, now));
            if (changed > 0) {
                Counter.builder("quarry.job.skipped").description("Due times of scheduled jobs skipped, older than their catch-up window")
                        .tag("job", kindOf(job.key())).register(meters).increment();
                log.info("Scheduled job '{}' was due at {}, more than its catch-up window {} ago: skipped", job.key(),
                        skip.missed(), job.catchUp());
            }
            return null;
        }
        if (!(decision instanceof DueTimes.Run run) || !inFlight.add(job.key())) {
            return null;
        }
        try {
            return workers.submit(() -> {
                try {
                    attempt(job, run.due());
                } finally {
                    inFlight.remove(job.key());
                }
            });
        } catch (RejectedExecutionException e) {
            inFlight.remove(job.key());
            return null; // stopping
        }
    }

    private void attempt(Job job, Instant due) {
        Optional<SimpleLock> lease;
        try {
            lease = leases.lock(new LockConfiguration(ClockProvider.now(), job.key(), job.maxRun(), Duration.ZERO));
        } catch (RuntimeException e) {
            lastLeaseFailure = Problem.of(e);
            throw e;
        }
        if (lease.isEmpty()) {
            log.debug("Scheduled job '{}' is leased by another instance", job.key());
            return;
        }
        boolean release = true;
        try {
            JobRun current = db.with(JobRunMapper.class, m -> m.selectOne(job.key()));
            if (current != null && !due.isAfter(current.lastDue)) {
                return; // another instance ran it while this one waited
            }
            Instant started = clock.instant();
            long startedNanos = System.nanoTime();
            String error = null;
            try {
                job.task().accept(due.atZone(job.zone()));
            } catch (RuntimeException | Error e) {
                if (stopped) {
                    release = false;
                    log.info("Scheduled job '{}' (due {}) was stopped with its instance: left for another instance",
                            job.key(), due);
                    return;
                }
                error = e.toString();
                log.warn("Scheduled job '{}' (due {}) failed", job.key(), due, e);
            }
            if (stopped && Thread.currentThread().isInterrupted()) {
                release = false;
                return;
            }
            String failure = error;
            Timer.builder("quarry.job.duration").description("Runs of scheduled jobs (syncs, sends, refreshes), once across the cluster")
                    .tag("job", kindOf(job.key())).tag("outcome", failure == null ? "ok" : "failed")
                    .register(meters).record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
            Instant finished = clock.instant();
            db.with(JobRunMapper.class, m -> m.advance(job.key(), due, failure == null ? "ok" : "failed", started, finished,
                    failure, instance, finished));
        } finally {
            if (release) {
                lease.get().unlock();
            }
        }
    }

    private ExecutionTime cron(Job job) {
        try {
            return parsed.computeIfAbsent(job.quartzCron(), DueTimes::parse);
        } catch (IllegalArgumentException e) {
            if (invalidReported.add(job.key() + "\n" + job.quartzCron())) {
                log.warn("Scheduled job '{}' has an invalid schedule: {}", job.key(), e.getMessage());
            }
            return null;
        }
    }
}
