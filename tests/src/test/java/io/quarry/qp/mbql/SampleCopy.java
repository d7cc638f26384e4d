package io.quarry.qp.mbql;

import io.quarry.sample.SampleDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * The store part of the Sample Database (PRODUCTS, PEOPLE, ORDERS, REVIEWS with their keys), copied from the H2 file
 * into another engine, so that one query can be checked on every engine against the same rows.
 */
final class SampleCopy {
    static final String[] TABLES = {"PRODUCTS", "PEOPLE", "ORDERS", "REVIEWS"};

    private SampleCopy() {
    }

    /** The sample database file, built once under target/ and shared by the tests of one build. */
    static Path sample() {
        return SampleDatabase.ensure(Path.of("target", "mbql-sample").toAbsolutePath());
    }

    /** Creates the four tables in {@code target} (quoted upper-case names) and copies every row. */
    static void copy(Connection target, String engine) throws SQLException {
        boolean sqlite = engine.equals("sqlite");
        try (Connection source = SampleDatabase.connect(sample())) {
            boolean autoCommit = target.getAutoCommit();
            target.setAutoCommit(false);
            for (String table : TABLES) {
                List<String> columns = new ArrayList<>();
                List<Integer> types = new ArrayList<>();
                try (Statement s = source.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM PUBLIC." + table + " WHERE 1 = 0")) {
                    ResultSetMetaData meta = rs.getMetaData();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        columns.add(meta.getColumnName(i));
                        types.add(meta.getColumnType(i));
                    }
                }
                StringBuilder ddl = new StringBuilder("CREATE TABLE \"" + table + "\" (");
                for (int i = 0; i < columns.size(); i++) {
                    String fk = foreignKey(table, columns.get(i));
                    // DuckDB and MySQL want a foreign key of the same type as the key it references
                    int type = fk != null && (engine.equals("duckdb") || engine.equals("mysql")) ? Types.BIGINT : types.get(i);
                    ddl.append(i > 0 ? ", " : "").append('"').append(columns.get(i)).append("\" ").append(type(type, engine));
                    if (i == 0) {
                        ddl.append(" PRIMARY KEY");
                    }
                    if (fk != null) {
                        ddl.append(" REFERENCES \"").append(fk).append("\" (\"ID\")");
                    }
                }
                ddl.append(")");
                try (Statement s = target.createStatement()) {
                    s.execute(ddl.toString());
                }
                StringBuilder insert = new StringBuilder("INSERT INTO \"" + table + "\" VALUES (");
                for (int i = 0; i < columns.size(); i++) {
                    insert.append(i > 0 ? ", ?" : "?");
                }
                insert.append(")");
                try (Statement s = source.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM PUBLIC." + table + " ORDER BY ID");
                     PreparedStatement ps = target.prepareStatement(insert.toString())) {
                    int pending = 0;
                    while (rs.next()) {
                        for (int i = 0; i < columns.size(); i++) {
                            Object value = rs.getObject(i + 1);
                            if (value == null) {
                                ps.setNull(i + 1, types.get(i));
                            } else if (value instanceof Timestamp ts) {
                                if (sqlite) {
                                    ps.setString(i + 1, ts.toLocalDateTime().toString().replace('T', ' '));
                                } else {
                                    ps.setTimestamp(i + 1, ts);
                                }
                            } else if (value instanceof java.sql.Date date) {
                                if (sqlite) {
                                    ps.setString(i + 1, date.toLocalDate().toString());
                                } else {
                                    ps.setDate(i + 1, date);
                                }
                            } else if (value instanceof Boolean b && sqlite) {
                                ps.setInt(i + 1, b ? 1 : 0);
                            } else {
                                ps.setObject(i + 1, value);
                            }
                        }
                        ps.addBatch();
                        if (++pending == 1000) {
                            ps.executeBatch();
                            pending = 0;
                        }
                    }
                    if (pending > 0) {
                        ps.executeBatch();
                    }
                }
            }
            target.commit();
            target.setAutoCommit(autoCommit);
        }
    }

    private static String foreignKey(String table, String column) {
        return switch (table + "." + column) {
            case "ORDERS.PRODUCT_ID", "REVIEWS.PRODUCT_ID" -> "PRODUCTS";
            case "ORDERS.USER_ID" -> "PEOPLE";
            default -> null;
        };
    }

    private static String type(int jdbcType, String engine) {
        return switch (jdbcType) {
            case Types.BIGINT -> "BIGINT";
            case Types.INTEGER -> "INTEGER";
            case Types.DOUBLE, Types.FLOAT, Types.REAL -> engine.equals("sqlite") ? "REAL" : engine.equals("mysql") ? "DOUBLE"
                    : "DOUBLE PRECISION";
            case Types.TIMESTAMP -> engine.equals("mysql") ? "DATETIME" : "TIMESTAMP";
            case Types.DATE -> "DATE";
            case Types.BOOLEAN -> "BOOLEAN";
            default -> engine.equals("mysql") ? "VARCHAR(1000)" : "VARCHAR";
        };
    }
}
