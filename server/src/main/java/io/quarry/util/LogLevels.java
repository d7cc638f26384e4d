package io.quarry.util;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * Metabase's temporary log-level adjustment ({@code POST /api/logger/adjustment}): loggers set to the given levels
 * for a while, then put back as they were. At most one adjustment at a time: a new one first undoes the current one.
 * Each change is planned as Metabase plans it: {@code add} for a logger that had no level of its own (undone by
 * removing the level again, so it inherits once more), {@code change} for one that had a different level (undone by
 * restoring it). Statements that carry connection details are never turned up (see {@link #adjustable}).
 */
public final class LogLevels implements AutoCloseable {
    /** Metabase's levels, most severe first; {@code fatal} is logback's {@code ERROR}. */
    public static final List<String> LEVELS = List.of("off", "fatal", "error", "warn", "info", "debug", "trace");

    /** MyBatis' statement loggers are named after the mapper interface and the statement id. */
    private static final java.util.regex.Pattern STATEMENT_LOGGER = java.util.regex.Pattern.compile("(io\\.quarry\\..*Mapper)\\.[A-Za-z0-9_]+");

    private final ScheduledExecutorService scheduler;
    private Adjustment current;

    /** One planned change of one logger. */
    public record Change(String op, String ns, String from, String to) {
        Map<String, Object> json() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("op", op);
            out.put("ns", ns);
            if (from != null) {
                out.put("from", from);
            }
            out.put("to", to);
            return out;
        }
    }

    private record Adjustment(List<Change> plan, ScheduledFuture<?> undo) {
    }

    public LogLevels(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * Whether {@code name} may be adjusted. Not a mapper whose statements logback.xml pins at a level of their own
     * (MyBatis logs a statement's parameters at DEBUG, and those statements carry a database's connection details),
     * nor one of those statements.
     */
    public static boolean adjustable(String name) {
        if (name.isBlank()) {
            return false;
        }
        for (Logger logger : context().getLoggerList()) {
            java.util.regex.Matcher statement = STATEMENT_LOGGER.matcher(logger.getName());
            if (logger.getLevel() != null && statement.matches()) {
                String mapper = statement.group(1);
                if (name.equals(mapper) || name.startsWith(mapper + ".")) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Undoes the current adjustment, then sets {@code levels} (logger name to one of {@link #LEVELS}) until
     * {@code durationMillis} from now. An empty map only undoes. Returns the plan carried out.
     */
    public synchronized List<Change> adjust(Map<String, String> levels, long durationMillis) {
        undoCurrent();
        LoggerContext context = context();
        List<Change> plan = new ArrayList<>();
        levels.forEach((name, level) -> {
            Logger logger = context.getLogger(name);
            Level own = logger.getLevel();
            String to = level.toLowerCase(Locale.ROOT);
            if (own == null) {
                plan.add(new Change("add", name, null, to));
            } else if (!name(own).equals(to) && !(own == Level.ERROR && to.equals("fatal"))) {
                plan.add(new Change("change", name, name(own), to));
            }
        });
        for (Change change : plan) {
            context.getLogger(change.ns).setLevel(level(change.to));
        }
        if (!plan.isEmpty()) {
            ScheduledFuture<?> undo = scheduler.schedule(this::undoScheduled, Math.max(0, durationMillis), TimeUnit.MILLISECONDS);
            current = new Adjustment(List.copyOf(plan), undo);
        }
        return plan;
    }

    /** {@code DELETE /api/logger/adjustment}: puts the loggers back now. */
    public synchronized void reset() {
        undoCurrent();
    }

    /** Metabase's presets, with the loggers of Quarry's matching packages. */
    public static List<Map<String, Object>> presets() {
        return List.of(
                preset("sync", "Sync issue troubleshooting", "io.quarry.sync", "io.quarry.driver"),
                preset("linkedfilters", "Linked filters troubleshooting", "io.quarry.parameters"),
                preset("serialization", "Serialization troubleshooting", "io.quarry.revision"));
    }

    private static Map<String, Object> preset(String id, String displayName, String... loggers) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (String logger : loggers) {
            list.add(Map.of("name", logger, "level", "debug"));
        }
        return Map.of("id", id, "display_name", displayName, "loggers", list);
    }

    private synchronized void undoScheduled() {
        if (current != null) {
            undo(current.plan);
            current = null;
        }
    }

    private void undoCurrent() {
        if (current != null) {
            current.undo.cancel(false);
            undo(current.plan);
            current = null;
        }
    }

    private static void undo(List<Change> plan) {
        LoggerContext context = context();
        for (Change change : plan) {
            context.getLogger(change.ns).setLevel(change.op.equals("add") ? null : level(change.from));
        }
    }

    private static LoggerContext context() {
        return (LoggerContext) LoggerFactory.getILoggerFactory();
    }

    private static Level level(String name) {
        return name.equals("fatal") ? Level.ERROR : Level.toLevel(name.toUpperCase(Locale.ROOT), Level.INFO);
    }

    private static String name(Level level) {
        return level.levelStr.toLowerCase(Locale.ROOT);
    }

    /** Undeploying puts the loggers back: the logging system may outlive this instance. */
    @Override
    public synchronized void close() {
        undoCurrent();
    }
}
