package io.quarry.util;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.joran.spi.JoranException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.LoggerFactory;

/**
 * A logback appender that keeps the last {@value #CAPACITY} log events in memory, for {@code GET /api/util/logs}
 * (Metabase's admin "Logs" page). Declared in {@code logback.xml}; {@link #install()} attaches it to the root logger
 * when a configuration lacks it. The buffer is per class loader, so per deployed webapp.
 */
public final class LogBuffer extends AppenderBase<ILoggingEvent> {
    public static final int CAPACITY = 2500;
    public static final String NAME = "QUARRY_LOG_BUFFER";
    private static final int MAX_MESSAGE = 10_000;
    private static final int MAX_FRAMES = 200;
    /** Identifies this process in the entries, as Metabase's {@code process_uuid} does. */
    private static final String PROCESS_UUID = UUID.randomUUID().toString();
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")
            .withZone(ZoneOffset.UTC);
    private static final Deque<Entry> ENTRIES = new ArrayDeque<>(CAPACITY);

    private record Entry(long millis, String level, String logger, String message, List<String> exception) {
    }

    public LogBuffer() {
        setName(NAME);
    }

    @Override
    protected void append(ILoggingEvent event) {
        String message = event.getFormattedMessage();
        if (message != null && message.length() > MAX_MESSAGE) {
            message = message.substring(0, MAX_MESSAGE) + "…";
        }
        Entry entry = new Entry(event.getTimeStamp(), event.getLevel().toString(), event.getLoggerName(), message,
                frames(event.getThrowableProxy()));
        synchronized (ENTRIES) {
            if (ENTRIES.size() >= CAPACITY) {
                ENTRIES.pollFirst();
            }
            ENTRIES.addLast(entry);
        }
    }

    private static List<String> frames(IThrowableProxy thrown) {
        if (thrown == null) {
            return null;
        }
        List<String> lines = Arrays.stream(ThrowableProxyUtil.asString(thrown).split("\\R"))
                .map(String::strip).filter(line -> !line.isEmpty()).toList();
        return lines.size() > MAX_FRAMES ? lines.subList(0, MAX_FRAMES) : lines;
    }

    /** The buffered events, newest first: {@code timestamp, level, fqns, msg, exception, process_uuid}. */
    public static List<Map<String, Object>> recent() {
        List<Entry> copy;
        synchronized (ENTRIES) {
            copy = new ArrayList<>(ENTRIES);
        }
        // Events from several threads may arrive slightly out of order: newest first by their own time.
        Collections.reverse(copy);
        copy.sort(Comparator.comparingLong(Entry::millis).reversed());
        List<Map<String, Object>> result = new ArrayList<>(copy.size());
        for (Entry e : copy) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("timestamp", TIMESTAMP.format(Instant.ofEpochMilli(e.millis())));
            view.put("level", e.level());
            view.put("fqns", e.logger());
            view.put("msg", e.message());
            view.put("exception", e.exception());
            view.put("process_uuid", PROCESS_UUID);
            result.add(view);
        }
        return result;
    }

    /**
     * Attaches a buffer to logback's root logger unless one is there already (logback.xml declares it). When this
     * class loader's logback was stopped by an earlier undeploy (a webapp restarted in the same class loader, as in
     * embedded test servers), it is configured afresh first: otherwise nothing would be logged at all.
     */
    public static void install() {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        synchronized (LogBuffer.class) {
            if (!context.isStarted()) {
                try {
                    context.reset();
                    new ContextInitializer(context).autoConfig(LogBuffer.class.getClassLoader());
                    context.start();
                } catch (JoranException e) {
                    System.err.println("Quarry could not configure logging again: " + e);
                }
            }
            if (root.getAppender(NAME) == null) {
                LogBuffer buffer = new LogBuffer();
                buffer.setContext(context);
                buffer.start();
                root.addAppender(buffer);
            }
        }
    }
}
