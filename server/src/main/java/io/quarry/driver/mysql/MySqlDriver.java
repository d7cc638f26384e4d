package io.quarry.driver.mysql;

import io.quarry.driver.ConnectionErrors;
import io.quarry.driver.Feature;
import io.quarry.driver.PersistedTableDdl;
import io.quarry.driver.ServerDriver;
import io.quarry.driver.SqlDialect;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/** MySQL and MariaDB servers, through MySQL Connector/J (both speak the same protocol). */
public final class MySqlDriver extends ServerDriver {
    /** What the engine supports; its dialect compiles these. */
    static final Set<Feature> FEATURES = standardFeaturesAnd(
            Feature.RIGHT_JOIN, Feature.REGEX, Feature.DATETIME_DIFF, Feature.SET_TIMEZONE, Feature.CONVERT_TIMEZONE,
            Feature.PERSIST_MODELS, Feature.ACTIONS);
    private static final SqlDialect DIALECT = new MySqlDialect();
    private static final PersistedTableDdl PERSISTED_TABLES = new MySqlPersistedTables(DIALECT);

    /**
     * What {@code additional-options} may set: how values and time zones are read, character sets, fetching, prepared
     * statements, timeouts, TLS modes and versions, public-key retrieval (needed by MySQL 8 accounts without TLS).
     * Never an option naming a file or URL ({@code trustCertificateKeyStoreUrl}, {@code clientCertificateKeyStoreUrl},
     * {@code serverRSAPublicKeyFile}, {@code ociConfigFile}, {@code idTokenFile}, {@code allowLoadLocalInfileInPath},
     * {@code useConfigs}), a proxy ({@code socksProxyHost}), a class or callback ({@code *Interceptors},
     * {@code authenticationPlugins}, {@code socketFactory}, ...), several statements at once ({@code allowMultiQueries}),
     * or a database to create ({@code createDatabaseIfNotExist}).
     */
    private static final Set<String> ALLOWED_OPTIONS = Set.of(
            "tinyInt1isBit", "transformedBitIsBoolean", "yearIsDateType", "zeroDateTimeBehavior", "serverTimezone",
            "connectionTimeZone", "forceConnectionTimeZoneToSession", "preserveInstants", "characterEncoding",
            "characterSetResults", "connectionCollation", "useUnicode", "sslMode", "useSSL", "requireSSL",
            "verifyServerCertificate", "tlsVersions", "enabledTLSProtocols", "tlsCiphersuites", "enabledSSLCipherSuites",
            "allowPublicKeyRetrieval", "connectTimeout", "socketTimeout", "useCursorFetch", "defaultFetchSize",
            "useServerPrepStmts", "cachePrepStmts", "prepStmtCacheSize", "prepStmtCacheSqlLimit", "useCompression",
            "rewriteBatchedStatements", "useInformationSchema", "nullDatabaseMeansCurrent", "databaseTerm", "autoReconnect",
            "useAffectedRows", "jdbcCompliantTruncation", "sendFractionalSeconds", "sendFractionalSecondsForTime",
            "maxAllowedPacket", "useLocalSessionState", "elideSetAutoCommits", "cacheServerConfiguration",
            "cacheResultSetMetadata", "netTimeoutForStreamingResults", "padCharsWithSpace", "useOldAliasMetadataBehavior",
            "blobsAreStrings", "functionsNeverReturnBlobs", "emptyStringsConvertToZero", "treatUtilDateAsTimestamp",
            "useColumnNamesInFindColumn", "tcpKeepAlive", "tcpNoDelay", "enableQueryTimeouts", "noDatetimeStringSync");

    public MySqlDriver() {
        super(FEATURES, DIALECT);
    }

    @Override
    public PersistedTableDdl persistedTables() {
        return PERSISTED_TABLES;
    }

    @Override
    public String engine() {
        return "mysql";
    }

    @Override
    public String displayName() {
        return "MySQL";
    }

    @Override
    public Set<String> allowedConnectionOptions() {
        return ALLOWED_OPTIONS;
    }

    @Override
    protected int defaultPort() {
        return 3306;
    }

    @Override
    protected String urlPrefix() {
        return "jdbc:mysql://";
    }

