package io.quarry.sync;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * A Quartz cron expression ({@code "0 50 * * * ? *"}: seconds, minutes, hours, day of month, month, day of week, optional
 * year), as Metabase stores schedules. Parsed and evaluated with cron-utils' Quartz definition, so Quarry needs no
 * Quartz scheduler: the next fire time is computed here and the work is put on the shared executor.
 */
public final class Cron {
    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.QUARTZ));

    private final String expression;
    private final ExecutionTime executionTime;

    private Cron(String expression, ExecutionTime executionTime) {
        this.expression = expression;
        this.executionTime = executionTime;
    }

    /** Parses a Quartz cron string; {@link IllegalArgumentException} when it is not one. */
    public static Cron parse(String expression) {
        if (expression == null || expression.isBlank()) {
            throw new IllegalArgumentException("A cron expression is required.");
        }
        String trimmed = expression.trim();
        try {
            return new Cron(trimmed, ExecutionTime.forCron(PARSER.parse(trimmed)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Invalid Quartz cron expression '" + trimmed + "': " + e.getMessage(), e);
        }
    }

    /** True when {@code expression} is a valid Quartz cron string. */
    public static boolean isValid(String expression) {
        try {
            parse(expression);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    public String expression() {
        return expression;
    }

    /** The first fire time strictly after {@code after}, or empty when the expression never fires again. */
    public Optional<ZonedDateTime> nextAfter(ZonedDateTime after) {
        return executionTime.nextExecution(after);
    }

    @Override
    public String toString() {
        return expression;
    }
}
