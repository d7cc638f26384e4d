package io.quarry.testing;

import io.quarry.core.AppConfig;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Plain JDBC on a test server's application database, to check what the API wrote (or did not write). The H2 file is
 * opened in-process, which H2 allows beside the server's own connections. Drivers are instantiated directly: the
 * webapp deregisters them from DriverManager when a test server stops.
 */
public final class AppDbSql {
    private AppDbSql() {
    }

    /**
     * A connection of the test's own to the server's application database. What it changes bypasses Quarry, so its
     * close bumps the cache revision as Quarry's own transactions do (and tells the running instance), for caches not
     * to keep what the test replaced.
     */
    public static Connection connect(TestServer server) throws SQLException {
        Connection raw = open(server);
        return (Connection) java.lang.reflect.Proxy.newProxyInstance(AppDbSql.class.getClassLoader(), new Class<?>[]{Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close") && !raw.isClosed()) {
                        try {
                            bumpCacheRevision(raw);
                            if (!raw.getAutoCommit()) {
                                raw.commit();
                            }
                        } finally {
                            raw.close();
                        }
                        cacheChanged(server);
                        return null;
                    }
                    try {
                        return method.invoke(raw, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** Bumps the application database's cache revision on this connection (a change made outside Quarry). */
    public static void bumpCacheRevision(Connection connection) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("UPDATE quarry_cache_revision SET revision = revision + 1 WHERE id = 1")) {
            s.executeUpdate();
        }
    }

    private static void cacheChanged(TestServer server) {
        try {
            server.quarry().appDatabase.cacheRevision().changed();
        } catch (IllegalStateException stopped) {
            // the instance is not running: it reads the revision afresh when it starts
        }
    }

    private static Connection open(TestServer server) throws SQLException {
        AppConfig config = new AppConfig(AppConfig.layered(server.config));
        Driver driver = config.dbType == AppConfig.DbType.H2 ? new org.h2.Driver() : new org.postgresql.Driver();
        Properties props = new Properties();
        if (config.dbUser != null) {
            props.setProperty("user", config.dbUser);
        }
        if (config.dbPassword != null) {
            props.setProperty("password", config.dbPassword);
        }
        return driver.connect(config.dbUrl, props);
    }

    /** The first column of the first row (null when there is none). */
    public static Object value(TestServer server, String sql, Object... params) {
        try (Connection connection = open(server); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    return null;
                }
                Object value = rows.getObject(1);
                return value instanceof java.sql.Clob clob ? clob.getSubString(1, (int) clob.length()) : value;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    public static long count(TestServer server, String sql, Object... params) {
        return ((Number) value(server, sql, params)).longValue();
    }

    /**
     * The columns of each index on {@code table} (index names and columns lower-cased, columns in order): the
     * application database's own metadata, as H2 (upper-case names) and PostgreSQL (lower-case) report it.
     */
    public static Map<String, List<String>> indexes(TestServer server, String table) {
        Map<String, List<String>> indexes = new TreeMap<>();
        try (Connection connection = open(server)) {
            for (String name : new String[]{table.toLowerCase(Locale.ROOT), table.toUpperCase(Locale.ROOT)}) {
                try (ResultSet rs = connection.getMetaData().getIndexInfo(null, null, name, false, false)) {
                    while (rs.next()) {
                        if (rs.getString("INDEX_NAME") != null && rs.getString("COLUMN_NAME") != null) {
                            indexes.computeIfAbsent(rs.getString("INDEX_NAME").toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                                    .add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                        }
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return indexes;
    }
}
