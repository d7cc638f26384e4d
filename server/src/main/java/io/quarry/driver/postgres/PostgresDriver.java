package io.quarry.driver.postgres;

import io.quarry.driver.ConnectionErrors;
import io.quarry.driver.DetailField;
import io.quarry.driver.Feature;
import io.quarry.driver.ServerDriver;
import io.quarry.driver.SqlDialect;
import io.quarry.web.error.ApiException;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/** PostgreSQL (and servers speaking its protocol), through the official {@code org.postgresql} driver. */
public final class PostgresDriver extends ServerDriver {
    /** What the engine supports; its dialect compiles these. */
    static final Set<Feature> FEATURES = standardFeaturesAnd(
            Feature.SCHEMAS, Feature.RIGHT_JOIN, Feature.FULL_JOIN, Feature.REGEX, Feature.PERCENTILE_AGGREGATIONS,
            Feature.DATETIME_DIFF, Feature.SET_TIMEZONE, Feature.CONVERT_TIMEZONE, Feature.PERSIST_MODELS, Feature.ACTIONS);
    private static final SqlDialect DIALECT = new PostgresDialect();

    public PostgresDriver() {
        super(FEATURES, DIALECT);
    }
    /**
     * What {@code additional-options} may set: prepared statements and fetching, server startup {@code options}
     * ({@code -c search_path=...}), the schema, type and time handling, timeouts, TLS and GSS encryption modes, and
     * target server and load balancing. Never a file ({@code sslkey}, {@code sslcert}, {@code sslrootcert},
     * {@code loggerFile}, {@code service}, which reads a service file), a class or callback ({@code sslfactory},
     * {@code socketFactory}, {@code sslhostnameverifier}, {@code sslpasswordcallback},
     * {@code authenticationPluginClassName}, {@code xmlFactoryFactory}, ...), a replication connection, or a local
     * address to bind.
     */
    private static final Set<String> ALLOWED_OPTIONS = Set.of(
            "prepareThreshold", "preparedStatementCacheQueries", "preparedStatementCacheSizeMiB", "defaultRowFetchSize",
            "binaryTransfer", "options", "currentSchema", "ApplicationName", "assumeMinServerVersion", "stringtype",
            "connectTimeout", "loginTimeout", "socketTimeout", "cancelSignalTimeout", "tcpKeepAlive", "tcpNoDelay",
            "readOnly", "readOnlyMode", "reWriteBatchedInserts", "targetServerType", "loadBalanceHosts",
            "hostRecheckSeconds", "sslmode", "ssl", "sslResponseTimeout", "gssEncMode", "channelBinding",
            "escapeSyntaxCallMode", "autosave", "cleanupSavepoints", "quoteReturningIdentifiers", "unknownLength",
            "sendBufferSize", "receiveBufferSize", "maxResultBuffer", "adaptiveFetch", "adaptiveFetchMinimum",
            "adaptiveFetchMaximum", "preferQueryMode", "disableColumnSanitiser", "logUnclosedConnections",
            "hideUnprivilegedObjects", "logServerErrorDetail", "databaseMetadataCacheFields",
            "databaseMetadataCacheFieldsMiB", "groupStartupParameters");
    private static final Set<String> SSL_MODES = Set.of("allow", "prefer", "require", "verify-ca", "verify-full");

    @Override
    public String engine() {
        return "postgres";
    }

    @Override
    public String displayName() {
        return "PostgreSQL";
    }

    @Override
    public Set<String> allowedConnectionOptions() {
        return ALLOWED_OPTIONS;
    }

    @Override
    protected int defaultPort() {
        return 5432;
    }

    @Override
    protected String urlPrefix() {
        return "jdbc:postgresql://";
    }

    @Override
    protected String driverClass() {
        return "org.postgresql.Driver";
    }

    @Override
    protected String optionsExample() {
        return "prepareThreshold=0";
    }

    @Override
    public List<DetailField> detailFields() {
        List<DetailField> fields = new java.util.ArrayList<>(super.detailFields());
        fields.add(fields.size() - 1, DetailField.text("ssl-mode", "SSL Mode", false, "require"));
        return List.copyOf(fields);
    }

