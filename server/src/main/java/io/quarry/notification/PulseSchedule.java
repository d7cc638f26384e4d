package io.quarry.notification;

import io.quarry.schedule.ClusterJobs;
import io.quarry.setting.Settings;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * When subscriptions and alerts are sent: as Metabase's {@code send-pulses} triggers, one job per pulse per distinct
 * schedule, keyed {@code send-pulse.<pulse-id>.<cron with spaces as _>}, holding the channels on that schedule, in the
 * {@code report-timezone} (else the JVM's zone). The jobs are read from the application database at each poll, so a
 * change to a pulse applies at its next due time without any trigger bookkeeping. {@link ClusterJobs} runs each due
 * time once across the instances, and one missed while every instance was down within {@link #CATCH_UP}.
 */
public final class PulseSchedule implements ClusterJobs.JobSource {
    /** A send missed while every instance was down goes out when one comes back, if it is no older than this. */
    static final Duration CATCH_UP = Duration.ofHours(6);
    /** The lease on a send: another instance takes over a send whose instance died after this long. */
    static final Duration MAX_RUN = Duration.ofMinutes(30);

    private final PulseService pulses;
    private final Delivery delivery;
    private final Settings settings;
    private final Duration maxRun;

    public PulseSchedule(PulseService pulses, Delivery delivery, Settings settings, Duration maxRun) {
        this.pulses = pulses;
        this.delivery = delivery;
        this.settings = settings;
        this.maxRun = maxRun;
    }

    /** One pulse's channels that share a schedule. */
    public record Due(String key, String cron, long pulseId, Set<Long> channelIds) {
    }

    public List<Due> due() {
        Map<String, Due> byKey = new LinkedHashMap<>();
        for (PulseChannel ch : pulses.schedulableChannels()) {
            String cron = Schedules.cron(Schedules.of(ch));
            String key = "send-pulse." + ch.pulseId + "." + cron.replace(' ', '_');
            byKey.computeIfAbsent(key, k -> new Due(k, cron, ch.pulseId, new LinkedHashSet<>())).channelIds().add(ch.id);
        }
        return new ArrayList<>(byKey.values());
    }

    @Override
    public java.util.Collection<ClusterJobs.Job> jobs() {
        ZoneId zone = zone();
        List<ClusterJobs.Job> jobs = new ArrayList<>();
        for (Due due : due()) {
            jobs.add(new ClusterJobs.Job(due.key(), due.cron(), zone, CATCH_UP, maxRun, at -> send(due)));
        }
        return jobs;
    }

    /** Sends a due pulse's channels (those still enabled). */
    public void send(Due due) {
        delivery.sendScheduled(due.pulseId(), due.channelIds());
    }

    /** The report time zone setting, else the JVM's. */
    public ZoneId zone() {
        String zone = settings.string("report-timezone");
        if (zone != null && !zone.isBlank()) {
            try {
                return ZoneId.of(zone);
            } catch (DateTimeException e) {
                return ZoneId.systemDefault();
            }
        }
        return ZoneId.systemDefault();
    }
}
