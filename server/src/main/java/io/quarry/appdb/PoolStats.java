package io.quarry.appdb;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.dbcp2.BasicDataSource;
import org.apache.commons.dbcp2.PoolableConnection;
import org.apache.commons.pool2.impl.GenericObjectPool;

/**
 * A dbcp2 pool's statistics under the names Metabase reports for its (c3p0) pools, then what dbcp2 adds: how long
 * borrowers waited (the longest since the pool opened, the mean of the last 100 borrows) and how many borrows there
 * were. A pool not opened yet (no connection asked of it) has nothing waiting and no borrows.
 */
public final class PoolStats {
    private PoolStats() {
    }

    public static Map<String, Object> of(BasicDataSource pool) {
        int busy = pool.getNumActive();
        int idle = pool.getNumIdle();
        GenericObjectPool<PoolableConnection> connections = pool.getConnectionPool();
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("numConnections", busy + idle);
        stats.put("numIdleConnections", idle);
        stats.put("numBusyConnections", busy);
        stats.put("minPoolSize", pool.getMinIdle());
        stats.put("maxPoolSize", pool.getMaxTotal());
        stats.put("numThreadsAwaitingCheckoutDefaultUser", connections == null ? 0 : connections.getNumWaiters());
        stats.put("borrowWaitMaxMillis", connections == null ? 0 : connections.getMaxBorrowWaitDuration().toMillis());
        stats.put("borrowWaitMeanMillis", connections == null ? 0 : connections.getMeanBorrowWaitDuration().toMillis());
        stats.put("borrowedCount", connections == null ? 0 : connections.getBorrowedCount());
        return stats;
    }
}
