package io.quarry.boot;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import io.quarry.core.AppConfig;
import jakarta.servlet.ServletContext;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Where Quarry's log goes besides standard output (logback.xml): a rolling file when {@code MB_LOG_FILE} names one,
 * and the container's own log (Tomcat's {@code localhost.<date>.log}, Jetty's server log) for Quarry's errors, so that
 * a 500's "logged as <id>" can be found where administrators look. A logback configuration of the administrator's
 * own is taken with {@code -Dlogback.configurationFile=/etc/quarry/logback.xml} (logback reads it itself).
 */
final class Logging {
    static final String FILE_KEY = "MB_LOG_FILE";
    private static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n";

    private Logging() {
    }

    static void configure(ServletContext context) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext logback)) {
            return;
        }
        Map<String, String> initParams = new HashMap<>();
        for (String name : Collections.list(context.getInitParameterNames())) {
            initParams.put(name, context.getInitParameter(name));
        }
        String file = new AppConfigValue(AppConfig.layered(initParams)).get(FILE_KEY);
        ch.qos.logback.classic.Logger root = logback.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        if (file != null && root.getAppender("QUARRY_FILE") == null) {
            root.addAppender(rollingFile(logback, file));
        }
        // Only when the WAR has a logging system of its own: embedded in a test, the JVM's logback outlives the context.
        if (QuarryListener.class.getClassLoader() != ClassLoader.getSystemClassLoader() && root.getAppender("QUARRY_CONTAINER") == null) {
            ContainerLogAppender container = new ContainerLogAppender(context);
            container.setName("QUARRY_CONTAINER");
            container.setContext(logback);
            container.start();
            root.addAppender(container);
        }
    }

    private static RollingFileAppender<ILoggingEvent> rollingFile(LoggerContext logback, String file) {
        RollingFileAppender<ILoggingEvent> appender = new RollingFileAppender<>();
        appender.setName("QUARRY_FILE");
        appender.setContext(logback);
        appender.setFile(file);
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(logback);
        policy.setParent(appender);
        policy.setFileNamePattern(file + ".%d{yyyy-MM-dd}.%i.gz");
        policy.setMaxFileSize(FileSize.valueOf("50MB"));
        policy.setMaxHistory(14);
        policy.setTotalSizeCap(FileSize.valueOf("1GB"));
        policy.start();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(logback);
        encoder.setPattern(PATTERN);
        encoder.start();
        appender.setRollingPolicy(policy);
        appender.setEncoder(encoder);
        appender.start();
        return appender;
    }

    /** A configuration value, empty taken as unset (as {@link AppConfig#get}). */
    private record AppConfigValue(java.util.function.Function<String, String> source) {
        String get(String key) {
            String value = source.apply(key);
            return value == null || value.isBlank() ? null : value;
        }
    }

    /** Quarry's errors (and warnings) into {@link ServletContext#log}: the container's own log file. */
    static final class ContainerLogAppender extends AppenderBase<ILoggingEvent> {
        private final ServletContext context;

        ContainerLogAppender(ServletContext context) {
            this.context = context;
        }

        @Override
        protected void append(ILoggingEvent event) {
            if (!event.getLevel().isGreaterOrEqual(Level.WARN) || !event.getLoggerName().startsWith("io.quarry")) {
                return;
            }
            String message = event.getLevel() + " " + event.getLoggerName() + " - " + event.getFormattedMessage();
            IThrowableProxy thrown = event.getThrowableProxy();
            try {
                if (thrown instanceof ThrowableProxy proxy) {
                    context.log(message, proxy.getThrowable());
                } else {
                    context.log(message);
                }
            } catch (RuntimeException e) {
                // the context is going away: nothing to log into
            }
        }
    }
}
