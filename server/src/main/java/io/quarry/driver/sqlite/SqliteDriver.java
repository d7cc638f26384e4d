package io.quarry.driver.sqlite;

import io.quarry.driver.ConnectionErrors;
import io.quarry.driver.Feature;
import io.quarry.driver.FileDriver;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.SqlTokens;
import io.quarry.driver.StatementKind;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * SQLite files, through xerial's sqlite-jdbc. Files are opened read-only (read-write only while actions are on for
 * the database) and never created (no {@code SQLITE_OPEN_CREATE}); extension loading stays off and no other database file can be attached, so queries see
 * this file only. SQLite has no schemas: tables come with a null schema.
 */
public final class SqliteDriver extends FileDriver {
    /** What the engine supports (no standard deviation or variance: SQLite has no STDDEV); its dialect compiles these. */
    static final Set<Feature> FEATURES = sqliteFeatures();
    private static final SqlDialect DIALECT = new SqliteDialect();

    public SqliteDriver() {
        super(FEATURES, DIALECT);
    }
    /** {@code SQLITE_OPEN_READONLY}. */
    private static final int OPEN_READONLY = 0x01;
    /** {@code SQLITE_OPEN_READWRITE} alone: opening a missing file fails instead of creating it. */
    private static final int OPEN_READWRITE = 0x02;

    @Override
    public String engine() {
        return "sqlite";
    }

    @Override
    public String displayName() {
        return "SQLite";
    }

    @Override
    protected String urlPrefix() {
        return "jdbc:sqlite:";
    }

    @Override
    protected String pathExample() {
        return "/home/camsaul/toucan_sightings.sqlite";
    }

    @Override
    public ConnectionSpec connectionSpec(Map<String, Object> details) {
        return connectionSpec(details, false);
    }

    /** Read-only, except while Quarry may write to the file (actions on for the database). */
    @Override
    public ConnectionSpec connectionSpec(Map<String, Object> details, boolean mayWrite) {
        Properties properties = new Properties();
        properties.setProperty("open_mode", String.valueOf(mayWrite ? OPEN_READWRITE : OPEN_READONLY));
        properties.setProperty("enable_load_extension", "false");
        // no ATTACH DATABASE: queries see this file only (ATTACH could also create files anywhere)
        properties.setProperty("limit_attached", "0");
        return new ConnectionSpec("org.sqlite.JDBC", urlPrefix() + path(details), properties);
    }

    /** SQLite opens a file read-only beside read-write connections: reads never run on a connection that could write. */
    @Override
    public boolean opensReadOnlyBesideWriters() {
        return true;
    }

    /** What a statement of each kind may start with (reads run on read-only connections, where SQLite refuses writes). */
    private static final Map<StatementKind, Set<String>> STATEMENTS = Map.of(
            StatementKind.READ, Set.of("SELECT", "WITH", "VALUES"),
            StatementKind.WRITE_ROWS, Set.of("INSERT", "UPDATE", "DELETE", "REPLACE", "WITH"),
            StatementKind.WRITE_TABLES, Set.of("CREATE", "DROP", "ALTER", "INSERT", "DELETE", "SELECT", "WITH"));

    /** One statement of its kind (sqlite-jdbc would silently run only the first of several). */
    @Override
    public void checkStatement(Connection connection, String sql, StatementKind kind, boolean authored) throws SQLException {
        SqlTokens.requireOneStatement(sql, SqlTokens.Lexicon.SQLITE, STATEMENTS.get(kind), displayName());
    }

    /** Reads the schema, which proves the file is a SQLite database (opening alone does not). */
    @Override
    public String validationQuery() {
        return "SELECT COUNT(*) FROM sqlite_master";
    }

    @Override
    public Set<String> systemSchemas() {
        return Set.of();
    }

    /**
     * SQLite columns have a declared type name, not a type: the driver's JDBC codes are guesses. The base type comes
     * from the declared name, exact well-known names first, then SQLite's own affinity rules.
     */
    @Override
    public String baseType(int jdbcType, String databaseTypeName) {
        String name = databaseTypeName == null ? "" : databaseTypeName.trim().toUpperCase(Locale.ROOT);
        String bare = name.replaceAll("\\s*\\(.*$", "");
        switch (bare) {
            case "BIGINT", "INT8", "UNSIGNED BIG INT":
                return "type/BigInteger";
            case "BOOLEAN", "BOOL", "BIT":
                return "type/Boolean";
            case "DATE":
                return "type/Date";
            case "DATETIME", "TIMESTAMP":
                return "type/DateTime";
            case "TIME":
                return "type/Time";
            case "JSON":
                return "type/JSON";
            case "DECIMAL", "NUMERIC", "NUMBER":
                return "type/Decimal";
            default:
                break;
        }
        if (bare.contains("INT")) {
            return "type/Integer";
        }
        if (bare.contains("CHAR") || bare.contains("CLOB") || bare.contains("TEXT")) {
            return "type/Text";
        }
        if (bare.isEmpty() || bare.contains("BLOB")) {
            return "type/*";
        }
        if (bare.contains("REAL") || bare.contains("FLOA") || bare.contains("DOUB")) {
            return "type/Float";
        }
        return "type/Decimal"; // NUMERIC affinity
    }

    @Override
    public Map<String, String> explainConnectionFailure(SQLException failure, Map<String, Object> details) {
        // sqlite-jdbc reports SQLite's result code as the error code
        return switch (failure.getErrorCode() & 0xff) {
            case 14 -> ConnectionErrors.fileNotFound(); // SQLITE_CANTOPEN
            case 26 -> ConnectionErrors.notADatabase(); // SQLITE_NOTADB
            case 5, 6 -> ConnectionErrors.fileInUse(); // SQLITE_BUSY, SQLITE_LOCKED
            default -> super.explainConnectionFailure(failure, details);
        };
    }

    private static Set<Feature> sqliteFeatures() {
        Set<Feature> features = standardFeatures();
        features.addAll(List.of(Feature.RIGHT_JOIN, Feature.FULL_JOIN, Feature.DATETIME_DIFF, Feature.ACTIONS));
        features.remove(Feature.STANDARD_DEVIATION_AGGREGATIONS);
        return Collections.unmodifiableSet(features);
    }
}
