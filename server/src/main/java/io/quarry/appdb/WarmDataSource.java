package io.quarry.appdb;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import javax.management.ObjectName;
import javax.sql.DataSource;
import org.apache.commons.dbcp2.BasicDataSource;
import org.apache.commons.dbcp2.ConnectionFactory;
import org.apache.commons.dbcp2.PoolableConnection;
import org.apache.commons.dbcp2.PoolableConnectionFactory;
import org.apache.commons.pool2.PooledObject;

/**
 * A dbcp2 data source whose borrow path takes no monitor ({@link BasicDataSource#getConnection()} enters the
 * synchronized {@code createDataSource} on every call) and whose borrow-time validation is skipped for a connection
 * returned less than {@link #VALIDATE_AFTER_IDLE} ago. Used by the target-database pools and the application
 * database's own pool.
 */
public class WarmDataSource extends BasicDataSource {
    /** A connection idle for longer than this is validated when borrowed (HikariCP's default bypass window). */
    public static final Duration VALIDATE_AFTER_IDLE = Duration.ofMillis(500);

    private volatile DataSource ready;

    @Override
    public Connection getConnection() throws SQLException {
        DataSource pool = ready;
        if (pool == null) {
            pool = createDataSource();
            ready = pool;
        }
        return pool.getConnection();
    }

    @Override
    public synchronized void close() throws SQLException {
        ready = null;
        super.close();
    }

    @Override
    protected PoolableConnectionFactory createPoolableConnectionFactory(ConnectionFactory driverFactory) throws SQLException {
        PoolableConnectionFactory configured = super.createPoolableConnectionFactory(driverFactory);
        IdleValidatingFactory factory = newFactory(driverFactory, configured.getDataSourceJmxName());
        factory.setValidationQuery(configured.getValidationQuery());
        factory.setValidationQueryTimeout(configured.getValidationQueryTimeoutDuration());
        factory.setConnectionInitSql(configured.getConnectionInitSqls());
        factory.setDefaultReadOnly(configured.getDefaultReadOnly());
        factory.setDefaultAutoCommit(configured.getDefaultAutoCommit());
        factory.setDefaultTransactionIsolation(configured.getDefaultTransactionIsolation());
        factory.setDefaultCatalog(configured.getDefaultCatalog());
        factory.setDefaultSchema(configured.getDefaultSchema());
        factory.setCacheState(configured.getCacheState());
        factory.setPoolStatements(configured.getPoolStatements());
        factory.setMaxConn(configured.getMaxConnDuration());
        factory.setRollbackOnReturn(configured.isRollbackOnReturn());
        factory.setAutoCommitOnReturn(configured.isAutoCommitOnReturn());
        factory.setDefaultQueryTimeout(configured.getDefaultQueryTimeoutDuration());
        factory.setFastFailValidation(configured.isFastFailValidation());
        factory.setDisconnectionSqlCodes(configured.getDisconnectionSqlCodes());
        factory.setDisconnectionIgnoreSqlCodes(configured.getDisconnectionIgnoreSqlCodes());
        return factory;
    }

    /** The pool's connection factory: a subclass may bound what it does (see {@link AppDatabasePool}). */
    IdleValidatingFactory newFactory(ConnectionFactory driverFactory, ObjectName jmxName) {
        return new IdleValidatingFactory(driverFactory, jmxName);
    }

    /**
     * Validates a connection on borrow only when it was returned more than {@link #VALIDATE_AFTER_IDLE} ago; one the
     * driver has closed (after a broken link) is never handed out.
     */
    static class IdleValidatingFactory extends PoolableConnectionFactory {
        IdleValidatingFactory(ConnectionFactory connectionFactory, ObjectName jmxName) {
            super(connectionFactory, jmxName);
        }

        @Override
        public boolean validateObject(PooledObject<PoolableConnection> pooled) {
            if (recentlyReturned(pooled.getLastReturnInstant(), Instant.now())) {
                try {
                    Connection raw = pooled.getObject().getInnermostDelegateInternal();
                    return raw != null && !raw.isClosed();
                } catch (SQLException e) {
                    return false;
                }
            }
            return super.validateObject(pooled);
        }
    }

    public static boolean recentlyReturned(Instant lastReturn, Instant now) {
        return lastReturn != null && !lastReturn.equals(Instant.EPOCH) && lastReturn.isAfter(now.minus(VALIDATE_AFTER_IDLE));
    }
}
