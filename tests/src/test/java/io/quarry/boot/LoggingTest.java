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
