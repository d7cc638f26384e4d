package io.quarry.boot;

import io.quarry.core.AppConfig;
import ch.qos.logback.classic.LoggerContext;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Boots Quarry when the container deploys the WAR and takes it down on undeploy. Start-up (migrations included) runs on
 * its own thread so the container answers at once: until it is done the start-up gate answers 503, as Metabase does.
 */
public final class QuarryListener implements ServletContextListener {
    private static final Logger log = LoggerFactory.getLogger(QuarryListener.class);

    private Thread starter;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        if (!SLF4JBridgeHandler.isInstalled()) {
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
        ServletContext context = event.getServletContext();
        AppState state = new AppState();
        context.setAttribute(AppState.ATTRIBUTE, state);
        Map<String, String> initParams = new HashMap<>();
        for (String name : Collections.list(context.getInitParameterNames())) {
            initParams.put(name, context.getInitParameter(name));
        }
        starter = new Thread(() -> start(state, initParams), "quarry-startup");
        starter.setDaemon(true);
        starter.start();
    }

    private static void start(AppState state, Map<String, String> initParams) {
        long began = System.nanoTime();
        try {
            AppConfig config = new AppConfig(AppConfig.layered(initParams));
            log.info("Starting Quarry with a {} application database", config.dbType);
            Quarry quarry = new Quarry(config, Clock.systemUTC(), state);
            quarry.start();
            state.ready(quarry);
            log.info("Quarry is ready ({} ms)", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
        } catch (Throwable t) {
            log.error("Quarry failed to start", t);
            state.failed(t);
        }
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        AppState state = AppState.of(event.getServletContext());
        try {
            if (starter != null) {
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
