package io.quarry.testing;

import io.quarry.boot.Quarry;
import io.quarry.driver.StatementKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * SQL on a connected database through Quarry's own door ({@link io.quarry.qp.Warehouses}), for tests of engines that
 * let one process open a file in one configuration only (DuckDB), or that check what Quarry's connections may do.
 */
public final class ThroughQuarry {
    private ThroughQuarry() {
    }

    /** The rows of a read, each as its values' text joined by {@code |}. */
    public static List<String> rows(Quarry quarry, long databaseId, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        for (Object[] row : quarry.warehouses.read(quarry.databases.require(databaseId), s -> s.rows(sql, List.of(), false, 0))) {
            List<String> values = new ArrayList<>();
            for (Object value : row) {
                values.add(String.valueOf(value));
            }
            out.add(String.join("|", values));
        }
        return out;
    }

    /** A read's one number (a count). */
    public static long count(Quarry quarry, long databaseId, String sql) throws SQLException {
        return Long.parseLong(rows(quarry, databaseId, sql).get(0));
    }

    /** Runs one statement of Quarry's own table writes (CREATE, ALTER, INSERT, DELETE ...) on a database Quarry may write to. */
    public static void execute(Quarry quarry, long databaseId, String sql) throws SQLException {
        quarry.warehouses.write(quarry.databases.require(databaseId), StatementKind.WRITE_TABLES, s -> s.update(sql, List.of(), false));
    }
}
