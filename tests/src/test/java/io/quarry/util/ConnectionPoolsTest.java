package io.quarry.util;

import io.quarry.appdb.PoolStats;
import io.quarry.core.ConnectionPools;
import java.util.List;
import java.util.Map;
import org.apache.commons.dbcp2.BasicDataSource;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ConnectionPoolsTest {
    @Test
    void poolsRegisterAndLeave() {
        ConnectionPools pools = new ConnectionPools();
        pools.register("app-db", () -> Map.of("numConnections", 1));
        pools.register("db-7", () -> Map.of("numConnections", 3));
        assertEquals(List.of("app-db", "db-7"), List.copyOf(pools.describe().keySet()));
        pools.unregister("db-7");
        assertEquals(Map.of("app-db", Map.of("numConnections", 1)), pools.describe());
    }

    @Test
    void aFailingPoolDoesNotHideTheOthers() {
        ConnectionPools pools = new ConnectionPools();
        pools.register("broken", () -> {
            throw new IllegalStateException("closed");
        });
        pools.register("app-db", () -> Map.of("numConnections", 1));
        Map<String, Object> described = pools.describe();
        assertEquals(Map.of("error", "closed"), described.get("broken"));
        assertEquals(Map.of("numConnections", 1), described.get("app-db"));
    }

    @Test
    void dbcpStatisticsUseMetabasesNames() throws Exception {
        try (BasicDataSource pool = new BasicDataSource()) {
            pool.setMinIdle(2);
            pool.setMaxTotal(9);
            Map<String, Object> stats = PoolStats.of(pool);
            assertEquals(List.of("numConnections", "numIdleConnections", "numBusyConnections", "minPoolSize", "maxPoolSize",
                    "numThreadsAwaitingCheckoutDefaultUser", "borrowWaitMaxMillis", "borrowWaitMeanMillis", "borrowedCount"),
                    List.copyOf(stats.keySet()));
            assertEquals(0, stats.get("numThreadsAwaitingCheckoutDefaultUser"));
            assertEquals(0, stats.get("numConnections"));
            assertEquals(2, stats.get("minPoolSize"));
            assertEquals(9, stats.get("maxPoolSize"));
        }
    }
}
