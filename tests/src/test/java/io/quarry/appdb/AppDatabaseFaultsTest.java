package io.quarry.appdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.sql.SQLException;
import java.util.NoSuchElementException;
import org.apache.ibatis.exceptions.PersistenceException;
import org.junit.jupiter.api.Test;

class AppDatabaseFaultsTest {
    @Test
    void h2UrlWritesEveryCommit() {
        assertEquals("jdbc:h2:file:/data/q;DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0",
                AppDatabase.durableH2("jdbc:h2:file:/data/q;DB_CLOSE_ON_EXIT=FALSE"));
    }

    @Test
    void explicitWriteDelayIsKept() {
        assertEquals("jdbc:h2:file:/data/q;write_delay=500", AppDatabase.durableH2("jdbc:h2:file:/data/q;write_delay=500"));
    }

    @Test
    void connectionClassFailuresAreOutages() {
        assertTrue(AppDatabaseStatus.isConnectionFailure(new PersistenceException(new SQLException("refused", "08001"))));
        assertTrue(AppDatabaseStatus.isConnectionFailure(new PersistenceException(new SQLException("I/O error", "08006"))));
        assertTrue(AppDatabaseStatus.isConnectionFailure(new SQLException("terminating connection due to administrator command", "57P01")));
        assertTrue(AppDatabaseStatus.isConnectionFailure(new SQLException("Cannot get a connection, pool error Timeout waiting for idle object",
                new NoSuchElementException("Timeout waiting for idle object"))));
        assertTrue(AppDatabaseStatus.isConnectionFailure(new SQLException("Cannot create PoolableConnectionFactory (Connection refused)",
                new ConnectException("Connection refused"))));
    }

    @Test
    void statementFailuresAreNotOutages() {
        assertFalse(AppDatabaseStatus.isConnectionFailure(new PersistenceException(new SQLException("duplicate key", "23505"))));
        assertFalse(AppDatabaseStatus.isConnectionFailure(new PersistenceException(new SQLException("syntax error", "42601"))));
        assertFalse(AppDatabaseStatus.isConnectionFailure(new IllegalStateException("boom")));
    }

    @Test
    void outageIsRecordedOnceUntilAnswered() {
        AppDatabaseStatus status = new AppDatabaseStatus();
        assertTrue(status.available());
        status.failed(new SQLException("refused", "08001"));
        status.failed(new SQLException("refused", "08001"));
        assertFalse(status.available());
        status.answered();
        assertTrue(status.available());
    }
}