    @Override
    protected void engineProperties(Map<String, Object> details, Properties properties) {
        if (bool(details, "ssl")) {
            String mode = text(details, "ssl-mode");
            if (mode != null && !SSL_MODES.contains(mode)) {
                throw ApiException.invalidField("ssl-mode", "value must be one of allow, prefer, require, verify-ca, verify-full.");
            }
            properties.setProperty("ssl", "true");
            properties.setProperty("sslmode", mode == null ? "require" : mode);
        } else {
            properties.putIfAbsent("sslmode", "disable");
        }
        properties.putIfAbsent("ApplicationName", "Quarry");
        // Seconds. A pool connection may wait this long for a far-away server; a connection test sets its own.
        properties.putIfAbsent("connectTimeout", "10");
        properties.putIfAbsent("loginTimeout", "10");
    }

    @Override
    public void applyTimeouts(Properties properties, int seconds) {
        properties.setProperty("connectTimeout", String.valueOf(seconds));
        properties.setProperty("loginTimeout", String.valueOf(seconds));
        properties.setProperty("socketTimeout", String.valueOf(seconds));
    }

    @Override
    public Set<String> systemSchemas() {
        return Set.of("information_schema", "pg_catalog", "pg_toast");
    }

    @Override
    public String baseType(int jdbcType, String databaseTypeName) {
        String name = databaseTypeName == null ? "" : databaseTypeName.toLowerCase(Locale.ROOT);
        if (name.startsWith("_")) {
            return "type/Array";
        }
        return switch (name) {
            // the driver reports these as plain TIMESTAMP / TIME
            case "timestamptz" -> "type/DateTimeWithLocalTZ";
            case "timetz" -> "type/TimeWithLocalTZ";
            case "json", "jsonb" -> "type/JSON";
            case "uuid" -> "type/UUID";
            case "money" -> "type/Decimal";
            case "inet", "cidr" -> "type/IPAddress";
            case "citext", "name", "xml" -> "type/Text";
            case "bool" -> "type/Boolean";
            case "int8", "bigserial" -> "type/BigInteger";
            case "int2", "int4", "serial", "smallserial" -> "type/Integer";
            case "float4", "float8" -> "type/Float";
            case "bytea", "interval" -> "type/*";
            default -> super.baseType(jdbcType, databaseTypeName);
        };
    }

    @Override
    public Map<String, String> explainConnectionFailure(SQLException failure, Map<String, Object> details) {
        String state = failure.getSQLState() == null ? "" : failure.getSQLState();
        String message = rootMessage(failure);
        String lower = String.valueOf(failure.getMessage()).toLowerCase(Locale.ROOT);
        if (lower.contains("no password was provided")) {
            return ConnectionErrors.passwordRequired();
        }
        if (state.equals("28P01") || lower.contains("password authentication failed")) {
            return details.get("password") == null || details.get("password").toString().isEmpty()
                    ? ConnectionErrors.passwordRequired() : ConnectionErrors.password();
        }
        if (state.equals("3D000")) {
            return ConnectionErrors.databaseName();
        }
        if (state.equals("28000")) {
            if (lower.contains("role") && lower.contains("does not exist")) {
                return ConnectionErrors.user();
            }
            if (lower.contains("pg_hba.conf") && (lower.contains("ssl off") || lower.contains("no encryption"))) {
                return ConnectionErrors.requiresSsl();
            }
            return ConnectionErrors.userOrPassword();
        }
        if (lower.contains("server does not support ssl")) {
            return ConnectionErrors.of("The server does not support SSL.", "ssl", "check your SSL settings");
        }
        if (ConnectionErrors.causedBy(failure, javax.net.ssl.SSLHandshakeException.class)
                || message.toLowerCase(Locale.ROOT).contains("certificate")) {
            return ConnectionErrors.certificateNotTrusted();
        }
        return super.explainConnectionFailure(failure, details);
    }
}
