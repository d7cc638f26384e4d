package io.quarry.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.core.ConnectionPools;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Target pools: sized by the setting, kept warm (idle = total), one pool per spec; on an in-memory H2 database. */
class DatabasePoolsTest {
    private static Driver.ConnectionSpec spec(String name, String user) {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", "");
        return new Driver.ConnectionSpec("org.h2.Driver", "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", properties);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> stats(ConnectionPools registry, long databaseId) {
        return (Map<String, Object>) registry.describe().get("db-" + databaseId);
    }

    @Test
    void everyConnectionOfABurstStaysOpenForTheNextAndThePoolHasTheConfiguredSize() throws Exception {
        ConnectionPools registry = new ConnectionPools();
        try (DatabasePools pools = new DatabasePools(registry, 0, () -> 7)) {
            List<Connection> burst = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                burst.add(pools.connection(1, false, spec("warm", "sa")));
            }
            assertEquals(7, stats(registry, 1).get("numBusyConnections"));
            assertEquals(7, stats(registry, 1).get("maxPoolSize"));
            for (Connection c : burst) {
                c.close();
            }
            // the old pool kept 5 idle and closed the rest; now all 7 wait for the next burst
            assertEquals(7, stats(registry, 1).get("numIdleConnections"));
            try (Connection again = pools.connection(1, false, spec("warm", "sa")); ResultSet rs = again.createStatement().executeQuery("SELECT 1")) {
                assertTrue(rs.next());
            }
            assertEquals(7, stats(registry, 1).get("numConnections"), "no connection was opened for the next query");
        }
    }

    @Test
    void anEqualSpecKeepsThePoolAndAChangedOneReplacesIt() throws Exception {
        ConnectionPools registry = new ConnectionPools();
        try (DatabasePools pools = new DatabasePools(registry, 0, () -> 3)) {
            pools.connection(2, false, spec("spec", "sa")).close();
            assertEquals(1, stats(registry, 2).get("numIdleConnections"));
            try (Connection same = pools.connection(2, false, spec("spec", "sa"))) {
                // another Properties object with the same content: the same pool, its idle connection reused
                assertEquals(1, stats(registry, 2).get("numConnections"));
                assertEquals(0, stats(registry, 2).get("numIdleConnections"));
            }
            try (Connection changed = pools.connection(2, false, spec("spec", "SA"))) {
                // a new pool: the old one closed with its idle connection
                assertEquals(1, stats(registry, 2).get("numBusyConnections"));
                assertEquals(0, stats(registry, 2).get("numIdleConnections"));
            }
        }
    }

    @Test
    void onlyAConnectionReturnedWithinTheWindowSkipsValidation() {
        Instant now = Instant.parse("2026-11-26T12:00:00Z");
        assertTrue(DatabasePools.recentlyReturned(now.minusMillis(100), now));
        assertFalse(DatabasePools.recentlyReturned(now.minus(DatabasePools.VALIDATE_AFTER_IDLE).minusMillis(1), now));
        assertFalse(DatabasePools.recentlyReturned(Instant.EPOCH, now), "never returned");
        assertFalse(DatabasePools.recentlyReturned(null, now));
    }
}
