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
    private final int readTimeoutSeconds;
    private final Map<Long, Pool> pools = new ConcurrentHashMap<>();

    private record Pool(Driver.ConnectionSpec spec, BasicDataSource dataSource) {
    }

    public DatabasePools(ConnectionPools registry) {
        this(registry, 0);
    }

    /**
     * {@code queryTimeoutSeconds} is the query timeout (MB_DB_QUERY_TIMEOUT_*): a connection that sends nothing for
     * longer than {@link #readTimeoutSeconds(int) that plus a margin} is given up (a frozen server or network),
     * while a legitimately long query is cancelled by its own timeout first. 0: no read timeout.
     */
    public DatabasePools(ConnectionPools registry, int queryTimeoutSeconds) {
        this.registry = registry;
        this.readTimeoutSeconds = queryTimeoutSeconds <= 0 ? 0 : readTimeoutSeconds(queryTimeoutSeconds);
    }

    /**
     * The query timeout fires first and sends a cancel; the margin leaves the database time to answer it. A database
     * sends nothing while a query runs, so a read timeout below the query timeout would cut legitimate queries.
     */
    static int readTimeoutSeconds(int queryTimeoutSeconds) {
        return (int) Math.min(Integer.MAX_VALUE, (long) queryTimeoutSeconds + 15);
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

    private BasicDataSource build(Driver.ConnectionSpec spec) {
        BasicDataSource ds = new BasicDataSource();
        ds.setDriverClassName(spec.driverClass());
        ds.setDriverClassLoader(DatabasePools.class.getClassLoader());
        ds.setUrl(spec.url());
        readTimeout(spec).forEach((k, v) -> ds.addConnectionProperty(k, v));
        spec.properties().forEach((k, v) -> ds.addConnectionProperty(k.toString(), v.toString()));
        // Borrowing validates the connection: bounded, so that a frozen server fails the borrow instead of hanging it.
        ds.setValidationQueryTimeout(java.time.Duration.ofSeconds(5));
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

    /**
     * The read (socket) timeout property of the drivers that have one, in their units; a value the connection's own
     * details give (additional options) wins, as it is added after this.
     */
    private Map<String, String> readTimeout(Driver.ConnectionSpec spec) {
        if (readTimeoutSeconds == 0) {
            return Map.of();
        }
        return switch (spec.driverClass()) {
            case "org.postgresql.Driver" -> Map.of("socketTimeout", String.valueOf(readTimeoutSeconds));
            case "com.mysql.cj.jdbc.Driver", "org.mariadb.jdbc.Driver" ->
                    Map.of("socketTimeout", String.valueOf(readTimeoutSeconds * 1000L));
            default -> Map.of();
        };
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
