package io.quarry.persistence;

import io.quarry.driver.Driver;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.StatementKind;
import io.quarry.qp.CompiledQuery;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.WarehouseSession;
import io.quarry.qp.Warehouses;
import io.quarry.warehouse.Database;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The tables of persisted models in their own databases: the cache schema, its privilege check, building a model's
 * table and swapping it in, and dropping it. Only identifiers Quarry made (schema and table names from ids, the
 * columns of a compiled query) are spliced into DDL, always quoted by the engine's dialect; the model's bind values
 * stay bind values.
 *
 * <p>A refresh builds {@code <table>_new} in full ({@code CREATE TABLE} from the query's result columns, then
 * {@code INSERT INTO ... SELECT}, inside the database, as Metabase does), then swaps it in the engine's way
 * ({@link io.quarry.driver.PersistedTableDdl}: one transaction, one atomic rename, or a view re-pointed at a new
 * version), so readers see the old table or the new one, never neither. A failed build drops its own table and leaves
 * the old one as it was. Everything runs on the query runner's write sessions ({@link Warehouses#write}), whose
 * statements the engine checks.
 */
final class CacheTables {
    /** How long a swap or drop looks for a moment no query reads the persisted tables (see {@link #holding}). */
    static final java.time.Duration SWAP_WAIT = java.time.Duration.ofMinutes(5);

    private final Warehouses warehouses;

    CacheTables(Warehouses warehouses) {
        this.warehouses = Objects.requireNonNull(warehouses, "warehouses is null");
    }

    /** A column of a built table, and its Metabase base type. */
    record BuiltColumn(String name, String baseType) {
    }

    /**
     * Creates the cache schema when missing and proves the connection user can create, fill, read and drop a table in
     * it. Returns null when it can, else what is missing, naming the privilege.
     */
    String checkSchema(Database database, String schema) {
        try {
            return warehouses.write(database, StatementKind.WRITE_TABLES, session -> {
                SqlDialect d = session.dialect();
                String probe = d.qualify(schema, "cache_info");
                try {
                    createSchema(session, schema);
                } catch (SQLException e) {
                    return "The database user cannot create the cache schema " + schema + ": it needs the CREATE privilege on the "
                            + "database (" + e.getMessage().strip() + ")";
                }
                try {
                    session.update("DROP TABLE IF EXISTS " + probe, List.of(), false);
                    session.update("CREATE TABLE " + probe + " (" + d.quote("key") + " VARCHAR(32), " + d.quote("value")
                            + " VARCHAR(32))", List.of(), false);
                    session.update("INSERT INTO " + probe + " VALUES ('quarry', 'check')", List.of(), false);
                    session.rows("SELECT COUNT(*) FROM " + probe, List.of(), false, 1);
                    session.update("DROP TABLE " + probe, List.of(), false);
                } catch (SQLException e) {
                    return "The database user cannot create tables in the cache schema " + schema + ": it needs the CREATE and "
                            + "USAGE privileges on that schema (" + e.getMessage().strip() + ")";
                }
                return null;
            });
        } catch (SQLException e) {
            return "Could not connect to the database to check the cache schema " + schema + ": " + e.getMessage();
        }
    }

    /**
     * Creates the schema unless it is there: a user that owns an existing schema but may not create schemas (the
     * Sample Database's) must not be asked to, since some engines (H2) check that right even for {@code IF NOT EXISTS}.
     */
    private static void createSchema(WarehouseSession session, String schema) throws SQLException {
        try (java.sql.ResultSet schemas = session.metadata().getSchemas(session.catalog(), schema)) {
            while (schemas.next()) {
                if (schema.equals(schemas.getString("TABLE_SCHEM"))) {
                    return;
                }
            }
        }
        session.update("CREATE SCHEMA IF NOT EXISTS " + session.dialect().quote(schema), List.of(), false);
    }

    /**
     * Builds the model's table from its compiled query and swaps it in for {@code table}. Returns the table's columns;
     * a failure is a {@link QueryFailure} with the database's message (the old table is untouched).
     */
    List<BuiltColumn> build(Database database, String schema, String table, CompiledQuery compiled) {
        String sql = stripSemicolons(compiled.sql());
        try {
            return warehouses.write(database, StatementKind.WRITE_TABLES, session -> {
                SqlDialect d = session.dialect();
                String building = d.qualify(schema, table + "_new");
                String source = "(" + sql + ") " + d.quote("source");
                createSchema(session, schema);
                session.update("DROP TABLE IF EXISTS " + building, List.of(), false);
                List<BuiltColumn> columns = new ArrayList<>();
                List<String> definitions = new ArrayList<>();
                for (WarehouseSession.DescribedColumn column : session.describe("SELECT * FROM " + source + " WHERE 1 = 0",
                        compiled.params(), compiled.authored())) {
                    columns.add(new BuiltColumn(column.name(), column.baseType()));
                    definitions.add(d.quote(column.name()) + " " + column.ddlType());
                }
                try {
                    session.update("CREATE TABLE " + building + " (" + String.join(", ", definitions) + ")", List.of(), false);
                    session.update("INSERT INTO " + building + " SELECT * FROM " + source, compiled.params(), compiled.authored());
                    holding(swapsOf(session.driver(), database), () -> session.swapPersistedTable(schema, table));
                } catch (SQLException e) {
                    try {
                        session.update("DROP TABLE IF EXISTS " + building, List.of(), false);
                    } catch (SQLException ignored) {
                        // the build already failed; the next refresh drops what is left of it first
                    }
                    throw e;
                }
                return columns;
            });
        } catch (SQLException e) {
            throw new QueryFailure(QueryFailure.Type.DRIVER, e.getMessage(), e.getSQLState(), e);
        }
    }

    /**
     * Drops a model's table (and any half-built one); false when the database refused. Quarry drops its own tables
     * also once persistence is off for the database (that is when they go), so the door is asked with the option on.
     */
    boolean drop(Database database, String schema, String table) {
        Map<String, Object> holdingModels = new java.util.LinkedHashMap<>(database.settings == null ? Map.of() : database.settings);
        holdingModels.put(PersistedTables.DATABASE_SETTING, true);
        try {
            return warehouses.write(database.withSettings(holdingModels), StatementKind.WRITE_TABLES, session -> {
                session.update("DROP TABLE IF EXISTS " + session.dialect().qualify(schema, table + "_new"), List.of(), false);
                holding(swapsOf(session.driver(), database), () -> session.dropPersistedTable(schema, table));
                return true;
            });
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

    private static String stripSemicolons(String sql) {
        String trimmed = sql.strip();
        while (trimmed.endsWith(";")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1).stripTrailing();
        }
        return trimmed;
    }
}
