package io.quarry.persistence;

import io.quarry.driver.Driver;
import io.quarry.driver.SqlDialect;
import io.quarry.qp.CompiledQuery;
import io.quarry.qp.QueryFailure;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The tables of persisted models in their own databases: the cache schema, its privilege check, building a model's
 * table and swapping it in, and dropping it. Only identifiers Quarry made (schema and table names from ids, the
 * columns of a compiled query) are spliced into DDL, always quoted by the engine's dialect; the model's bind values
 * stay bind values.
 *
 * <p>A refresh builds {@code <table>_new} in full ({@code CREATE TABLE} from the query's result columns, then
 * {@code INSERT INTO ... SELECT}, inside the database, as Metabase does), then swaps it in: PostgreSQL drops the old
 * table and renames the new one in one transaction (readers see the old table or the new one, never neither);
 * MySQL/MariaDB renames both in one atomic {@code RENAME TABLE}; on H2, which commits each DDL statement, the
 * model's name is a view re-pointed in one {@code CREATE OR REPLACE VIEW} at a new version of the table
 * ({@link #swapH2}). A failed build drops its own table and leaves the old one as it was.
 */
final class CacheTables {
    /**
     * The engines whose connections can create tables (DuckDB files are opened read-write while persistence is on for
     * them; SQLite files stay read-only).
     */
    static final Set<String> ENGINES = Set.of("postgres", "h2", "mysql", "duckdb");
    /** How long a swap or drop looks for a moment no query reads the persisted tables (see {@link #holding}). */
    static final java.time.Duration SWAP_WAIT = java.time.Duration.ofMinutes(5);

    private final DatabaseService databases;

    CacheTables(DatabaseService databases) {
        this.databases = Objects.requireNonNull(databases, "databases is null");
    }

    /** A column of a built table, and its Metabase base type. */
    record BuiltColumn(String name, String baseType) {
    }

    /**
     * Creates the cache schema when missing and proves the connection user can create, fill, read and drop a table in
     * it. Returns null when it can, else what is missing, naming the privilege.
     */
    String checkSchema(Database database, String schema) {
        SqlDialect d = dialect(database);
        String probe = d.qualify(schema, "cache_info");
        try (Connection c = databases.connect(database, true); Statement s = c.createStatement()) {
            try {
                s.execute("CREATE SCHEMA IF NOT EXISTS " + d.quote(schema));
            } catch (SQLException e) {
                return "The database user cannot create the cache schema " + schema + ": it needs the CREATE privilege on the "
                        + "database (" + e.getMessage().strip() + ")";
            }
            try {
                s.execute("DROP TABLE IF EXISTS " + probe);
                s.execute("CREATE TABLE " + probe + " (" + d.quote("key") + " VARCHAR(32), " + d.quote("value") + " VARCHAR(32))");
                s.execute("INSERT INTO " + probe + " VALUES ('quarry', 'check')");
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + probe)) {
                    rs.next();
                }
                s.execute("DROP TABLE " + probe);
            } catch (SQLException e) {
                return "The database user cannot create tables in the cache schema " + schema + ": it needs the CREATE and "
                        + "USAGE privileges on that schema (" + e.getMessage().strip() + ")";
            }
            return null;
        } catch (SQLException e) {
            return "Could not connect to the database to check the cache schema " + schema + ": " + e.getMessage();
        }
    }

    /**
     * Builds the model's table from its compiled query and swaps it in for {@code table}. Returns the table's columns;
     * a failure is a {@link QueryFailure} with the database's message (the old table is untouched).
     */
    List<BuiltColumn> build(Database database, String schema, String table, CompiledQuery compiled) {
        Driver driver = databases.driverOf(database);
        SqlDialect d = driver.dialect();
        String building = d.qualify(schema, table + "_new");
        String source = "(" + stripSemicolons(compiled.sql()) + ") " + d.quote("source");
        try (Connection c = databases.connect(database, true)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA IF NOT EXISTS " + d.quote(schema));
                s.execute("DROP TABLE IF EXISTS " + building);
            }
            List<BuiltColumn> columns = new ArrayList<>();
            List<String> definitions = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM " + source + " WHERE 1 = 0")) {
                bind(ps, compiled.params());
                try (ResultSet rs = ps.executeQuery()) {
                    ResultSetMetaData md = rs.getMetaData();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        String name = md.getColumnLabel(i);
                        columns.add(new BuiltColumn(name, driver.baseType(md.getColumnType(i), md.getColumnTypeName(i))));
                        definitions.add(d.quote(name) + " " + columnType(database.engine, md, i));
                    }
                }
            }
            try {
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE " + building + " (" + String.join(", ", definitions) + ")");
                }
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + building + " SELECT * FROM " + source)) {
                    bind(ps, compiled.params());
                    ps.executeUpdate();
                }
                holding(swapsOf(driver, database), () -> swap(c, database.engine, d, schema, table));
            } catch (SQLException e) {
                try (Statement s = c.createStatement()) {
                    s.execute("DROP TABLE IF EXISTS " + building);
                } catch (SQLException ignored) {
                    // the build already failed; the next refresh drops what is left of it first
                }
                throw e;
            }
            return columns;
        } catch (SQLException e) {
            throw new QueryFailure(QueryFailure.Type.DRIVER, e.getMessage(), e.getSQLState(), e);
        }
    }

    /** Drops a model's table (and any half-built one); false when the database refused. */
    boolean drop(Database database, String schema, String table) {
        Driver driver = databases.driverOf(database);
        SqlDialect d = driver.dialect();
        try (Connection c = databases.connect(database, true); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + d.qualify(schema, table + "_new"));
            holding(swapsOf(driver, database), () -> {
                if ("h2".equals(database.engine)) {
                    if ("VIEW".equals(kind(c, schema, table))) {
                        s.execute("DROP VIEW " + d.qualify(schema, table));
                    }
                    for (long version : versions(c, schema, table)) {
                        s.execute("DROP TABLE IF EXISTS " + d.qualify(schema, table + "_v" + version));
                    }
                }
                s.execute("DROP TABLE IF EXISTS " + d.qualify(schema, table));
            });
            return true;
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    /** DDL on a database's persisted tables. */
    private interface Ddl {
        void run() throws SQLException;
    }

    /**
     * The lock swaps and drops of the database's persisted tables hold, where its engine needs one so that no query
     * reads them at that moment (see {@link Driver#persistedTablesLock}); null elsewhere.
     */
    private static java.util.concurrent.locks.Lock swapsOf(Driver driver, Database database) {
        java.util.concurrent.locks.ReadWriteLock lock = driver.persistedTablesLock(database.id);
        return lock == null ? null : lock.writeLock();
    }

    /**
     * Runs {@code ddl} holding {@code lock} (when not null), taken at a moment no query reads the persisted tables.
     * The lock is tried, never waited for in its queue: a waiting writer would hold up every query that comes after
     * it behind one long query. A swap that finds no such moment within {@link #SWAP_WAIT} fails (the refresh records
     * the error and the old table keeps serving until the next one).
     */
    private static void holding(java.util.concurrent.locks.Lock lock, Ddl ddl) throws SQLException {
        if (lock == null) {
            ddl.run();
            return;
        }
        long deadline = System.nanoTime() + SWAP_WAIT.toNanos();
        while (!lock.tryLock()) {
            if (System.nanoTime() - deadline > 0) {
                throw new SQLException("The model's table was being read without a pause for " + SWAP_WAIT.toMinutes()
                        + " minutes; the new version was not swapped in.");
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("Interrupted while waiting to swap in the model's table.", e);
            }
        }
        try {
            ddl.run();
        } finally {
            lock.unlock();
        }
    }

    /** The new table replaces the old one, in one step readers cannot see between. */
    private static void swap(Connection c, String engine, SqlDialect d, String schema, String table) throws SQLException {
        String target = d.qualify(schema, table);
        String building = d.qualify(schema, table + "_new");
        if ("mysql".equals(engine)) {
            String old = d.qualify(schema, table + "_old");
            try (Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + old);
                if (exists(c, schema, table)) {
                    s.execute("RENAME TABLE " + target + " TO " + old + ", " + building + " TO " + target);
                    s.execute("DROP TABLE " + old);
                } else {
                    s.execute("RENAME TABLE " + building + " TO " + target);
                }
            }
            return;
        }
        if ("h2".equals(engine)) {
            swapH2(c, d, schema, table);
            return;
        }
        // PostgreSQL and DuckDB: DDL is transactional
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + target);
            s.execute("ALTER TABLE " + building + " RENAME TO " + d.quote(table));
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    /**
     * H2 commits every DDL statement on its own, so a drop and a rename would leave a moment without the table.
     * There the model's name is a view over a versioned table ({@code <table>_v<n>}): the new version is renamed
     * from {@code _new} (a table no reader knows), then {@code CREATE OR REPLACE VIEW} points the view at it in one
     * statement (a reader sees the old version or the new one). The version just replaced stays until the next
     * refresh; older ones are dropped. H2 does not isolate that DDL from statements reading the view at that moment
     * (they can fail with "Column not found"), so it runs under the database's persisted-tables lock, which queries
     * reading the cache schema hold while they execute, taken when none does ({@link #holding}).
     */
    private static void swapH2(Connection c, SqlDialect d, String schema, String table) throws SQLException {
        List<Long> versions = versions(c, schema, table);
        long next = versions.isEmpty() ? 1 : versions.get(versions.size() - 1) + 1;
        String version = table + "_v" + next;
        try (Statement s = c.createStatement()) {
            s.execute("ALTER TABLE " + d.qualify(schema, table + "_new") + " RENAME TO " + d.quote(version));
            if ("TABLE".equals(kind(c, schema, table))) {
                s.execute("DROP TABLE " + d.qualify(schema, table)); // a table built before views were used, once
            }
            s.execute("CREATE OR REPLACE VIEW " + d.qualify(schema, table) + " AS SELECT * FROM " + d.qualify(schema, version));
            for (int i = 0; i < versions.size() - 1; i++) {
                s.execute("DROP TABLE IF EXISTS " + d.qualify(schema, table + "_v" + versions.get(i)));
            }
        }
    }

    /** The version numbers of a model's H2 tables ({@code <table>_v<n>}), ascending. */
    private static List<Long> versions(Connection c, String schema, String table) throws SQLException {
        List<Long> versions = new ArrayList<>();
        String prefix = table + "_v";
        try (ResultSet rs = c.getMetaData().getTables(null, schema, null, new String[]{"TABLE", "BASE TABLE"})) {
            while (rs.next()) {
                String name = rs.getString("TABLE_NAME");
                if (schema.equals(rs.getString("TABLE_SCHEM")) && name.startsWith(prefix) && name.substring(prefix.length()).matches("[0-9]{1,18}")) {
                    versions.add(Long.parseLong(name.substring(prefix.length())));
                }
            }
        }
        versions.sort(null);
        return versions;
    }

    /** {@code TABLE}, {@code VIEW} or null (missing) for an object of the schema. */
    private static String kind(Connection c, String schema, String name) throws SQLException {
        try (ResultSet rs = c.getMetaData().getTables(null, schema, name, null)) {
            while (rs.next()) {
                if (schema.equals(rs.getString("TABLE_SCHEM")) && name.equals(rs.getString("TABLE_NAME"))) {
                    String type = rs.getString("TABLE_TYPE");
                    return type != null && type.toUpperCase(Locale.ROOT).contains("VIEW") ? "VIEW" : "TABLE";
                }
            }
        }
        return null;
    }

    private static boolean exists(Connection c, String schema, String table) throws SQLException {
        try (ResultSet rs = c.getMetaData().getTables(schema, null, table, null)) {
            if (rs.next()) {
                return true;
            }
        }
        try (ResultSet rs = c.getMetaData().getTables(null, schema, table, null)) {
            return rs.next();
        }
    }

    /**
     * The column's type in {@code CREATE TABLE}: the engine's own name of the result column's type, with the length,
     * precision and scale an engine needs (MySQL wants a length on VARCHAR; decimals keep their scale).
     */
    static String columnType(String engine, ResultSetMetaData md, int i) throws SQLException {
        String type = md.getColumnTypeName(i);
        String upper = type.toUpperCase(Locale.ROOT);
        int precision = md.getPrecision(i);
        int scale = md.getScale(i);
        if (upper.equals("NUMERIC") || upper.equals("DECIMAL")) {
            return precision > 0 && precision <= 1000 && scale >= 0 && scale <= precision ? type + "(" + precision + ", " + scale + ")" : type;
        }
        if ("mysql".equals(engine)) {
            if (upper.equals("VARCHAR") || upper.equals("CHAR")) {
                return precision > 0 && precision <= 16383 ? type + "(" + precision + ")" : "LONGTEXT";
            }
            if (upper.equals("VARBINARY") || upper.equals("BINARY")) {
                return precision > 0 && precision <= 65535 ? type + "(" + precision + ")" : "LONGBLOB";
            }
        }
        if ("h2".equals(engine) && (upper.equals("CHARACTER") || upper.equals("CHAR"))) {
            return precision > 0 ? type + "(" + precision + ")" : type;
        }
        return type;
    }

    private static void bind(PreparedStatement ps, List<Object> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            ps.setObject(i + 1, params.get(i));
        }
    }

    private static String stripSemicolons(String sql) {
        String trimmed = sql.strip();
        while (trimmed.endsWith(";")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1).stripTrailing();
        }
        return trimmed;
    }

    private SqlDialect dialect(Database database) {
        return databases.driverOf(database).dialect();
    }
}
