package io.quarry.boot;

import io.quarry.appdb.AppDatabase;
import io.quarry.core.AppConfig;
import io.quarry.core.DataDirectory;
import io.quarry.core.Version;
import io.quarry.embed.InteractiveFrameOrigins;
import io.quarry.web.security.FrameAncestors;
import ch.qos.logback.classic.LoggerContext;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.io.File;
import java.nio.file.Path;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Boots Quarry when the container deploys the WAR and takes it down on undeploy. Start-up (migrations included) runs on
 * its own thread so the container answers at once: until it is done the start-up gate answers 503, as Metabase does.
 * An application database that cannot be opened (down, missing, unwritable) is tried again with a growing pause,
 * until it works or the WAR is undeployed; meanwhile every endpoint says what is wrong.
 */
public final class QuarryListener implements ServletContextListener {
    private static final Logger log = LoggerFactory.getLogger(QuarryListener.class);
    /** Pause after the first failed attempt; it doubles up to {@link #MAX_RETRY_PAUSE}. */
    static final Duration FIRST_RETRY_PAUSE = Duration.ofSeconds(1);
    static final Duration MAX_RETRY_PAUSE = Duration.ofSeconds(30);

    /**
     * A servlet context attribute holding the {@link Clock} Quarry runs on, for tests that drive time (scheduled sends);
     * a deployment sets no such attribute and runs on the system clock.
     */
    public static final String CLOCK_ATTRIBUTE = "io.quarry.clock";

    private Thread starter;
    private volatile boolean stopping;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        if (!SLF4JBridgeHandler.isInstalled()) {
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
        ServletContext context = event.getServletContext();
        Logging.configure(context);
        AppState state = new AppState();
        context.setAttribute(AppState.ATTRIBUTE, state);
        // who may frame the pages and answers (SecurityHeadersFilter): interactive embedding's origins, once started
        context.setAttribute(FrameAncestors.ATTRIBUTE, new InteractiveFrameOrigins(() -> state.ready() ? state.quarry().settings : null));
        Map<String, String> initParams = new HashMap<>();
        for (String name : Collections.list(context.getInitParameterNames())) {
            initParams.put(name, context.getInitParameter(name));
        }
        Function<String, String> source = withDefaultDataDirectory(AppConfig.layered(initParams), context);
        String where = context.getContextPath().isEmpty() ? "/" : context.getContextPath();
        String server = context.getServerInfo();
        Clock clock = context.getAttribute(CLOCK_ATTRIBUTE) instanceof Clock given ? given : Clock.systemUTC();
        starter = new Thread(() -> start(state, source, where, server, clock), "quarry-startup");
        starter.setDaemon(true);
        starter.start();
    }

    /** Without {@code MB_DATA_DIR}, this deployment's own default (see {@link DataDirectory#defaultFor}). */
    static Function<String, String> withDefaultDataDirectory(Function<String, String> source, ServletContext context) {
        String configured = source.apply(DataDirectory.KEY);
        if (configured != null && !configured.isEmpty()) {
            return source;
        }
        Object temp = context.getAttribute(ServletContext.TEMPDIR);
        String catalinaBase = System.getProperty("catalina.base");
        Path dataDir = DataDirectory.defaultFor(new DataDirectory.Deployment(Path.of("").toAbsolutePath(),
                context.getContextPath(), catalinaBase == null ? null : Path.of(catalinaBase),
                temp instanceof File file ? file.toPath() : null));
        String value = dataDir.toString();
        return key -> DataDirectory.KEY.equals(key) ? value : source.apply(key);
    }

