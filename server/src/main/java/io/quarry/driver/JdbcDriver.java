package io.quarry.driver;

import java.sql.SQLException;
import java.sql.Types;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What JDBC engines share: type mapping by JDBC type code, the features every engine has, a generic failure
 * explanation. Each engine's package ({@code io.quarry.driver.postgres}, ...) holds its driver and its
 * {@link SqlDialect}; the driver's features are the ones its dialect is built with.
 */
public abstract class JdbcDriver implements Driver {
    private final Set<Feature> features;
    /** The engine's own; for an engine without a package of its own, standard SQL built at first use. */
    private volatile SqlDialect dialect;

    /** An engine without a package of its own: {@link #standardFeatures()}, compiled by {@link AnsiDialect}. */
    protected JdbcDriver() {
        this(Collections.unmodifiableSet(standardFeatures()), null);
    }

    /**
     * An engine with a package of its own: the features it advertises (a database's {@code features}) and its dialect,
     * which compiles exactly those (one truth per engine: the API never advertises less or more than queries can use).
     */
    protected JdbcDriver(Set<Feature> features, SqlDialect dialect) {
        this.features = java.util.Objects.requireNonNull(features, "features is null");
        this.dialect = dialect;
    }

    @Override
    public Set<Feature> features() {
        return features;
    }

    /** The engine's dialect; standard SQL ({@link AnsiDialect}) compiling {@link #features()} for one without its own. */
    @Override
    public SqlDialect dialect() {
        SqlDialect d = dialect;
        if (d == null) {
            d = new AnsiDialect(engine(), displayName(), features());
            dialect = d;
        }
        return d;
    }

    /** The features every JDBC engine has; an engine adds its own (or, like SQLite, removes one). */
    protected static Set<Feature> standardFeatures() {
        return EnumSet.of(Feature.BASIC_AGGREGATIONS, Feature.STANDARD_DEVIATION_AGGREGATIONS, Feature.EXPRESSIONS,
                Feature.FOREIGN_KEYS, Feature.NESTED_QUERIES, Feature.BINNING, Feature.NATIVE_PARAMETERS,
                Feature.CASE_SENSITIVITY_STRING_FILTER_OPTIONS, Feature.LEFT_JOIN, Feature.INNER_JOIN, Feature.NOW);
    }

    /** {@link #standardFeatures()} plus {@code more}, unmodifiable. */
    protected static Set<Feature> standardFeaturesAnd(Feature... more) {
        Set<Feature> features = standardFeatures();
        features.addAll(List.of(more));
        return Collections.unmodifiableSet(features);
    }

    @Override
    public Set<String> systemSchemas() {
        return Set.of("INFORMATION_SCHEMA", "information_schema");
    }

    @Override
    public String baseType(int jdbcType, String databaseTypeName) {
        String name = databaseTypeName == null ? "" : databaseTypeName.toLowerCase(Locale.ROOT);
        if (name.equals("json") || name.equals("jsonb")) {
            return "type/JSON";
        }
        if (name.equals("uuid")) {
            return "type/UUID";
        }
        return switch (jdbcType) {
            case Types.BIGINT -> "type/BigInteger";
            case Types.INTEGER, Types.SMALLINT, Types.TINYINT -> "type/Integer";
            case Types.DECIMAL, Types.NUMERIC -> "type/Decimal";
            case Types.DOUBLE, Types.FLOAT, Types.REAL -> "type/Float";
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR, Types.CLOB,
                 Types.NCLOB -> "type/Text";
            case Types.BOOLEAN, Types.BIT -> "type/Boolean";
            case Types.DATE -> "type/Date";
            case Types.TIMESTAMP -> "type/DateTime";
            case Types.TIMESTAMP_WITH_TIMEZONE -> "type/DateTimeWithLocalTZ";
            case Types.TIME -> "type/Time";
            case Types.TIME_WITH_TIMEZONE -> "type/TimeWithLocalTZ";
            case Types.ARRAY -> "type/Array";
            case Types.STRUCT -> "type/Structured";
            default -> "type/*";
        };
    }

    /**
     * What no engine-specific rule recognised: a refused or unreachable host and port when the engine has them,
     * otherwise the driver's own message.
     */
    @Override
    public Map<String, String> explainConnectionFailure(SQLException failure, Map<String, Object> details) {
        if (details.containsKey("host")) {
            if (ConnectionErrors.causedBy(failure, java.net.UnknownHostException.class)) {
                return ConnectionErrors.invalidHost();
            }
            String state = failure.getSQLState() == null ? "" : failure.getSQLState();
            if (ConnectionErrors.causedBy(failure, java.net.ConnectException.class)
                    || ConnectionErrors.causedBy(failure, java.net.SocketTimeoutException.class)
                    || ConnectionErrors.causedBy(failure, java.net.NoRouteToHostException.class)
                    || state.startsWith("08")) { // SQL state class 08: connection exception
                return ConnectionErrors.hostAndPort();
            }
        }
        Map<String, String> errors = new LinkedHashMap<>();
        errors.put(ConnectionErrors.MESSAGE, rootMessage(failure));
        return errors;
    }

    protected static String rootMessage(Throwable t) {
        String message = t.getMessage();
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
            if (t.getMessage() != null) {
                message = t.getMessage();
            }
        }
        return message == null ? t.getClass().getSimpleName() : message;
    }

    /** A detail as a boolean: JSON true or the string "true" (a form may send either); false otherwise. */
    protected static boolean bool(Map<String, Object> details, String key) {
        Object value = details.get(key);
        return Boolean.TRUE.equals(value) || (value instanceof String s && s.trim().equalsIgnoreCase("true"));
    }

    /** A detail as text, or null when absent or blank. */
    protected static String text(Map<String, Object> details, String key) {
        Object value = details.get(key);
        if (value == null) {
            return null;
        }
        String text = value.toString().trim();
        return text.isEmpty() ? null : text;
    }
}
