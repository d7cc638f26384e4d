package io.quarry.driver;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * One database engine Quarry can connect to ({@code h2}, {@code postgres}, ...): how its connection details look and
 * become a JDBC connection, how it names types, what SQL it speaks and what it supports. Engines share the JDBC work
 * through {@link JdbcDriver}; each overrides only what differs.
 */
public interface Driver {
    /** The prefix of the schemas persisted models' tables live in ({@code metabase_cache_<site>_<database id>}). */
    String PERSISTED_MODELS_SCHEMA_PREFIX = "metabase_cache_";

    /** The engine key clients send ({@code "postgres"}). */
    String engine();

    /** The name people see ({@code "PostgreSQL"}). */
    String displayName();

    /** The connection form: what {@code details} holds, as Metabase's {@code details-fields}. */
    List<DetailField> detailFields();

    /**
     * What the engine advertises (the database's {@code features}, as Metabase's keywords); the compiler asks the
     * engine's {@link #dialect()} before emitting an optional feature, and every advertised feature compiles.
     */
    Set<Feature> features();

    default boolean supports(Feature feature) {
        return features().contains(feature);
    }

    /**
     * Checks and turns details into a JDBC connection spec. Bad details answer a 400 naming the detail field
     * ({@link io.quarry.web.error.ApiException}); nothing connects here.
     */
    ConnectionSpec connectionSpec(Map<String, Object> details);

    /**
     * As {@link #connectionSpec(Map)}, opened read-write when {@code mayWrite} (model persistence's cache tables,
     * actions, uploads), read-only otherwise where the engine can open it so (H2, DuckDB, SQLite files). The flag comes
     * from the database's settings through the query runner, never from details a client sends; pools are keyed by
     * their spec, so switching it reopens the pool.
     */
    default ConnectionSpec connectionSpec(Map<String, Object> details, boolean mayWrite) {
        return connectionSpec(details);
    }

    /**
     * Whether a connection opened read-only ({@link #connectionSpec(Map, boolean) mayWrite} false) may be open beside
     * read-write ones to the same database (SQLite). Engines that open a database once per process with one mode (H2,
     * DuckDB files) answer false: while Quarry may write to such a database, its read connections are read-write too
     * and {@link #checkStatement} alone keeps reads from writing. Server engines: the same connections either way.
     */
    default boolean opensReadOnlyBesideWriters() {
        return false;
    }

    /**
     * The engine's statement policy: refuses ({@link StatementRefused}) what the engine will not run for this kind of
     * statement ({@code authored}: the SQL is, or contains, SQL a person wrote — a native query, a native stage, join
     * or referenced card, a query action). The query runner calls it on the connection the statement runs on, before
     * the statement is prepared, for every statement it executes. It may also set the connection up for the statement
     * (H2 reads on a read-write file run in a transaction the pool rolls back). The default refuses nothing: on server
     * engines the database user's own privileges decide.
     */
    default void checkStatement(java.sql.Connection connection, String sql, StatementKind kind, boolean authored)
            throws SQLException {
    }

    /**
     * How the engine builds and replaces persisted models' tables, or null when it cannot hold them (no
     * {@link Feature#PERSIST_MODELS}).
     */
    default PersistedTableDdl persistedTables() {
        return supports(Feature.PERSIST_MODELS) ? PersistedTableDdl.transactional(dialect()) : null;
    }

    /** The SQL this engine speaks: for compiled structured queries, sync's profiling queries and uploads. */
    SqlDialect dialect();

    /** Quarry's base type ({@code type/Integer}) for a column's JDBC type code and database type name. */
    String baseType(int jdbcType, String databaseTypeName);

    /** Schemas sync never looks into (system catalogs). */
    Set<String> systemSchemas();

    /**
     * The connection options a user may set, as the engine spells them: {@code additional-options} on server engines,
     * the {@code ;KEY=VALUE} options of an H2 connection string. Anything else is refused with a 400 naming the detail
     * field, before anything connects or is stored. Empty for engines that take none.
     */
    default Set<String> allowedConnectionOptions() {
        return Set.of();
    }

    /** What a secret shows as in every answer (Metabase's placeholder); sent back, it keeps the stored secret. */
    String SECRET_PLACEHOLDER = "**MetabasePass**";

    /**
     * The details as answers show them: every secret replaced by {@link #SECRET_PLACEHOLDER}. An engine that keeps a
     * secret inside another detail (H2's {@code PASSWORD=} in the connection string) masks it there too.
     */
    default Map<String, Object> maskedDetails(Map<String, Object> details) {
        Map<String, Object> masked = new java.util.LinkedHashMap<>();
        if (details != null) {
            details.forEach((key, value) -> masked.put(key, value != null && isSecret(key) ? SECRET_PLACEHOLDER : value));
        }
        return masked;
    }

    /**
     * The details to store when a client sends {@code incoming} for a database holding {@code stored}, as Metabase
     * merges them: over the stored ones (keys not sent are kept), and a secret sent back as the placeholder keeps its
     * stored value (the placeholder itself is never stored as a secret). The inverse of {@link #maskedDetails}.
     */
    default Map<String, Object> mergedDetails(Map<String, Object> stored, Map<String, Object> incoming) {
        Map<String, Object> merged = new java.util.LinkedHashMap<>(stored == null ? Map.of() : stored);
        incoming.forEach((key, value) -> {
            if (!SECRET_PLACEHOLDER.equals(value)) {
                merged.put(key, value);
            }
        });
        return merged;
    }

    /** True when a detail holds a secret (redacted in responses, never logged). */
    default boolean isSecret(String detailKey) {
        for (DetailField field : detailFields()) {
            if (field.name().equals(detailKey)) {
                return field.secret();
            }
        }
        return DetailField.DEFAULT_SECRETS.contains(detailKey);
    }

    /**
     * A connection failure as Metabase explains it: a {@code "message"} entry (the sentence for the form) and an entry
     * per detail field to blame ({@code {"message": "Looks like your Password is incorrect.", "password": "check your
     * password"}}). See {@link ConnectionErrors}.
     */
    Map<String, String> explainConnectionFailure(SQLException failure, Map<String, Object> details);

    /** The statement that proves a fresh connection really reaches a database (validation runs it once). */
    default String validationQuery() {
        return "SELECT 1";
    }

    /**
     * Bounds how long one connection attempt may take, for a connection test: sets the driver's own connect, login and
     * read timeouts in {@code properties}. Engines without network I/O need none.
     */
    default void applyTimeouts(Properties properties, int seconds) {
    }

    /** Lets go of what the JDBC driver keeps JVM-wide (threads), when Quarry stops. */
    default void release() {
    }

    /**
     * On engines where replacing a persisted model's table can fail a statement that reads it at that moment (H2, whose
     * DDL is not isolated from running statements): the lock a statement reading the database's persisted tables holds
     * (read) while it executes, and a refresh holds (write) while it swaps or drops them. Null on engines that swap
     * tables in one transaction or statement readers cannot see between (PostgreSQL, MySQL, DuckDB).
     */
    default java.util.concurrent.locks.ReadWriteLock persistedTablesLock(long databaseId) {
        return null;
    }

    /** What a JDBC connection needs: the driver class (loaded from Quarry's own class path), URL and properties. */
    record ConnectionSpec(String driverClass, String url, Properties properties) {
    }
}
