package io.quarry.schedule;

import io.quarry.testing.TargetDatabases;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.boot.Quarry;
import io.quarry.core.AppConfig;
import io.quarry.testing.MutableClock;
import io.quarry.testing.TestAppDb;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two real Quarry instances on one application database (PostgreSQL in the postgres pass; H2 shares one file database
 * within a JVM in the h2 pass), sharing a clock the test moves: a due job runs once across them, a dead lease holder's
 * run is taken over after maxRun, and a due time missed while no instance ran is caught up only within its window.
 */
class ClusterJobsIT {
    private static final String HOURLY = "0 0 * * * ?";

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T10:30:00Z"));
    private final Map<String, String> config = TestAppDb.fresh();
    private final List<Quarry> instances = new ArrayList<>();

    @AfterEach
    void close() {
        instances.forEach(Quarry::close);
    }

    private Quarry instance() {
        Quarry quarry = new Quarry(new AppConfig(config::get), clock, fraction -> { });
        instances.add(quarry);
        return quarry;
    }

    private static ClusterJobs.Job hourly(String key, Duration catchUp, Duration maxRun, Consumer<ZonedDateTime> task) {
        return new ClusterJobs.Job(key, HOURLY, ZoneOffset.UTC, catchUp, maxRun, task);
    }

    @Test
    void aDueJobRunsExactlyOnceAcrossTwoInstances() throws Exception {
        Quarry a = instance();
        Quarry b = instance();
        List<String> runs = new CopyOnWriteArrayList<>();
        for (Quarry quarry : List.of(a, b)) {
            String name = quarry == a ? "a" : "b";
            quarry.clusterJobs.addSource(() -> List.of(hourly("it:once", Duration.ofHours(1), Duration.ofMinutes(1), due -> {
                runs.add(name + "@" + due.toInstant());
                sleep(300); // both instances are polling while this runs
            })));
        }
        a.clusterJobs.pollNow();
        b.clusterJobs.pollNow();
        assertEquals(List.of(), runs, "first sight runs nothing");

        clock.advance(Duration.ofMinutes(30).plusSeconds(5)); // 11:00:05
        pollTogether(a, b);
        assertEquals(1, runs.size(), "one run across both instances: " + runs);
        assertTrue(runs.get(0).endsWith("@2026-11-26T11:00:00Z"), runs.toString());
        pollTogether(a, b);
        a.clusterJobs.pollNow();
        assertEquals(1, runs.size(), "the recorded due time does not run again: " + runs);
        assertEquals(Instant.parse("2026-11-26T11:00:00Z"), b.clusterJobs.lastDue("it:once").orElseThrow());

        clock.advance(Duration.ofHours(1)); // 12:00:05
        pollTogether(b, a);
        assertEquals(2, runs.size(), runs.toString());
        assertTrue(runs.get(1).endsWith("@2026-11-26T12:00:00Z"), runs.toString());
    }

    @Test
    void whenTheLeaseHolderDiesMidRunTheOtherInstanceTakesOverAfterMaxRun() throws Exception {
        Quarry a = instance();
        Quarry b = instance();
        Duration maxRun = Duration.ofSeconds(2);
        CountDownLatch aStarted = new CountDownLatch(1);
        List<String> bRuns = new CopyOnWriteArrayList<>();
        a.clusterJobs.addSource(() -> List.of(hourly("it:takeover", Duration.ofHours(1), maxRun, due -> {
            aStarted.countDown();
            sleep(60_000); // hangs until its instance goes away
        })));
        b.clusterJobs.addSource(() -> List.of(hourly("it:takeover", Duration.ofHours(1), maxRun,
                due -> bRuns.add(due.toInstant().toString()))));
        a.clusterJobs.pollNow();
        b.clusterJobs.pollNow();

        clock.advance(Duration.ofMinutes(30).plusSeconds(5)); // 11:00:05
        Thread aPolling = new Thread(a.clusterJobs::pollNow);
        aPolling.start();
        assertTrue(aStarted.await(10, TimeUnit.SECONDS), "instance a took the lease and started");
        long leaseTaken = System.nanoTime();
        b.clusterJobs.pollNow();
        assertEquals(List.of(), bRuns, "b does not run while a holds the lease");

        a.close(); // a dies mid-run: its run is neither recorded nor released
        instances.remove(a);
        aPolling.join(10_000);
        b.clusterJobs.pollNow();
        if (System.nanoTime() - leaseTaken < maxRun.toNanos()) {
            assertEquals(List.of(), bRuns, "the dead holder's lease stands until maxRun");
        }
        assertEquals(Instant.parse("2026-11-26T10:30:00Z"), b.clusterJobs.lastDue("it:takeover").orElseThrow(),
                "nothing recorded by the dead run");

        long waitNanos = maxRun.toNanos() - (System.nanoTime() - leaseTaken) + 200_000_000L;
        if (waitNanos > 0) {
            Thread.sleep(waitNanos / 1_000_000);
        }
        b.clusterJobs.pollNow();
        assertEquals(List.of("2026-11-26T11:00:00Z"), bRuns, "b took over the due time after the lease expired");
        assertEquals(Instant.parse("2026-11-26T11:00:00Z"), b.clusterJobs.lastDue("it:takeover").orElseThrow());
        assertEquals(1, b.db.with(JobRunMapper.class, m -> m.selectOne("it:takeover")).lastInstance.equals(b.clusterJobs.instance()) ? 1 : 0);
        b.clusterJobs.pollNow();
        assertEquals(1, bRuns.size());
    }