    private void start(AppState state, Function<String, String> source, String contextPath, String server, Clock clock) {
        long began = System.nanoTime();
        AppConfig config;
        try {
            config = new AppConfig(source);
        } catch (RuntimeException e) {
            log.error("Quarry cannot start: {}", StartupProblem.describe(null, e), e);
            state.failed(e, StartupProblem.describe(null, e), false);
            return;
        }
        log.info("Starting Quarry {} in {} at context {}: application database {}, data directory {}",
                Version.quarryVersion(), server, contextPath, appDatabaseLabel(config), config.dataDir);
        AppDatabase appDatabase = openWithRetries(state, config);
        if (appDatabase == null) {
            return;
        }
        try {
            Quarry quarry = new Quarry(config, clock, state, appDatabase);
            quarry.start();
            state.ready(quarry);
            log.info("Quarry is ready ({} ms)", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
        } catch (Throwable t) {
            log.error("Quarry failed to start", t);
            appDatabase.close();
            state.failed(t, "Quarry failed to start: " + StartupProblem.rootMessage(t) + ". See the log for details.", false);
        }
    }

    /** Opens (and migrates) the application database, trying again until it works; null once undeployed. */
    private AppDatabase openWithRetries(AppState state, AppConfig config) {
        Duration pause = FIRST_RETRY_PAUSE;
        for (int attempt = 1; !stopping; attempt++) {
            try {
                return Quarry.openAppDatabase(config, state);
            } catch (RuntimeException e) {
                String problem = StartupProblem.describe(config, e);
                state.failed(e, problem + " Quarry tries again every " + pause.toSeconds() + " s (attempt " + attempt
                        + "); no restart is needed.", true);
                if (attempt == 1) {
                    log.error("{} Trying again in {} s.", problem, pause.toSeconds(), e);
                } else {
                    log.warn("{} Trying again in {} s (attempt {}).", problem, pause.toSeconds(), attempt);
                }
            }
            try {
                Thread.sleep(pause.toMillis());
            } catch (InterruptedException e) {
                return null;
            }
            pause = pause.multipliedBy(2).compareTo(MAX_RETRY_PAUSE) > 0 ? MAX_RETRY_PAUSE : pause.multipliedBy(2);
        }
        return null;
    }

    /** The kind and place of the application database, never its password. */
    static String appDatabaseLabel(AppConfig config) {
        return switch (config.dbType) {
            case H2 -> "H2 file " + (config.h2File() == null ? config.dbUrl : config.h2File() + ".mv.db");
            case POSTGRES -> "PostgreSQL " + config.dbUrl.replaceAll("(?i)password=[^&;]*", "password=****")
                    + (config.dbUser == null ? "" : " as " + config.dbUser);
            case JNDI -> "JNDI DataSource " + config.dbJndiName;
        };
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        AppState state = AppState.of(event.getServletContext());
        stopping = true;
        try {
            if (starter != null) {
                if (state == null || !state.ready()) {
                    starter.interrupt();
                }
                starter.join(TimeUnit.SECONDS.toMillis(60));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (state != null && state.quarry() != null) {
            try {
                state.quarry().close();
            } catch (RuntimeException e) {
                log.warn("Shutdown was not clean", e);
            }
        }
        log.info("Quarry stopped");
        if (ownsClassLoader()) {
            deregisterDrivers();
            SLF4JBridgeHandler.uninstall();
            // logback's own servlet initializer is disabled (web.xml) so that these last lines are still logged.
            if (LoggerFactory.getILoggerFactory() instanceof LoggerContext logback) {
                logback.stop();
            }
        }
    }

    /**
     * Deployed as a WAR, Quarry has a class loader of its own, and what it loaded (JDBC drivers, logging) must go with
     * it. Run unisolated (embedded, tests) those belong to the whole JVM and stay.
     */
    private static boolean ownsClassLoader() {
        ClassLoader own = QuarryListener.class.getClassLoader();
        return own != ClassLoader.getSystemClassLoader() && own != ClassLoader.getPlatformClassLoader();
    }

    /** Drivers this webapp's class loader registered would pin it after undeploy. */
    private static void deregisterDrivers() {
        ClassLoader own = QuarryListener.class.getClassLoader();
        for (Driver driver : Collections.list(DriverManager.getDrivers())) {
            if (driver.getClass().getClassLoader() == own) {
                try {
                    DriverManager.deregisterDriver(driver);
                } catch (SQLException e) {
                    log.warn("Could not deregister {}", driver.getClass().getName());
                }
            }
        }
    }
}
