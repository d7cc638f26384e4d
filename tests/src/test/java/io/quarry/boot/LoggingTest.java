package io.quarry.boot;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.Appender;
import jakarta.servlet.ServletContext;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** {@code MB_LOG_FILE} adds a rolling file beside standard output. */
class LoggingTest {
    @Test
    void logFileSettingAddsARollingFile(@TempDir Path temp) throws Exception {
        Path file = temp.resolve("logs/quarry.log");
        ServletContext context = servletContext(Map.of(Logging.FILE_KEY, file.toString()));
        LoggerContext logback = (LoggerContext) LoggerFactory.getILoggerFactory();
        ch.qos.logback.classic.Logger root = logback.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        try {
            Logging.configure(context);
            LoggerFactory.getLogger("io.quarry.test").info("a line for the file");
            String written = Files.readString(file);
            assertTrue(written.contains("INFO  [") && written.contains("a line for the file"), written);
        } finally {
            Appender<?> appender = root.getAppender("QUARRY_FILE");
            if (appender != null) {
                appender.stop();
                root.detachAppender("QUARRY_FILE");
            }
        }
    }

    /**
     * The sample configuration of docs/deploying.md ({@code docs/logback-example.xml}) loads as it is and writes its
     * file where {@code QUARRY_LOG_FILE} says, keeping the guarded statements quiet and the log buffer fed.
     */
    @Test
    void theDocumentedLogbackFileWritesItsFile(@TempDir Path temp) throws Exception {
        Path file = temp.resolve("quarry.log");
        LoggerContext own = new LoggerContext();
        own.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        own.start();
        own.putProperty("QUARRY_LOG_FILE", file.toString());
        ch.qos.logback.classic.joran.JoranConfigurator configurator = new ch.qos.logback.classic.joran.JoranConfigurator();
        configurator.setContext(own);
        configurator.doConfigure(io.quarry.testing.Sources.repo("docs/logback-example.xml").toFile());
        try {
            assertTrue(own.getStatusManager().getCopyOfStatusList().stream().noneMatch(s -> s.getLevel() >= ch.qos.logback.core.status.Status.WARN),
                    own.getStatusManager().getCopyOfStatusList().toString());
            own.getLogger("io.quarry.sync.SyncService").info("a line for the sample file");
            own.getLogger("io.quarry.warehouse.WarehouseMapper.insertDatabase").debug("details that must not be written");
            String written = Files.readString(file);
            assertTrue(written.contains("INFO  [") && written.contains("a line for the sample file"), written);
            assertTrue(!written.contains("must not be written"), written);
            assertTrue(own.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("QUARRY_LOG_BUFFER") != null);
        } finally {
            own.stop();
        }
    }

    private static ServletContext servletContext(Map<String, String> initParams) {
        return (ServletContext) Proxy.newProxyInstance(getClassLoader(), new Class<?>[]{ServletContext.class}, (proxy, method, args) -> {
            switch (method.getName()) {
                case "getInitParameterNames":
                    return Collections.enumeration(initParams.keySet());
                case "getInitParameter":
                    return initParams.get((String) args[0]);
                case "getContextPath":
                    return "";
                default:
                    return null;
            }
        });
    }

    private static ClassLoader getClassLoader() {
        return LoggingTest.class.getClassLoader();
    }
}