    @Test
    void aDueTimeMissedWhileNoInstanceRanIsCaughtUpOnlyWithinItsWindow() {
        List<String> runs = new CopyOnWriteArrayList<>();
        Consumer<Quarry> jobs = quarry -> quarry.clusterJobs.addSource(() -> List.of(
                hourly("it:wide", Duration.ofHours(1), Duration.ofMinutes(1), due -> runs.add("wide@" + due.toInstant())),
                hourly("it:narrow", Duration.ofMinutes(10), Duration.ofMinutes(1), due -> runs.add("narrow@" + due.toInstant())),
                hourly("it:failing", Duration.ofHours(1), Duration.ofMinutes(1), due -> {
                    runs.add("failing@" + due.toInstant());
                    throw new IllegalStateException("boom");
                })));
        Quarry first = instance();
        jobs.accept(first);
        first.clusterJobs.pollNow(); // 10:30: seen
        first.close();
        instances.remove(first);

        clock.advance(Duration.ofMinutes(50)); // 11:20, nobody ran at 11:00
        Quarry next = instance();
        jobs.accept(next);
        next.clusterJobs.pollNow();
        assertEquals(List.of("failing@2026-11-26T11:00:00Z", "wide@2026-11-26T11:00:00Z"), runs.stream().sorted().toList(),
                "11:00 is 20 minutes old: within the wide window, outside the narrow one");
        JobRun narrow = next.db.with(JobRunMapper.class, m -> m.selectOne("it:narrow"));
        assertEquals("skipped", narrow.lastStatus);
        assertEquals(Instant.parse("2026-11-26T11:10:00Z"), narrow.lastDue);
        JobRun failing = next.db.with(JobRunMapper.class, m -> m.selectOne("it:failing"));
        assertEquals("failed", failing.lastStatus);
        assertEquals(Instant.parse("2026-11-26T11:00:00Z"), failing.lastDue, "a failed run is recorded: no retry loop");
        assertTrue(failing.lastError.contains("boom"), failing.lastError);

        runs.clear();
        next.clusterJobs.pollNow();
        assertEquals(List.of(), runs);
        clock.advance(Duration.ofMinutes(40).plusSeconds(1)); // 12:00:01
        next.clusterJobs.pollNow();
        assertEquals(List.of("failing@2026-11-26T12:00:00Z", "narrow@2026-11-26T12:00:00Z", "wide@2026-11-26T12:00:00Z"),
                runs.stream().sorted().toList());
    }

    @Test
    void aScheduledDatabaseSyncRunsOnceAcrossTwoInstances() throws Exception {
        Quarry a = instance();
        Quarry b = instance();
        io.quarry.warehouse.Database database = new io.quarry.warehouse.Database();
        database.engine = "h2";
        database.name = "Scheduled once";
        database.details = Map.of("db", "file:" + io.quarry.testing.TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD);
        database.metadataSyncSchedule = "0 0 * * * ? *";
        // not the random daily hour a new database gets: at 11 it fired with the metadata sync below (a second run)
        database.cacheFieldValuesSchedule = "0 30 4 * * ? *";
        long id = a.databases.create(database).id;
        for (Quarry quarry : List.of(a, b)) {
            quarry.syncSchedules.reconcile(); // what each instance's minutely reconciliation does
            quarry.clusterJobs.pollNow(); // first sight
        }
        ZonedDateTime next = a.syncSchedules.next(id, io.quarry.sync.SyncSchedules.Kind.METADATA).orElseThrow();
        clock.advance(Duration.between(clock.instant(), next.toInstant()).plusSeconds(5));
        pollTogether(a, b);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((a.sync.isSyncing(id) || b.sync.isSyncing(id)) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(1, a.sync.runCount(id) + b.sync.runCount(id), "one scheduled sync across both instances");
        pollTogether(b, a);
        assertEquals(1, a.sync.runCount(id) + b.sync.runCount(id), "and not again for the same fire time");
        assertEquals(next.toInstant(), a.clusterJobs.lastDue("sync:metadata:" + id).orElseThrow());
    }

    private static void pollTogether(Quarry a, Quarry b) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(2);
        Thread other = new Thread(() -> {
            await(barrier);
            b.clusterJobs.pollNow();
        });
        other.start();
        await(barrier);
        a.clusterJobs.pollNow();
        other.join(30_000);
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
