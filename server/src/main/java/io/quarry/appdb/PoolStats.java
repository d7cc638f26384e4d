package io.quarry.appdb;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.dbcp2.BasicDataSource;

/** A dbcp2 pool's statistics under the names Metabase reports for its (c3p0) pools. */
public final class PoolStats {
    private PoolStats() {
    }

    public static Map<String, Object> of(BasicDataSource pool) {
        int busy = pool.getNumActive();
        int idle = pool.getNumIdle();
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("numConnections", busy + idle);
        stats.put("numIdleConnections", idle);
        stats.put("numBusyConnections", busy);
        stats.put("minPoolSize", pool.getMinIdle());
        stats.put("maxPoolSize", pool.getMaxTotal());
        return stats;
    }
}
