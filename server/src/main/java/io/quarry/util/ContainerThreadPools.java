package io.quarry.util;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * The servlet container's request thread pools, as far as a web application can see them: through the platform's
 * JMX server, where Tomcat always registers its connectors' pools ({@code Catalina:type=ThreadPool}) and Jetty its
 * {@code QueuedThreadPool} when its {@code jmx} module is on. Each pool found when Quarry starts becomes
 * {@code quarry_servlet_threads_busy}, {@code quarry_servlet_threads_current}, {@code quarry_servlet_threads_max} (and,
 * for Jetty, {@code quarry_servlet_queue_size}: jobs waiting for a thread) labelled {@code container} and
 * {@code pool}. A container that shows none (Jetty without JMX, as embedded in the tests) gets none of these series.
 */
final class ContainerThreadPools implements MeterBinder {
    private record Attributes(String container, String pattern, String busy, String current, String max, String queue) {
    }

    private static final Attributes[] KNOWN = {
            new Attributes("tomcat", "Catalina:type=ThreadPool,*", "currentThreadsBusy", "currentThreadCount", "maxThreads", null),
            new Attributes("tomcat", "Tomcat:type=ThreadPool,*", "currentThreadsBusy", "currentThreadCount", "maxThreads", null),
            new Attributes("jetty", "org.eclipse.jetty.util.thread:type=queuedthreadpool,*", "busyThreads", "threads", "maxThreads",
                    "queueSize")};

    @Override
    public void bindTo(MeterRegistry registry) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (Attributes known : KNOWN) {
            try {
                for (ObjectName name : server.queryNames(new ObjectName(known.pattern()), null)) {
                    String pool = name.getKeyProperty("name") != null ? ObjectName.unquote(quoted(name.getKeyProperty("name")))
                            : name.getKeyProperty("id") != null ? name.getKeyProperty("id") : name.getCanonicalName();
                    gauge(registry, server, name, known, "quarry.servlet.threads.busy", known.busy(), pool, "Threads serving requests");
                    gauge(registry, server, name, known, "quarry.servlet.threads.current", known.current(), pool, "Threads in the pool");
                    gauge(registry, server, name, known, "quarry.servlet.threads.max", known.max(), pool, "Most threads the pool may have");
                    if (known.queue() != null) {
                        gauge(registry, server, name, known, "quarry.servlet.queue.size", known.queue(), pool, "Jobs waiting for a thread");
                    }
                }
            } catch (MalformedObjectNameException | RuntimeException e) {
                // a container whose beans cannot be read shows no pool
            }
        }
    }

    private static String quoted(String value) {
        return value.startsWith("\"") ? value : "\"" + value.replace("\"", "\\\"") + "\"";
    }

    private static void gauge(MeterRegistry registry, MBeanServer server, ObjectName name, Attributes known, String meter,
                              String attribute, String pool, String description) {
        Gauge.builder(meter, () -> read(server, name, attribute)).description("Servlet container: " + description)
                .tag("container", known.container()).tag("pool", pool).register(registry);
    }

    private static double read(MBeanServer server, ObjectName name, String attribute) {
        try {
            return server.getAttribute(name, attribute) instanceof Number number ? number.doubleValue() : Double.NaN;
        } catch (Exception e) {
            return Double.NaN;
        }
    }
}
