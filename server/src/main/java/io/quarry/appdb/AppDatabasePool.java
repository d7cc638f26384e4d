package io.quarry.appdb;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Properties;
import javax.management.ObjectName;
import org.apache.commons.dbcp2.ConnectionFactory;
import org.apache.commons.dbcp2.DriverConnectionFactory;
import org.apache.commons.dbcp2.PoolableConnection;
import org.apache.commons.pool2.DestroyMode;
import org.apache.commons.pool2.PooledObject;

/**
 * The pool of a PostgreSQL application database, which bounds how long a request waits on the database when it
 * freezes (a stalled disk or network, a {@code SIGSTOP}ped server: the socket stays open and nothing answers).
 *
 * <p>On a request's thread (see {@link RequestWaits}) every wait is cut to the request timeout, counted from the
 * request's last {@link #getConnection()}: each read on the connection (its network timeout), validating an idle
 * connection, opening a new one (login), and waiting for a free one ({@code maxWait}). Once a connection failed the
 * request, the pool does not try another idle connection nor open one for it, which would wait again: before, a
 * connection lost after the 30 s socket timeout was replaced at once, on the request's thread, by a login that waited
 * 10 s more (a card write answered after 40 s). On other threads the connection keeps the socket timeout of the
 * connection properties, and opening one the connect timeouts.
 */
final class AppDatabasePool extends WarmDataSource {
    private final int requestMillis;
    private final int socketMillis;
    private final int connectSeconds;

    AppDatabasePool(AppDatabase.Timeouts timeouts) {
        this.requestMillis = timeouts.requestSeconds() * 1000;
        this.socketMillis = timeouts.socketSeconds() * 1000;
        this.connectSeconds = timeouts.connectSeconds();
    }

    @Override
    public Connection getConnection() throws SQLException {
        RequestWaits.Wait wait = RequestWaits.current();
        if (wait != null) {
            wait.borrowing();
        }
        Connection connection = super.getConnection();
        int timeout = wait != null ? requestMillis : socketMillis;
        try {
            if (connection.getNetworkTimeout() != timeout) {
                connection.setNetworkTimeout(Runnable::run, timeout);
            }
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /**
     * Opens connections with the login cut to what is left of the request's wait; none for a request already failed
     * (also when a lost connection is given back and the pool would replace it at once for a waiter).
     */
    @Override
    protected ConnectionFactory createConnectionFactory() throws SQLException {
        ConnectionFactory standard = super.createConnectionFactory();
        if (!(standard instanceof DriverConnectionFactory driver)) {
            return standard;
        }
        return () -> {
            RequestWaits.Wait wait = RequestWaits.current();
            if (wait == null) {
                return driver.createConnection();
            }
            long remaining = wait.remainingMillis(requestMillis);
            if (wait.hasFailed() || remaining < 1000) {
                throw refused();
            }
            Properties properties = new Properties();
            properties.putAll(driver.getProperties());
            String seconds = String.valueOf(Math.min(connectSeconds, remaining / 1000));
            properties.setProperty("connectTimeout", seconds);
            properties.setProperty("loginTimeout", seconds);
            try {
                Connection connection = driver.getDriver().connect(driver.getConnectionString(), properties);
                if (connection == null) {
                    throw new SQLException("The driver does not accept " + driver.getConnectionString());
                }
                return connection;
            } catch (SQLException e) {
                wait.failed();
                throw e;
            }
        };
    }

    private static SQLException refused() {
        return new SQLTransientConnectionException(
                "The application database did not answer this request in time; no new connection is opened for it", "08001");
    }

    @Override
    IdleValidatingFactory newFactory(ConnectionFactory driverFactory, ObjectName jmxName) {
        return new BoundedFactory(driverFactory, jmxName);
    }

    private final class BoundedFactory extends IdleValidatingFactory {
        BoundedFactory(ConnectionFactory connectionFactory, ObjectName jmxName) {
            super(connectionFactory, jmxName);
        }

        @Override
        public boolean validateObject(PooledObject<PoolableConnection> pooled) {
            RequestWaits.Wait wait = RequestWaits.current();
            if (wait == null || recentlyReturned(pooled.getLastReturnInstant(), java.time.Instant.now())) {
                return super.validateObject(pooled);
            }
            long remaining = wait.remainingMillis(requestMillis);
            if (wait.hasFailed() || remaining <= 0) {
                return false;
            }
            Connection raw = pooled.getObject().getInnermostDelegateInternal();
            boolean valid;
            try {
                // The validation query's timeout alone does not end a read from a server that answers nothing.
                raw.setNetworkTimeout(Runnable::run, (int) Math.min(remaining, connectSeconds * 1000L));
                valid = super.validateObject(pooled);
            } catch (SQLException e) {
                valid = false;
            }
            if (!valid) {
                wait.failed();
            }
            return valid;
        }

        @Override
        public void destroyObject(PooledObject<PoolableConnection> pooled, DestroyMode mode) throws SQLException {
            RequestWaits.Wait wait = RequestWaits.current();
            if (wait != null && isClosedByDriver(pooled)) {
                wait.failed();
            }
            super.destroyObject(pooled, mode);
        }

        private boolean isClosedByDriver(PooledObject<PoolableConnection> pooled) {
            try {
                Connection raw = pooled.getObject().getInnermostDelegateInternal();
                return raw == null || raw.isClosed();
            } catch (SQLException e) {
                return true;
            }
        }
    }
}
