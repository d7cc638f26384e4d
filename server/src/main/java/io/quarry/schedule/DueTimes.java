package io.quarry.schedule;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * When a job is due, from its Quartz cron, its zone, the last due time handled and now: the pure part of
 * {@link ClusterJobs}, tested on its own.
 */
final class DueTimes {
    private static final CronParser QUARTZ = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.QUARTZ));
    /** A bound on the fire times walked in one decision (a every-second cron over a long catch-up window). */
    private static final int MAX_STEPS = 100_000;

    /** What a poll does about one job. */
    sealed interface Decision {
    }

    /** Nothing is due. */
    record Idle() implements Decision {
    }

    /** Run for this due time (the latest fire time ≤ now, within the catch-up window). */
    record Run(Instant due) implements Decision {
    }

    /**
     * Fire times were missed by more than the catch-up window and none is within it: record {@code upTo} as handled
     * without running. {@code missed} is the first fire time skipped, for the log.
     */
    record Skip(Instant upTo, Instant missed) implements Decision {
    }

    private DueTimes() {
    }

    /** Parses a Quartz cron string; {@link IllegalArgumentException} when it is not one. */
    static ExecutionTime parse(String quartzCron) {
        if (quartzCron == null || quartzCron.isBlank()) {
            throw new IllegalArgumentException("A cron expression is required.");
        }
        try {
            return ExecutionTime.forCron(QUARTZ.parse(quartzCron.trim()));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Invalid Quartz cron expression '" + quartzCron + "': " + e.getMessage(), e);
        }
    }

    /**
     * The decision for a job whose last handled due time is {@code lastDue}: the latest fire time in
     * {@code (lastDue, now]} runs when it is no older than {@code catchUp}; when every fire time in that range is
     * older, the range up to {@code now - catchUp} is skipped.
     */
    static Decision decide(ExecutionTime cron, ZoneId zone, Instant lastDue, Instant now, Duration catchUp) {
        if (!now.isAfter(lastDue)) {
            return new Idle();
        }
        Instant windowStart = now.minus(catchUp);
        // Cron times are whole seconds, and cron-utils keeps a fraction of its argument in what it returns: walk from
        // whole seconds. The next time strictly after lastDue's second is the first after lastDue.
        Instant afterLast = lastDue.truncatedTo(ChronoUnit.SECONDS);
        Optional<ZonedDateTime> first = cron.nextExecution(afterLast.atZone(zone));
        if (first.isEmpty() || first.get().toInstant().isAfter(now)) {
            return new Idle();
        }
        // fire times before the window's start are too old to run: walk from the second before it
        Instant beforeWindow = windowStart.truncatedTo(ChronoUnit.SECONDS).equals(windowStart)
                ? windowStart.minusSeconds(1) : windowStart.truncatedTo(ChronoUnit.SECONDS);
        Instant from = afterLast.isBefore(beforeWindow) ? beforeWindow : afterLast;
        Instant latest = null;
        Optional<ZonedDateTime> next = cron.nextExecution(from.atZone(zone));
        for (int steps = 0; next.isPresent() && !next.get().toInstant().isAfter(now) && steps < MAX_STEPS; steps++) {
            latest = next.get().toInstant();
            next = cron.nextExecution(next.get());
        }
        if (latest != null) {
            return new Run(latest);
        }
        return new Skip(windowStart, first.get().toInstant());
    }

    /** The first fire time strictly after {@code after}. */
    static Optional<ZonedDateTime> nextAfter(ExecutionTime cron, ZonedDateTime after) {
        return cron.nextExecution(after);
    }
}
