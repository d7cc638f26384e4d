package io.quarry.testing;

import io.quarry.boot.Quarry;
import io.quarry.user.User;
import io.quarry.user.UserMapper;
import io.quarry.user.UserService;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Arranging state inside a running {@link TestServer} that the API cannot (yet) arrange: users while there is no user
 * endpoint, timestamps moved into the past, a look at what is stored. Assertions about behaviour still go over HTTP.
 */
public final class InProcess {
    private InProcess() {
    }

    public static User createUser(TestServer server, String email, String password, boolean superuser) {
        Quarry q = server.quarry();
        return q.db.tx(session -> q.users.insert(session, new UserService.NewUser(email, "First", "Last", password, superuser, null, null)));
    }

    public static User findUser(TestServer server, String email) {
        return server.quarry().db.with(UserMapper.class, m -> m.findUserByEmail(email));
    }

    /** Runs one update statement against the application database and returns the row count. */
    public static int update(TestServer server, String sql, Object... args) {
        try (Connection c = server.quarry().appDatabase.dataSource().getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            int rows = s.executeUpdate();
            AppDbSql.bumpCacheRevision(c);
            if (!c.getAutoCommit()) {
                c.commit();
            }
            server.quarry().appDatabase.cacheRevision().changed();
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The single number a query answers (a count, say). */
    public static long number(TestServer server, String sql, Object... args) {
        try (Connection c = server.quarry().appDatabase.dataSource().getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
