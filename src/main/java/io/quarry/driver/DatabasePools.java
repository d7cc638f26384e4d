package io.quarry.driver;

import io.quarry.appdb.PoolStats;
import io.quarry.core.ConnectionPools;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.dbcp2.BasicDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One commons-dbcp2 pool per connected database, created on first use. A pool remembers the connection spec it was
 * built from: when a database's details change, the next use closes the old pool and builds a new one. Pools are
 * closed when their database is deleted and when Quarry stops.
 */
public final class DatabasePools implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DatabasePools.class);

    private final ConnectionPools registry;
    private final Map<Long, Pool> pools = new ConcurrentHashMap<>();

    private record Pool(Driver.ConnectionSpec spec, BasicDataSource dataSource) {
    }

    public DatabasePools(ConnectionPools registry) {
        this.registry = registry;
    }

    /** A pooled connection to database {@code databaseId}, built from {@code spec}; the caller closes it. */
    public Connection connection(long databaseId, Driver.ConnectionSpec spec) throws SQLException {
        return pool(databaseId, spec).dataSource().getConnection();
    }

    private Pool pool(long databaseId, Driver.ConnectionSpec spec) {
        Pool current = pools.get(databaseId);
        if (current != null && sameSpec(current.spec(), spec)) {
            return current;
        }
        synchronized (this) {
            current = pools.get(databaseId);
            if (current != null && sameSpec(current.spec(), spec)) {
                return current;
            }
            if (current != null) {
                closeQuietly(databaseId, current);
            }
            Pool created = new Pool(spec, build(spec));
            pools.put(databaseId, created);
            registry.register(poolName(databaseId), () -> PoolStats.of(created.dataSource()));
            return created;
        }
    }

    private static boolean sameSpec(Driver.ConnectionSpec a, Driver.ConnectionSpec b) {
        return a.driverClass().equals(b.driverClass()) && a.url().equals(b.url()) && Objects.equals(a.properties(), b.properties());
    }

    private static BasicDataSource build(Driver.ConnectionSpec spec) {
        BasicDataSource ds = new BasicDataSource();
        ds.setDriverClassName(spec.driverClass());
        ds.setDriverClassLoader(DatabasePools.class.getClassLoader());
        ds.setUrl(spec.url());
        spec.properties().forEach((k, v) -> ds.addConnectionProperty(k.toString(), v.toString()));
        ds.setMaxTotal(15);
        ds.setMaxIdle(5);
        ds.setMinIdle(0);
        ds.setMaxWait(java.time.Duration.ofSeconds(30));
        ds.setTestOnBorrow(true);
        ds.setDefaultAutoCommit(true);
        // Idle connections to users' databases are let go after a while: they may be far away and costly.
        ds.setDurationBetweenEvictionRuns(java.time.Duration.ofMinutes(1));
        ds.setMinEvictableIdle(java.time.Duration.ofMinutes(5));
        return ds;
    }

    /** Closes the pool of a database (deleted, or its details changed). */
    public void close(long databaseId) {
        Pool pool;
        synchronized (this) {
            pool = pools.remove(databaseId);
        }
        if (pool != null) {
            closeQuietly(databaseId, pool);
        }
    }

    public boolean isOpen(long databaseId) {
        return pools.containsKey(databaseId);
    }

    private void closeQuietly(long databaseId, Pool pool) {
        registry.unregister(poolName(databaseId));
        try {
            pool.dataSource().close();
        } catch (SQLException e) {
            log.warn("Closing the pool of database {} failed: {}", databaseId, e.getMessage());
        }
    }

    private static String poolName(long databaseId) {
        return "db-" + databaseId;
    }

    @Override
    public synchronized void close() {
        for (Long id : pools.keySet().toArray(Long[]::new)) {
            close(id);
        }
    }
}
