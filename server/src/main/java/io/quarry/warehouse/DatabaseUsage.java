package io.quarry.warehouse;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code GET /api/database/:id/usage_info}: how many entities of each model use a database. The models are Metabase's
 * ({@code question}, {@code dataset}, {@code metric}, {@code segment}); each counts zero unless the module that owns
 * those entities gives its {@link Counter}.
 */
public final class DatabaseUsage {
    /** The models reported, in Metabase's order. */
    public static final List<String> MODELS = List.of("question", "dataset", "metric", "segment");

    /** Counts the entities of one model that use a database. */
    public interface Counter {
        long count(long databaseId);
    }

    private final Map<String, Counter> counters = new LinkedHashMap<>();

    public DatabaseUsage() {
        this(Map.of());
    }

    /** With the counters of the models given (by model name), zero for the others. */
    public DatabaseUsage(Map<String, Counter> given) {
        for (String model : MODELS) {
            counters.put(model, databaseId -> 0L);
        }
        given.forEach(this::register);
    }

    /** Replaces the counter of one model ({@code "question"} counts cards of type question, and so on; tests count their own). */
    public synchronized void register(String model, Counter counter) {
        if (!MODELS.contains(model)) {
            throw new IllegalArgumentException("Unknown usage model: " + model);
        }
        counters.put(model, Objects.requireNonNull(counter));
    }

    public Map<String, Long> usage(long databaseId) {
        Map<String, Counter> current;
        synchronized (this) {
            current = new LinkedHashMap<>(counters);
        }
        Map<String, Long> result = new LinkedHashMap<>();
        current.forEach((model, counter) -> result.put(model, counter.count(databaseId)));
        return result;
    }
}