    @Override
    protected String driverClass() {
        return "com.mysql.cj.jdbc.Driver";
    }

    @Override
    protected String optionsExample() {
        return "tinyInt1isBit=false";
    }

    /**
     * Stops Connector/J's abandoned-connection clean-up thread, which would otherwise pin an undeployed webapp. The
     * thread starts as soon as the driver class is loaded — and DriverManager loads every driver of the WAR, used or
     * not — so it is stopped whether or not a MySQL database was ever connected.
     */
    @Override
    public void release() {
        com.mysql.cj.jdbc.AbandonedConnectionCleanupThread.checkedShutdown();
    }

    @Override
    protected void engineProperties(Map<String, Object> details, Properties properties) {
        if (bool(details, "ssl")) {
            properties.setProperty("sslMode", "REQUIRED");
        } else {
            properties.putIfAbsent("sslMode", "PREFERRED");
        }
        // Never let the server make the client read local files or hand it serialised Java objects.
        properties.setProperty("allowLoadLocalInfile", "false");
        properties.setProperty("allowUrlInLocalInfile", "false");
        properties.setProperty("autoDeserialize", "false");
        properties.putIfAbsent("zeroDateTimeBehavior", "CONVERT_TO_NULL");
        // Milliseconds. A pool connection may wait this long for a far-away server; a connection test sets its own.
        properties.putIfAbsent("connectTimeout", "10000");
    }

    @Override
    public void applyTimeouts(Properties properties, int seconds) {
        properties.setProperty("connectTimeout", String.valueOf(seconds * 1000L));
        properties.setProperty("socketTimeout", String.valueOf(seconds * 1000L));
    }

    @Override
    public Set<String> systemSchemas() {
        return Set.of("information_schema", "mysql", "performance_schema", "sys");
    }

    @Override
    public String baseType(int jdbcType, String databaseTypeName) {
        String name = databaseTypeName == null ? "" : databaseTypeName.toLowerCase(Locale.ROOT);
        if (name.endsWith(" unsigned")) {
            String signed = name.substring(0, name.length() - " unsigned".length());
            return switch (signed) {
                case "bigint" -> "type/Decimal"; // up to 2^64 - 1: more than a BigInteger column holds
                case "int", "integer" -> "type/BigInteger";
                case "tinyint", "smallint", "mediumint" -> "type/Integer";
                default -> baseType(jdbcType, signed);
            };
        }
        return switch (name) {
            case "json" -> "type/JSON";
            // TIMESTAMP values are stored in UTC and shown in the session's time zone; DATETIME is wall-clock time
            case "timestamp" -> "type/DateTimeWithLocalTZ";
            case "datetime" -> "type/DateTime";
            case "year" -> "type/Date";
            case "bit", "bool", "boolean" -> "type/Boolean";
            case "enum", "set" -> "type/Text";
            case "tinytext", "text", "mediumtext", "longtext" -> "type/Text";
            case "tinyblob", "blob", "mediumblob", "longblob", "binary", "varbinary", "geometry" -> "type/*";
            default -> super.baseType(jdbcType, databaseTypeName);
        };
    }

    @Override
    public Map<String, String> explainConnectionFailure(SQLException failure, Map<String, Object> details) {
        String lower = String.valueOf(failure.getMessage()).toLowerCase(Locale.ROOT);
        switch (failure.getErrorCode()) {
            case 1045: // Access denied for user 'x'@'host' (using password: YES): MySQL does not say which is wrong
                return ConnectionErrors.userOrPassword();
            case 1049: // Unknown database
                return ConnectionErrors.databaseName();
            case 1044: // Access denied for user to database
                return ConnectionErrors.databaseName();
            case 3159: // Connections using insecure transport are prohibited
                return ConnectionErrors.requiresSsl();
            default:
                break;
        }
        if (lower.contains("insecure transport")) {
            return ConnectionErrors.requiresSsl();
        }
        if (ConnectionErrors.causedBy(failure, javax.net.ssl.SSLHandshakeException.class)) {
            return ConnectionErrors.certificateNotTrusted();
        }
        return super.explainConnectionFailure(failure, details);
    }
}
