package io.quarry.util;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quarry.core.ConnectionPools;
import io.quarry.sync.SyncService;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * This instance's metrics, in Prometheus's text format ({@link #scrape()}): one Micrometer registry per
 * {@code Quarry} (several may share a JVM, as in tests), which the modules record into as they work (queries, the
 * result cache, scheduled jobs, e-mail, notification sends) and which reads the rest when scraped: the JVM (memory, GC,
 * threads, classes, CPU, uptime, file descriptors), the shared scheduler's executor, the servlet container's thread
 * pools where it shows them ({@link ContainerThreadPools}), and every connection pool under Metabase's {@code c3p0_*}
 * names with a {@code database} label ({@code app-db}, {@code db-<id>}, {@code db-<id>-write}).
 * docs/operations.md lists every series.
 */
public final class OpsMetrics implements AutoCloseable {
    /** Prometheus's text exposition format, version 0.0.4, as Metabase's listener answers. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** Pool statistic (PoolStats's key) → gauge, with its description; Metabase's names first, then dbcp2's own. */
    private static final Map<String, String[]> POOL_GAUGES = new LinkedHashMap<>();

    static {
        POOL_GAUGES.put("maxPoolSize", new String[] {"c3p0_max_pool_size", "Max pool size"});
        POOL_GAUGES.put("minPoolSize", new String[] {"c3p0_min_pool_size", "Minimum pool size"});
        POOL_GAUGES.put("numConnections", new String[] {"c3p0_num_connections", "Number of connections"});
        POOL_GAUGES.put("numIdleConnections", new String[] {"c3p0_num_idle_connections", "Number of idle connections"});
        POOL_GAUGES.put("numBusyConnections", new String[] {"c3p0_num_busy_connections", "Number of busy connections"});
        POOL_GAUGES.put("numThreadsAwaitingCheckoutDefaultUser",
                new String[] {"c3p0_num_threads_awaiting_checkout_default_user", "Number of threads awaiting checkout"});
        POOL_GAUGES.put("borrowWaitMaxMillis", new String[] {"quarry_pool_borrow_wait_max_milliseconds",
                "Longest wait for a connection since the pool opened"});
        POOL_GAUGES.put("borrowWaitMeanMillis", new String[] {"quarry_pool_borrow_wait_mean_milliseconds",
                "Mean wait for a connection over the last 100 borrows"});
        POOL_GAUGES.put("borrowedCount", new String[] {"quarry_pool_borrowed_connections",
                "Connections borrowed from the pool since it opened"});
    }

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ConnectionPools pools;
    private final Map<String, MultiGauge> poolGauges = new LinkedHashMap<>();
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final ContainerThreadPools containerPools = new ContainerThreadPools();
    private final boolean apiEnabled;

    /** {@code apiEnabled}: whether {@code GET /api/metrics} answers ({@code MB_PROMETHEUS_API_ENABLED}; off by default). */
    public OpsMetrics(ConnectionPools pools, boolean apiEnabled) {
        this.pools = pools;
        this.apiEnabled = apiEnabled;
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new JvmInfoMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        containerPools.bindTo(registry);
        POOL_GAUGES.forEach((key, names) -> poolGauges.put(key, MultiGauge.builder(names[0])
                .description("Connection pool: " + names[1]).register(registry)));
    }

    /** Whether {@code GET /api/metrics} answers (for administrators); the separate listener does not depend on it. */
    public boolean apiEnabled() {
        return apiEnabled;
    }

    /** The registry the modules record into. */
    public MeterRegistry registry() {
        return registry;
    }

    /** Publishes an executor's threads and queue ({@code executor_*{name=...}}). */
    public void monitor(ExecutorService executor, String name) {
        new ExecutorServiceMetrics(executor, name, Tags.empty()).bindTo(registry);
    }

    /**
     * Records each sync run's and each step's duration: {@code quarry_sync_duration_seconds{database_id, outcome}} and
     * {@code quarry_sync_step_duration_seconds{database_id, step, outcome}} (outcome {@code ok} or {@code failed}).
     */
    public void observe(SyncService sync) {
        sync.listen(new SyncService.Listener() {
            @Override
            public void runFinished(long databaseId, SyncService.Run run) {
                String database = Long.toString(databaseId);
                Timer.builder("quarry.sync.duration").description("Sync runs of connected databases")
                        .tag("database_id", database).tag("outcome", run.succeeded() ? "ok" : "failed").register(registry)
                        .record(java.time.Duration.between(run.start(), run.end()).toNanos(), TimeUnit.NANOSECONDS);
                for (SyncService.StepResult step : run.results()) {
                    Timer.builder("quarry.sync.step.duration").description("Steps of sync runs (sync-metadata, analyze, update-field-values)")
                            .tag("database_id", database).tag("step", step.name()).tag("outcome", step.error() == null ? "ok" : "failed")
                            .register(registry).record(java.time.Duration.between(step.start(), step.end()).toNanos(), TimeUnit.NANOSECONDS);
                }
            }
        });
    }

    /** Every series, read now, in Prometheus's text format. */
    public String scrape() {
        refreshPools();
        return registry.scrape();
    }

    /** The pools come and go with their databases: their gauges are set afresh from the registry of pools at each scrape. */
    private synchronized void refreshPools() {
        Map<String, List<MultiGauge.Row<?>>> rows = new LinkedHashMap<>();
        POOL_GAUGES.keySet().forEach(key -> rows.put(key, new ArrayList<>()));
        pools.describe().forEach((name, stats) -> {
            if (stats instanceof Map<?, ?> values) {
                for (String key : POOL_GAUGES.keySet()) {
                    if (values.get(key) instanceof Number number) {
                        rows.get(key).add(MultiGauge.Row.of(Tags.of("database", name), number));
                    }
                }
            }
        });
        rows.forEach((key, list) -> poolGauges.get(key).register(list, true));
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
