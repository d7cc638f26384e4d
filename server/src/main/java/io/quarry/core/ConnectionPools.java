package io.quarry.core;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection pools of this instance, for the diagnostic endpoints. The application database registers as
 * {@code app-db}; pools to users' databases register (and unregister) themselves under their own names as they come
 * and go. Each supplies its statistics on demand ({@link io.quarry.appdb.PoolStats} for dbcp2 pools).
 */
public final class ConnectionPools {
    private static final Logger log = LoggerFactory.getLogger(ConnectionPools.class);

    private final Map<String, Supplier<Map<String, Object>>> pools = new LinkedHashMap<>();

    public synchronized void register(String name, Supplier<Map<String, Object>> stats) {
        pools.put(name, stats);
    }

    public synchronized void unregister(String name) {
        pools.remove(name);
    }

    /** Name → statistics of every registered pool; a pool whose statistics fail shows the error instead. */
    public Map<String, Object> describe() {
        Map<String, Supplier<Map<String, Object>>> snapshot;
        synchronized (this) {
            snapshot = new LinkedHashMap<>(pools);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        snapshot.forEach((name, stats) -> {
            try {
                result.put(name, stats.get());
            } catch (RuntimeException e) {
                log.warn("Statistics of connection pool {} failed: {}", name, e.toString());
                result.put(name, Map.of("error", String.valueOf(e.getMessage())));
            }
        });
        return result;
    }
}
