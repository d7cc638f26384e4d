package io.quarry.driver;

import io.quarry.appdb.PoolStats;
import io.quarry.appdb.WarmDataSource;
import io.quarry.core.ConnectionPools;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One commons-dbcp2 pool per connected database, created on first use. A pool remembers the connection spec it was
 * built from: when a database's details change, the next use closes the old pool and builds a new one. Pools are
 * closed when their database is deleted and when Quarry stops.
 *
 * <p>Sized and kept warm for load, as Metabase's c3p0 pools: up to {@code jdbc-data-warehouse-max-connection-pool-size}
 * connections (15 by default), all of which stay open when returned (a connection closed on return is a database
 * backend forked again for the next burst); a borrowed connection is validated only when it sat idle for more than
 * {@link #VALIDATE_AFTER_IDLE} (one just returned is known good); and borrowing takes no lock of this class or of
 * dbcp2's data source.
 */
public final class DatabasePools implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DatabasePools.class);

    /** Metabase's default {@code jdbc-data-warehouse-max-connection-pool-size}. */
    public static final int DEFAULT_MAX_POOL_SIZE = 15;
    /** A connection idle for longer than this is validated when borrowed (HikariCP's default bypass window). */
    static final Duration VALIDATE_AFTER_IDLE = WarmDataSource.VALIDATE_AFTER_IDLE;

    private final ConnectionPools registry;
    private final int readTimeoutSeconds;
    private final IntSupplier maxPoolSize;
    /** By database id, then read (false) or write (true) pool. */
    private final Map<PoolKey, Pool> pools = new ConcurrentHashMap<>();

    /** A database's read or write pool. */
    private record PoolKey(long databaseId, boolean writes) {
    }

    /**
     * {@code properties}: a copy of the spec's properties (a mutable {@link Properties}) taken when the pool was built,
     * compared without locking the shared Hashtable.
     */
    private record Pool(Driver.ConnectionSpec spec, Map<Object, Object> properties, WarmDataSource dataSource) {
        boolean builtFrom(Driver.ConnectionSpec other) {
            // the same spec object (callers reuse the spec of an unchanged database): nothing to compare
            if (other == spec) {
                return true;
            }
            // compared entry by entry (Map.equals accepts the Properties as they are): no copy on every borrow
            return spec.driverClass().equals(other.driverClass()) && spec.url().equals(other.url())
                    && properties.equals(other.properties() == null ? Map.of() : other.properties());
        }
    }

    public DatabasePools(ConnectionPools registry) {
        this(registry, 0);
    }

    public DatabasePools(ConnectionPools registry, int queryTimeoutSeconds) {
        this(registry, queryTimeoutSeconds, () -> DEFAULT_MAX_POOL_SIZE);
    }

    /**
     * {@code queryTimeoutSeconds} is the query timeout (MB_DB_QUERY_TIMEOUT_*): a connection that sends nothing for
     * longer than {@link #readTimeoutSeconds(int) that plus a margin} is given up (a frozen server or network),
     * while a legitimately long query is cancelled by its own timeout first. 0: no read timeout.
     * {@code maxPoolSize}: the pool size (read when a pool is built, the
     * {@code jdbc-data-warehouse-max-connection-pool-size} setting).
     */
    public DatabasePools(ConnectionPools registry, int queryTimeoutSeconds, IntSupplier maxPoolSize) {
        this.registry = registry;
        this.readTimeoutSeconds = queryTimeoutSeconds <= 0 ? 0 : readTimeoutSeconds(queryTimeoutSeconds);
        this.maxPoolSize = maxPoolSize;
    }

    /**
     * The query timeout fires first and sends a cancel; the margin leaves the database time to answer it. A database
     * sends nothing while a query runs, so a read timeout below the query timeout would cut legitimate queries.
     */
    static int readTimeoutSeconds(int queryTimeoutSeconds) {
        return (int) Math.min(Integer.MAX_VALUE, (long) queryTimeoutSeconds + 15);
    }

    /**
     * A pooled connection to database {@code databaseId}, from its write pool when {@code writes} (its read pool
     * otherwise), built from {@code spec}; the caller closes it. Only the query runner's door
     * ({@code io.quarry.qp.Warehouses}) borrows connections.
     */
    public Connection connection(long databaseId, boolean writes, Driver.ConnectionSpec spec) throws SQLException {
        return pool(new PoolKey(databaseId, writes), spec).dataSource().getConnection();
    }

    private Pool pool(PoolKey key, Driver.ConnectionSpec spec) {
        Pool current = pools.get(key);
        if (current != null && current.builtFrom(spec)) {
            return current;
        }
        synchronized (this) {
            current = pools.get(key);
            if (current != null && current.builtFrom(spec)) {
                return current;
            }
            if (current != null) {
                closeQuietly(key, current);
            }
            Pool created = new Pool(spec, copy(spec.properties()), build(spec));
            pools.put(key, created);
            registry.register(poolName(key), () -> PoolStats.of(created.dataSource()));
            return created;
        }
    }

    private static Map<Object, Object> copy(Properties properties) {
        return properties == null ? Map.of() : Map.copyOf(properties);
    }

    private WarmDataSource build(Driver.ConnectionSpec spec) {
        WarmDataSource ds = new WarmDataSource();
        ds.setDriverClassName(spec.driverClass());
        ds.setDriverClassLoader(DatabasePools.class.getClassLoader());
        ds.setUrl(spec.url());
        readTimeout(spec).forEach((k, v) -> ds.addConnectionProperty(k, v));
        spec.properties().forEach((k, v) -> ds.addConnectionProperty(k.toString(), v.toString()));
        // Borrowing a connection that sat idle validates it: bounded, so that a frozen server fails the borrow instead
        // of hanging it.
        ds.setValidationQueryTimeout(Duration.ofSeconds(5));
        int size = Math.max(1, maxPoolSize.getAsInt());
        ds.setMaxTotal(size);
        // idle = total: a returned connection stays open for the next query instead of being closed and forked again
        ds.setMaxIdle(size);
        ds.setMinIdle(0);
        ds.setMaxWait(Duration.ofSeconds(30));
        ds.setTestOnBorrow(true);
        ds.setDefaultAutoCommit(true);
        // Idle connections to users' databases are let go after a while: they may be far away and costly.
        ds.setDurationBetweenEvictionRuns(Duration.ofMinutes(1));
        ds.setMinEvictableIdle(Duration.ofMinutes(5));
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

    /** Closes the pools of a database (deleted, or its details changed). */
    public void close(long databaseId) {
        close(databaseId, false);
        close(databaseId, true);
    }

    /** Closes a database's read or write pool. */
    public void close(long databaseId, boolean writes) {
        PoolKey key = new PoolKey(databaseId, writes);
        Pool pool;
        synchronized (this) {
            pool = pools.remove(key);
        }
        if (pool != null) {
            closeQuietly(key, pool);
        }
    }

    /** Whether a pool of the database is open. */
    public boolean isOpen(long databaseId) {
        return isOpen(databaseId, false) || isOpen(databaseId, true);
    }

    public boolean isOpen(long databaseId, boolean writes) {
        return pools.containsKey(new PoolKey(databaseId, writes));
    }

    private void closeQuietly(PoolKey key, Pool pool) {
        registry.unregister(poolName(key));
        try {
            pool.dataSource().close();
        } catch (SQLException e) {
            log.warn("Closing a pool of database {} failed: {}", key.databaseId(), e.getMessage());
        }
    }

    /** {@code db-1} (reads), {@code db-1-write}. */
    private static String poolName(PoolKey key) {
        return "db-" + key.databaseId() + (key.writes() ? "-write" : "");
    }

    static boolean recentlyReturned(Instant lastReturn, Instant now) {
        return WarmDataSource.recentlyReturned(lastReturn, now);
    }

    @Override
    public synchronized void close() {
        for (PoolKey key : pools.keySet().toArray(PoolKey[]::new)) {
            close(key.databaseId(), key.writes());
        }
    }
}
