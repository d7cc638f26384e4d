package io.quarry.appdb;

import io.quarry.core.AppConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import liquibase.Scope;
import liquibase.command.CommandScope;
import liquibase.command.core.UpdateCommandStep;
import liquibase.command.core.helpers.DbUrlConnectionArgumentsCommandStep;
import liquibase.command.core.helpers.ShowSummaryArgument;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import liquibase.ui.LoggerUIService;
import liquibase.UpdateSummaryOutputEnum;
import org.apache.commons.dbcp2.BasicDataSource;
import org.apache.ibatis.executor.ErrorContext;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The application database: its pool, its migrations and the MyBatis session factory over it. */
public final class AppDatabase implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AppDatabase.class);
    private static final String CHANGELOG = "db/changelog/changelog-master.xml";

    private final AppConfig.DbType type;
    /** {@code h2} or {@code postgresql}, read from the connection (a JNDI DataSource may be either). */
    private final String vendor;
    private final DataSource dataSource;
    private final WarmDataSource ownedPool;
    private final SqlSessionFactory sessionFactory;
    private final Timeouts timeouts;
    private final AppDatabaseStatus status = new AppDatabaseStatus();
    private final AppDatabaseHealth health;
    private final CacheRevision cacheRevision;

    /**
     * How long Quarry waits on the application database. {@code connectSeconds}: to make a connection (TCP connect,
     * login) and to validate a pooled one; {@code socketSeconds}: for any answer on an open connection (a frozen
     * server) in background work (sync, scheduled jobs); {@code requestSeconds}: the bound of any wait of an HTTP
     * request on a PostgreSQL application database (each read, a validation, a login, a free pooled connection), so
     * that a request answers 503 within it when the database freezes. Quarry's own keys
     * {@code MB_APPLICATION_DB_CONNECT_TIMEOUT_SECONDS} (10), {@code MB_APPLICATION_DB_SOCKET_TIMEOUT_SECONDS} (30) and
     * {@code MB_APPLICATION_DB_REQUEST_TIMEOUT_SECONDS} (8); migrations are exempt from the socket timeout.
     */
    public record Timeouts(int connectSeconds, int socketSeconds, int requestSeconds) {
        static Timeouts of(AppConfig config) {
            return new Timeouts(seconds(config, "MB_APPLICATION_DB_CONNECT_TIMEOUT_SECONDS", 10),
                    seconds(config, "MB_APPLICATION_DB_SOCKET_TIMEOUT_SECONDS", 30),
                    seconds(config, "MB_APPLICATION_DB_REQUEST_TIMEOUT_SECONDS", 8));
        }

        private static int seconds(AppConfig config, String key, int fallback) {
            String value = config.get(key);
            if (value == null) {
                return fallback;
            }
            try {
                int parsed = Integer.parseInt(value.trim());
                if (parsed > 0) {
                    return parsed;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalStateException(key + " must be a whole number of seconds greater than zero, got '" + value + "'");
        }
    }

    /**
     * H2 keeps commits in memory for up to {@code WRITE_DELAY} ms (500 by default) before writing them to the file, so
     * a killed process loses writes it already acknowledged, and hands their ids out again after a restart. With 0
     * the MVStore writes every commit to the file before the commit returns (no fsync: it survives a killed process,
     * not a power cut). It is given on every open, in the URL; the file format does not change, so existing files
     * open as before. A {@code WRITE_DELAY} already in the URL is kept.
     */
    static String durableH2(String url) {
        if (url.toUpperCase(Locale.ROOT).contains(";WRITE_DELAY=")) {
            return url;
        }
        return url + ";WRITE_DELAY=0";
    }

    public AppDatabase(AppConfig config, List<Class<?>> mappers) {
        this.type = config.dbType;
        this.timeouts = Timeouts.of(config);
        if (config.dbType == AppConfig.DbType.JNDI) {
            ownedPool = null;
            dataSource = lookup(config.dbJndiName);
        } else {
            // The same pool as the target databases': connections stay open when returned (idle = total), a borrowed
            // one is validated only when it sat idle longer than WarmDataSource.VALIDATE_AFTER_IDLE (a just-returned
            // connection is known good; validating it on every borrow was one more round trip per statement), and
            // borrowing takes no monitor.
            ownedPool = config.dbType == AppConfig.DbType.POSTGRES ? new AppDatabasePool(timeouts) : new WarmDataSource();
            ownedPool.setUrl(config.dbType == AppConfig.DbType.H2 ? durableH2(config.dbUrl) : config.dbUrl);
            ownedPool.setUsername(config.dbUser);
            ownedPool.setPassword(config.dbPassword);
            ownedPool.setDriverClassName(config.dbType == AppConfig.DbType.H2 ? "org.h2.Driver" : "org.postgresql.Driver");
            int poolSize = maxPoolSize(config);
            ownedPool.setMaxTotal(poolSize);
            ownedPool.setMaxIdle(poolSize);
            ownedPool.setMinIdle(1);
            ownedPool.setDefaultAutoCommit(true);
            ownedPool.setValidationQuery("SELECT 1");
            ownedPool.setTestOnBorrow(true);
            // A database that is down or frozen must not hold a request for ever: a request waits for a pooled
            // connection (all of them hung on a frozen server, or a burst of load the database does not keep up with)
            // at most the request timeout on PostgreSQL, then answers 503. Embedded H2 cannot freeze apart from
            // Quarry: only load makes a request wait there, as long as the socket timeout.
            ownedPool.setMaxWait(Duration.ofSeconds(config.dbType == AppConfig.DbType.POSTGRES
                    ? timeouts.requestSeconds() : timeouts.socketSeconds()));
            ownedPool.setValidationQueryTimeout(Duration.ofSeconds(timeouts.connectSeconds()));
            if (config.dbType == AppConfig.DbType.POSTGRES) {
                // Defaults only: options given in the connection URL win (the driver reads the URL last).
                ownedPool.addConnectionProperty("connectTimeout", String.valueOf(timeouts.connectSeconds()));
                ownedPool.addConnectionProperty("loginTimeout", String.valueOf(timeouts.connectSeconds()));
                ownedPool.addConnectionProperty("socketTimeout", String.valueOf(timeouts.socketSeconds()));
            }
            dataSource = ownedPool;
        }
        try {
            vendor = detectVendor(dataSource);
            migrate();
            if (config.dbType == AppConfig.DbType.H2) {
                realignH2Identities();
            }
        } catch (RuntimeException e) {
            // Start-up retries: a failed attempt must not keep connections (nor H2's file lock) open.
            closeQuietly(ownedPool);
            throw e;
        }
        health = new AppDatabaseHealth(dataSource, status);
        Configuration configuration = new Configuration(new Environment("appdb", new JdbcTransactionFactory(), dataSource));
        if (config.dbType == AppConfig.DbType.POSTGRES) {
            // A statement the server does not finish is cancelled before the socket timeout gives up on the connection.
            // (Embedded H2 cannot freeze apart from Quarry; its long batches are left alone.)
            configuration.setDefaultStatementTimeout(Math.max(1, timeouts.socketSeconds() - 5));
        }
        configuration.setMapUnderscoreToCamelCase(true);
        configuration.setDatabaseId(vendor);
        // By alias, not globally for Map: a global Map handler would turn every resultType="map" into one column.
        configuration.getTypeAliasRegistry().registerAlias("json", JsonMapTypeHandler.class);
        for (Class<?> mapper : mappers) {
            configuration.addMapper(mapper);
        }
        configuration.addMapper(CacheRevisionMapper.class);
        cacheRevision = new CacheRevision(config.cacheRevisionCheckMillis);
        configuration.addInterceptor(new RevisionBump(configuration, cacheRevision));
        sessionFactory = new SqlSessionFactoryBuilder().build(configuration);
        // Mapper XML parsing leaves a ThreadLocal on this thread; containers report it as a leak on undeploy.
        ErrorContext.instance().reset();
    }

    /** Metabase's {@code MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE}, 15 by default. */
    static final int DEFAULT_MAX_POOL_SIZE = 15;

    static int maxPoolSize(AppConfig config) {
        String value = config.get("MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE");
        if (value == null || value.isBlank()) {
            return DEFAULT_MAX_POOL_SIZE;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalStateException("MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE must be a whole number greater than zero, got '"
                + value + "'");
    }

    private static void closeQuietly(BasicDataSource pool) {
        if (pool != null) {
            try {
                pool.close();
            } catch (SQLException | RuntimeException e) {
                log.debug("Closing the pool of a failed start-up attempt", e);
            }
        }
    }

    private static String detectVendor(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            String product = connection.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT);
            if (product.contains("h2")) {
                return "h2";
            }
            if (product.contains("postgres")) {
                return "postgresql";
            }
            throw new IllegalStateException("Unsupported application database: " + product + " (use H2 or PostgreSQL)");
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot connect to the application database: " + e.getMessage(), e);
        }
    }

    private static DataSource lookup(String name) {
        try {
            InitialContext context = new InitialContext();
            try {
                return (DataSource) context.lookup(name);
            } finally {
                context.close();
            }
        } catch (NamingException e) {
            throw new IllegalStateException("No DataSource bound at JNDI name " + name, e);
        }
    }

    /**
     * Runs the Liquibase changelog. Liquibase keeps its Scope in an inheritable ThreadLocal, so it runs on a throwaway
     * thread: otherwise every container worker thread started later would inherit (and leak) it.
     */
    /**
     * After a crash of the embedded H2 database, an identity column's next value can lag rows that were committed (and
     * acknowledged) just before the crash: H2 writes a sequence's position apart from the rows that use it. Seen in
     * {@code CrashDurabilityIT} once writes got fast (1,600 collections in 6 s): the first collection made after the
     * restart was given the id of one made before the kill, and its insert failed on the primary key. So at every
     * start, each identity column whose next value is not above its table's highest id continues from there: no id
     * of a stored row is handed out again. One query per identity column, on a file that was just opened.
     */
    private void realignH2Identities() {
        try (Connection connection = dataSource.getConnection(); java.sql.Statement statement = connection.createStatement()) {
            java.util.List<String[]> identities = new java.util.ArrayList<>();
            try (java.sql.ResultSet rows = statement.executeQuery("SELECT TABLE_NAME, COLUMN_NAME, IDENTITY_BASE "
                    + "FROM INFORMATION_SCHEMA.COLUMNS WHERE IS_IDENTITY = 'YES' AND TABLE_SCHEMA = CURRENT_SCHEMA")) {
                while (rows.next()) {
                    identities.add(new String[] {rows.getString(1), rows.getString(2), rows.getString(3)});
                }
            }
            for (String[] identity : identities) {
                String table = quoteH2(identity[0]);
                String column = quoteH2(identity[1]);
                long next = Long.parseLong(identity[2]);
                try (java.sql.ResultSet max = statement.executeQuery("SELECT MAX(" + column + ") FROM " + table)) {
                    if (max.next()) {
                        long highest = max.getLong(1);
                        if (!max.wasNull() && highest >= next) {
                            statement.execute("ALTER TABLE " + table + " ALTER COLUMN " + column + " RESTART WITH " + (highest + 1));
                            log.warn("Application database: {}.{} would have handed out id {} again (highest stored: {}); "
                                    + "it continues from {} (an unclean stop of the embedded H2 file)", identity[0], identity[1],
                                    next, highest, highest + 1);
                        }
                    }
                }
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("Could not check the application database's id sequences: " + e.getMessage(), e);
        }
    }

    /** An H2 identifier as read from INFORMATION_SCHEMA, quoted (names come from the catalogue, never from a request). */
    private static String quoteH2(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    private void migrate() {
        ExecutorService once = Executors.newSingleThreadExecutor(r -> new Thread(r, "quarry-migrations"));
        try {
            Future<?> done = once.submit(() -> {
                try (Connection connection = dataSource.getConnection()) {
                    // A long migration is not a frozen database: no socket timeout while it runs.
                    int networkTimeout = networkTimeout(connection);
                    setNetworkTimeout(connection, 0);
                    try {
                        update(connection);
                    } finally {
                        setNetworkTimeout(connection, networkTimeout);
                    }
                }
                return null;
            });
            done.get();
        } catch (Exception e) {
            throw new IllegalStateException("Application database migration failed: " + rootMessage(e), e);
        } finally {
            once.shutdownNow();
        }
    }

    private static int networkTimeout(Connection connection) {
        try {
            return connection.getNetworkTimeout();
        } catch (SQLException | UnsupportedOperationException e) {
            return 0;
        }
    }

    private static void setNetworkTimeout(Connection connection, int millis) {
        try {
            connection.setNetworkTimeout(Runnable::run, millis);
        } catch (SQLException | UnsupportedOperationException e) {
            // a driver without network timeouts (H2 embedded, some JNDI pools) has nothing to lift
        }
    }

    private static void update(Connection connection) throws Exception {
        Database database = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection));
        Map<String, Object> scope = Map.of(
                Scope.Attr.resourceAccessor.name(), new ClassLoaderResourceAccessor(AppDatabase.class.getClassLoader()),
                Scope.Attr.ui.name(), new LoggerUIService(),
                "liquibase.analytics.enabled", false,
                // In a container the parent class loader may see the changelog too; use the first
                // (the webapp's own) rather than refusing to start.
                "liquibase.duplicateFileMode", "INFO");
        Scope.child(scope, () -> new CommandScope(UpdateCommandStep.COMMAND_NAME)
                .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, database)
                .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG, CHANGELOG)
                .addArgumentValue(ShowSummaryArgument.SHOW_SUMMARY_OUTPUT, UpdateSummaryOutputEnum.LOG)
                .execute());
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage();
    }

    public SqlSessionFactory sessionFactory() {
        return sessionFactory;
    }

    /** Whether the application database answers, with the outage logged once per outage. */
    /** The revision of what the caches hold, bumped by every transaction that changes cached data. */
    public CacheRevision cacheRevision() {
        return cacheRevision;
    }

    public AppDatabaseStatus status() {
        return status;
    }

    /** The health check, answered within about 1.5 s whatever the database does. */
    public AppDatabaseHealth health() {
        return health;
    }

    public Timeouts timeouts() {
        return timeouts;
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public AppConfig.DbType type() {
        return type;
    }

    /** {@code h2} or {@code postgresql}. */
    public String vendor() {
        return vendor;
    }

    /** Pool statistics for the diagnostic endpoints; empty for a container-managed (JNDI) pool. */
    public Map<String, Object> poolInfo() {
        if (ownedPool == null) {
            return Map.of("source", "jndi");
        }
        return PoolStats.of(ownedPool);
    }

    @Override
    public void close() {
        health.close();
        if (ownedPool == null) {
            return;
        }
        if ("h2".equals(vendor)) {
            // Close the H2 file now, not at JVM exit: a redeployed instance must be able to open it at once.
            try (Connection connection = ownedPool.getConnection(); Statement statement = connection.createStatement()) {
                statement.execute("SHUTDOWN");
            } catch (SQLException e) {
                log.warn("H2 shutdown failed: {}", e.getMessage());
            }
        }
        try {
            ownedPool.close();
        } catch (SQLException e) {
            log.warn("Closing the application database pool failed: {}", e.getMessage());
        }
    }
}
