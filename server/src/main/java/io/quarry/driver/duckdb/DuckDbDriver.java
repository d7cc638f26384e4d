package io.quarry.driver.duckdb;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import io.quarry.driver.ConnectionErrors;
import io.quarry.driver.Feature;
import io.quarry.driver.FileDriver;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.SqlTokens;
import io.quarry.driver.StatementKind;
import io.quarry.driver.StatementRefused;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * DuckDB files. They are opened read-only (read-write only while model persistence, whose cache schema lives in the
 * file, or actions are on for the database), which also means a missing file is an error rather than a new empty
 * database, and several Quarry databases may share one file. DuckDB SQL can read any file and fetch extensions from
 * the network; external access, extension loading and installing are switched off and the configuration locked, so
 * queries see the database file and nothing else.
 */
public final class DuckDbDriver extends FileDriver {
    /** What the engine supports; its dialect compiles these. */
    static final Set<Feature> FEATURES = standardFeaturesAnd(
            Feature.SCHEMAS, Feature.RIGHT_JOIN, Feature.FULL_JOIN, Feature.REGEX, Feature.PERCENTILE_AGGREGATIONS,
            Feature.DATETIME_DIFF, Feature.PERSIST_MODELS, Feature.ACTIONS);
    private static final SqlDialect DIALECT = new DuckDbDialect();

    public DuckDbDriver() {
        super(FEATURES, DIALECT);
    }

    @Override
    public String engine() {
        return "duckdb";
    }

    @Override
    public String displayName() {
        return "DuckDB";
    }

    @Override
    protected String urlPrefix() {
        return "jdbc:duckdb:";
    }

    @Override
    protected String pathExample() {
        return "/home/camsaul/toucan_sightings.duckdb";
    }

    @Override
    public ConnectionSpec connectionSpec(Map<String, Object> details) {
        return connectionSpec(details, false);
    }

    /** Read-only, except while Quarry may write to the file (model persistence or actions on for the database). */
    @Override
    public ConnectionSpec connectionSpec(Map<String, Object> details, boolean mayWrite) {
        Properties properties = new Properties();
        properties.setProperty("duckdb.read_only", String.valueOf(!mayWrite));
        properties.setProperty("enable_external_access", "false");
        properties.setProperty("autoinstall_known_extensions", "false");
        properties.setProperty("autoload_known_extensions", "false");
        properties.setProperty("allow_community_extensions", "false");
        properties.setProperty("lock_configuration", "true");
        return new ConnectionSpec("org.duckdb.DuckDBDriver", urlPrefix() + path(details), properties);
    }

    /** What a statement of each writing kind may start with (reads are classified by DuckDB's own parser). */
    private static final Map<StatementKind, Set<String>> WRITE_STATEMENTS = Map.of(
            StatementKind.WRITE_ROWS, Set.of("INSERT", "UPDATE", "DELETE", "WITH"),
            StatementKind.WRITE_TABLES, Set.of("CREATE", "DROP", "ALTER", "INSERT", "DELETE", "SELECT", "WITH"));

    /**
     * DuckDB runs every statement of a text, and the file is read-write while Quarry may write to it (actions,
     * persisted models): a read must be one SELECT, as DuckDB's own parser says ({@code json_serialize_sql} serializes
     * only SELECT statements, and lists each statement of the text); a write one statement of its kind. External
     * access stays off and the configuration locked whatever runs.
     */
    @Override
    public void checkStatement(Connection connection, String sql, StatementKind kind, boolean authored) throws SQLException {
        if (kind != StatementKind.READ) {
            SqlTokens.requireOneStatement(sql, SqlTokens.Lexicon.DUCKDB, WRITE_STATEMENTS.get(kind), displayName());
            return;
        }
        JsonNode parsed;
        try (PreparedStatement statement = connection.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)")) {
            statement.setString(1, sql);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                parsed = Json.MAPPER.readTree(rs.getString(1));
            }
        } catch (java.io.IOException e) {
            throw new StatementRefused("DuckDB could not classify the statement.");
        }
        if (parsed.path("error").asBoolean(false)) {
            if ("parser".equals(parsed.path("error_type").asText())) {
                return; // a syntax error: executing the statement reports it in DuckDB's words
            }
            throw new StatementRefused("Queries against DuckDB databases may only read data: one SELECT statement is allowed.");
        }
        if (parsed.path("statements").size() != 1) {
            throw new StatementRefused("Only one SQL statement may run at a time on DuckDB databases.");
        }
    }

    @Override
    public Set<String> systemSchemas() {
        return Set.of("information_schema", "pg_catalog");
    }

    /** By DuckDB's type name: its JDBC codes say OTHER for many types (UUID, JSON, HUGEINT, lists). */
    @Override
    public String baseType(int jdbcType, String databaseTypeName) {
        String name = databaseTypeName == null ? "" : databaseTypeName.trim().toUpperCase(Locale.ROOT);
        if (name.endsWith("[]") || name.startsWith("LIST") || name.matches(".*\\[\\d+\\]$")) {
            return "type/Array";
        }
        if (name.startsWith("STRUCT") || name.startsWith("MAP") || name.startsWith("UNION")) {
            return "type/Structured";
        }
        if (name.startsWith("ENUM")) {
            return "type/Text";
        }
        if (name.startsWith("DECIMAL") || name.startsWith("NUMERIC")) {
            return "type/Decimal";
        }
        return switch (name) {
            case "BIGINT", "INT8", "LONG", "HUGEINT", "UHUGEINT", "UBIGINT", "UINTEGER" -> "type/BigInteger";
            case "INTEGER", "INT", "INT4", "SMALLINT", "INT2", "TINYINT", "INT1", "USMALLINT", "UTINYINT" -> "type/Integer";
            case "DOUBLE", "FLOAT", "REAL", "FLOAT4", "FLOAT8" -> "type/Float";
            case "VARCHAR", "TEXT", "STRING", "CHAR", "BPCHAR" -> "type/Text";
            case "BOOLEAN", "BOOL" -> "type/Boolean";
            case "DATE" -> "type/Date";
            case "TIMESTAMP", "DATETIME", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS", "TIMESTAMP_US" -> "type/DateTime";
            case "TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ" -> "type/DateTimeWithLocalTZ";
            case "TIME" -> "type/Time";
            case "TIME WITH TIME ZONE", "TIMETZ" -> "type/TimeWithLocalTZ";
            case "UUID" -> "type/UUID";
            case "JSON" -> "type/JSON";
            case "BLOB", "BYTEA", "BIT", "INTERVAL" -> "type/*";
            default -> super.baseType(jdbcType, databaseTypeName);
        };
    }

    @Override
    public Map<String, String> explainConnectionFailure(SQLException failure, Map<String, Object> details) {
        String message = String.valueOf(rootMessage(failure)).toLowerCase(Locale.ROOT);
        if (message.contains("database does not exist") || message.contains("no such file")) {
            return ConnectionErrors.fileNotFound();
        }
        if (message.contains("not a valid duckdb database file")) {
            return ConnectionErrors.notADatabase();
        }
        if (message.contains("could not set lock") || message.contains("conflicting lock")
                || message.contains("different configuration")) {
            return ConnectionErrors.fileInUse();
        }
        return super.explainConnectionFailure(failure, details);
    }
}
