package io.quarry.dashboard;

import io.quarry.testing.AppDbSql;
import io.quarry.testing.TestServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Collections and grants written straight into the application database (there is no collection endpoint yet). */
public final class ContentSql {
    private ContentSql() {
    }

    /** A top-level collection with no permission rows: ordinary users have no rights on it. */
    public static long collection(TestServer server, String name) {
        try (Connection c = AppDbSql.connect(server);
             PreparedStatement s = c.prepareStatement("INSERT INTO collection (entity_id, name, slug, location, created_at)"
                     + " VALUES (?, ?, ?, '/', ?)", Statement.RETURN_GENERATED_KEYS)) {
            s.setString(1, io.quarry.core.EntityIds.next());
            s.setString(2, name);
            s.setString(3, name.toLowerCase().replace(' ', '_'));
            s.setObject(4, OffsetDateTime.now(ZoneOffset.UTC));
            s.executeUpdate();
            try (ResultSet keys = s.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Gives All Users (group 1) {@code read} or {@code write} on a collection. */
    public static void grant(TestServer server, long collectionId, String perm) {
        execute(server, "DELETE FROM collection_permission WHERE group_id = 1 AND collection_id = " + collectionId);
        execute(server, "INSERT INTO collection_permission (group_id, collection_id, perm) VALUES (1, " + collectionId + ", '" + perm + "')");
    }

    public static void revoke(TestServer server, long collectionId) {
        execute(server, "DELETE FROM collection_permission WHERE group_id = 1 AND collection_id = " + collectionId);
    }

    public static void execute(TestServer server, String sql) {
        try (Connection c = AppDbSql.connect(server); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }
}
