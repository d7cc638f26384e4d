package io.quarry.testing;

import io.quarry.boot.AppState;
import io.quarry.boot.Quarry;
import io.quarry.boot.QuarryListener;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Quarry in a real servlet container: embedded Jetty 12 deploying {@code src/main/webapp} (the real web.xml, listener,
 * start-up gate and Jersey servlet) on a random port, configured through context init-params like a deployment
 * descriptor would.
 */
public final class TestServer implements AutoCloseable {
    private final Server server;
    private final WebAppContext webapp;
    public final URI base;
    public final Map<String, String> config;

    private TestServer(Server server, WebAppContext webapp, URI base, Map<String, String> config) {
        this.server = server;
        this.webapp = webapp;
        this.base = base;
        this.config = config;
    }

    /** A server on a fresh application database, plus any extra configuration. */
    public static TestServer start(Map<String, String> extra) {
        return startWith(freshConfig(extra));
    }

    private static Map<String, String> freshConfig(Map<String, String> extra) {
        Map<String, String> config = new LinkedHashMap<>(TestAppDb.fresh());
        config.put("MB_DISABLE_SESSION_THROTTLE", "false");
        config.putAll(extra);
        return config;
    }

    public static TestServer start() {
        return start(Map.of());
    }

    /**
     * As {@link #start(Map)}, on a clock that runs at the real pace from five past the current hour: for a test that
     * stores hourly (or daily, weekly) subscriptions with recipients, which a real clock passing the hour would send in
     * the middle of the test's own counting of messages (it then has 55 minutes before its clock reaches the next hour).
     */
    public static TestServer startAwayFromTheHour(Map<String, String> extra) {
        Instant now = Instant.now();
        Instant fivePast = now.truncatedTo(ChronoUnit.HOURS).plus(Duration.ofMinutes(5));
        Clock clock = Clock.offset(Clock.systemUTC(), Duration.between(now, fivePast));
        return startWith(freshConfig(extra), webapp -> webapp.setAttribute(QuarryListener.CLOCK_ATTRIBUTE, clock));
    }

    /** A server with exactly this configuration (for example a second instance on the same database). */
    public static TestServer startWith(Map<String, String> config) {
        return startWith(config, webapp -> { });
    }

    /** As {@link #startWith(Map)}, letting the test adjust the webapp (JNDI resources, descriptors) before start. */
    public static TestServer startWith(Map<String, String> config, java.util.function.Consumer<WebAppContext> customize) {
        WebAppContext webapp = new WebAppContext();
        webapp.setContextPath("/");
        webapp.setBaseResourceAsPath(Sources.server("src/main/webapp"));
        webapp.setParentLoaderPriority(true);
        customize.accept(webapp);
        return deploy(webapp, config);
    }

    /**
     * Deploys a built WAR as a container would: its own class loader (the WAR's jars, not the test classpath), at
     * the given context path.
     */
    public static TestServer deployWar(Path war, String contextPath, Map<String, String> config) {
        WebAppContext webapp = new WebAppContext();
        webapp.setContextPath(contextPath);
        webapp.setWar(war.toAbsolutePath().toString());
        webapp.setParentLoaderPriority(false);
        webapp.setExtractWAR(true);
        return deploy(webapp, config);
    }

    /** Starts the container without waiting for Quarry to become healthy (to observe start-up itself). */
    public static TestServer startUnchecked(Map<String, String> config) {
        WebAppContext webapp = new WebAppContext();
        webapp.setContextPath("/");
        webapp.setBaseResourceAsPath(Sources.server("src/main/webapp"));
        webapp.setParentLoaderPriority(true);
        return deploy(webapp, config, false);
    }

    private static TestServer deploy(WebAppContext webapp, Map<String, String> config) {
        return deploy(webapp, config, true);
    }

    private static TestServer deploy(WebAppContext webapp, Map<String, String> config, boolean awaitHealthy) {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        webapp.setThrowUnavailableOnStartupException(true);
        config.forEach(webapp::setInitParameter);
        server.setHandler(webapp);
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("Jetty did not start", e);
        }
        String path = webapp.getContextPath().endsWith("/") ? webapp.getContextPath() : webapp.getContextPath() + "/";
        URI base = URI.create("http://127.0.0.1:" + connector.getLocalPort() + path);
        TestServer testServer = new TestServer(server, webapp, base, config);
        RUNNING.add(testServer);
        if (awaitHealthy) {
            testServer.awaitHealthy(Duration.ofSeconds(90));
        }
        return testServer;
    }

    /** The servers this test JVM runs now (started and not closed). */
    public static java.util.List<TestServer> running() {
        return java.util.List.copyOf(RUNNING);
    }

    private static final java.util.Set<TestServer> RUNNING = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public Api api() {
        return new Api(base);
    }

    public void awaitHealthy(Duration timeout) {
        Api api = api();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (api.call("GET", "api/health", null).status() == 200) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("Quarry did not become healthy within " + timeout);
    }

    public WebAppContext webapp() {
        return webapp;
    }

    /**
     * The running instance's composition root, for what a test cannot do over HTTP yet (arrange users while no user
     * endpoint exists, move stored timestamps into the past). The webapp shares the test's class loader.
     */
    public Quarry quarry() {
        Quarry quarry = AppState.of(webapp.getServletContext()).quarry();
        if (quarry == null) {
            throw new IllegalStateException("Quarry is not running");
        }
        return quarry;
    }

    @Override
    public void close() {
        RUNNING.remove(this);
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
