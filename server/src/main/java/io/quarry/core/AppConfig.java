package io.quarry.core;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Boot-time configuration, read once. Every key is a Metabase environment variable name ({@code MB_DB_TYPE}, ...).
 * A value is looked up, in order, in the servlet context init-params (most specific: this one deployment),
 * Java system properties, then the process environment. Runtime settings ({@code site-name}, ...) are not here:
 * they live in {@link io.quarry.setting.Settings}.
 */
public final class AppConfig {
    public enum DbType { H2, POSTGRES, JNDI }

    private final Function<String, String> source;

    /**
     * Where Quarry keeps its own files ({@code MB_DATA_DIR}): the H2 application database and the Sample Database,
     * unless {@code MB_DB_FILE} / {@code MB_PLUGINS_DIR} say otherwise. Defaults to the working directory; a
     * deployed WAR is given a per-context default by {@link io.quarry.boot.QuarryListener} (see {@link DataDirectory}).
     */
    public final Path dataDir;
    public final DbType dbType;
    /** JDBC URL of the application database (H2 or PostgreSQL); null for JNDI. */
    public final String dbUrl;
    public final String dbUser;
    public final String dbPassword;
    public final String dbJndiName;
    /** Minutes a session stays valid after it is created. */
    public final long maxSessionAgeMinutes;
    public final String passwordComplexity;
    public final Integer passwordLength;
    public final boolean sessionThrottleDisabled;
    public final String encryptionSecretKey;
    /**
     * Seconds a query may run before it is cancelled on its database ({@code MB_DB_QUERY_TIMEOUT_MINUTES}, 20 minutes;
     * or {@code MB_DB_QUERY_TIMEOUT_SECONDS}, Quarry's own key for tests).
     */
    public final int queryTimeoutSeconds;
    /**
     * Largest request body read, in bytes ({@code MB_MAX_REQUEST_BODY_BYTES}, Quarry's own key; 16 MiB). Metabase has
     * no limit; the largest bodies its clients send (a permissions graph of a big instance, a dashboard with hundreds
     * of cards) are a few MB, and a parsed JSON tree takes several times its text, so 16 MiB leaves headroom while
     * keeping one request's tree well under 100 MB of heap. CSV uploads (multipart) have their own limit, the
     * {@code max-upload-size-bytes} setting, and stream to a temporary file.
     */
    public final long maxRequestBodyBytes;
    /**
     * How often cards' view counts and last use, counted in memory by the queries, are written to the application
     * database, in milliseconds ({@code MB_USAGE_FLUSH_INTERVAL_MS}, Quarry's own key; 1 second). They are also written
     * when Quarry stops cleanly.
     */
    public final long usageFlushIntervalMillis;
    /**
     * How often, at most, an instance looks at the application database's cache revision to learn of changes another
     * instance made (sessions, users, settings, permissions, databases), in milliseconds
     * ({@code MB_CACHE_REVISION_CHECK_INTERVAL_MS}, Quarry's own key; 1 second; 0 checks on every cached read).
     * Changes made by this instance are seen at once.
     */
    public final long cacheRevisionCheckMillis;

    public AppConfig(Function<String, String> source) {
        this.source = source;
        dataDir = Path.of(Optional.ofNullable(get(DataDirectory.KEY)).orElse("")).toAbsolutePath().normalize();
        String jndi = get("MB_DB_JNDI_NAME");
        String type = Optional.ofNullable(get("MB_DB_TYPE")).orElse(jndi != null ? "jndi" : "h2").toLowerCase(Locale.ROOT);
        switch (type) {
            case "h2" -> {
                dbType = DbType.H2;
                String file = Optional.ofNullable(get("MB_DB_FILE")).orElse(dataDir.resolve("quarry.db").toString());
                // Metabase accepts the file name with or without H2's own suffix.
                file = file.replaceFirst("\\.mv\\.db$", "");
                dbUrl = "jdbc:h2:file:" + Path.of(file).toAbsolutePath().normalize() + ";DB_CLOSE_ON_EXIT=FALSE";
                dbUser = "sa";
                dbPassword = "";
                dbJndiName = null;
            }
            case "postgres", "postgresql" -> {
                dbType = DbType.POSTGRES;
                dbJndiName = null;
                String uri = get("MB_DB_CONNECTION_URI");
                if (uri != null) {
                    PostgresUri parsed = PostgresUri.parse(uri);
                    dbUrl = parsed.jdbcUrl;
                    dbUser = Optional.ofNullable(get("MB_DB_USER")).orElse(parsed.user);
                    dbPassword = Optional.ofNullable(get("MB_DB_PASS")).orElse(parsed.password);
                } else {
                    String host = Optional.ofNullable(get("MB_DB_HOST")).orElse("localhost");
                    String port = Optional.ofNullable(get("MB_DB_PORT")).orElse("5432");
                    String name = Optional.ofNullable(get("MB_DB_DBNAME")).orElse("metabase");
                    dbUrl = "jdbc:postgresql://" + host + ":" + port + "/" + name;
                    dbUser = get("MB_DB_USER");
                    dbPassword = get("MB_DB_PASS");
                }
            }
            case "jndi" -> {
                if (jndi == null) {
                    throw new IllegalStateException("MB_DB_TYPE=jndi needs MB_DB_JNDI_NAME (for example java:comp/env/jdbc/quarry)");
                }
                dbType = DbType.JNDI;
                dbJndiName = jndi;
                dbUrl = null;
                dbUser = null;
                dbPassword = null;
            }
            default -> throw new IllegalStateException("Unsupported MB_DB_TYPE '" + type + "': use h2, postgres or jndi");
        }
        // Metabase reads MAX_SESSION_AGE without the MB_ prefix; accept both.
        maxSessionAgeMinutes = parseLong(Optional.ofNullable(get("MAX_SESSION_AGE")).orElse(get("MB_MAX_SESSION_AGE")), 20160L);
        passwordComplexity = Optional.ofNullable(get("MB_PASSWORD_COMPLEXITY")).orElse("normal").toLowerCase(Locale.ROOT);
        String length = get("MB_PASSWORD_LENGTH");
        passwordLength = length == null ? null : (int) parseLong(length, 6);
        sessionThrottleDisabled = Boolean.parseBoolean(get("MB_DISABLE_SESSION_THROTTLE"));
        encryptionSecretKey = get("MB_ENCRYPTION_SECRET_KEY");
        // MB_DB_QUERY_TIMEOUT_SECONDS is Quarry's own, for tests and benchmarks that need a timeout of seconds; it wins.
        queryTimeoutSeconds = (int) Math.min(Integer.MAX_VALUE, get("MB_DB_QUERY_TIMEOUT_SECONDS") != null
                ? parseLong(get("MB_DB_QUERY_TIMEOUT_SECONDS"), 1200) : 60 * parseLong(get("MB_DB_QUERY_TIMEOUT_MINUTES"), 20));
        maxRequestBodyBytes = parseLong(get("MB_MAX_REQUEST_BODY_BYTES"), 16L * 1024 * 1024);
        if (maxRequestBodyBytes <= 0) {
            throw new IllegalStateException("MB_MAX_REQUEST_BODY_BYTES must be a positive number of bytes");
        }
        usageFlushIntervalMillis = parseLong(get("MB_USAGE_FLUSH_INTERVAL_MS"), 1000);
        if (usageFlushIntervalMillis <= 0) {
            throw new IllegalStateException("MB_USAGE_FLUSH_INTERVAL_MS must be a positive number of milliseconds");
        }
        cacheRevisionCheckMillis = parseLong(get("MB_CACHE_REVISION_CHECK_INTERVAL_MS"), 1000);
        if (cacheRevisionCheckMillis < 0) {
            throw new IllegalStateException("MB_CACHE_REVISION_CHECK_INTERVAL_MS must be 0 or a positive number of milliseconds");
        }
    }

    /** Where the Sample Database file is generated: {@code MB_PLUGINS_DIR}, else {@code plugins} in the data directory. */
    public Path pluginsDir() {
        String configured = get("MB_PLUGINS_DIR");
        return configured != null ? Path.of(configured).toAbsolutePath().normalize() : dataDir.resolve("plugins");
    }

    /** The H2 application database file (without H2's {@code .mv.db}), or null when the app DB is not an H2 file. */
    public Path h2File() {
        if (dbType != DbType.H2 || !dbUrl.startsWith("jdbc:h2:file:")) {
            return null;
        }
        return Path.of(dbUrl.substring("jdbc:h2:file:".length()).replaceFirst(";.*$", ""));
    }

    /** The raw value of a configuration key, or null when unset or empty (Metabase treats empty as unset). */
    public String get(String key) {
        String value = source.apply(key);
        return value == null || value.isEmpty() ? null : value;
    }

    private static long parseLong(String value, long fallback) {
        if (value == null) {
            return fallback;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("Expected a whole number, got '" + value + "'", e);
        }
    }

    public static Function<String, String> layered(Map<String, String> initParams) {
        Map<String, String> env = System.getenv();
        return key -> {
            String value = initParams.get(key);
            if (value == null) {
                value = System.getProperty(key);
            }
            if (value == null) {
                value = env.get(key);
            }
            return value;
        };
    }

    /** Parses Metabase's {@code MB_DB_CONNECTION_URI}: {@code postgres://user:pass@host:port/db?opts} or a JDBC URL. */
    record PostgresUri(String jdbcUrl, String user, String password) {
        static PostgresUri parse(String uri) {
            if (uri.startsWith("jdbc:postgresql:")) {
                return new PostgresUri(uri, null, null);
            }
            URI parsed = URI.create(uri.replaceFirst("^postgresql:", "postgres:"));
            if (!"postgres".equals(parsed.getScheme())) {
                throw new IllegalStateException("MB_DB_CONNECTION_URI must start with postgres://, postgresql:// or jdbc:postgresql:");
            }
            String user = null;
            String password = null;
            if (parsed.getRawUserInfo() != null) {
                String[] parts = parsed.getRawUserInfo().split(":", 2);
                user = decode(parts[0]);
                password = parts.length > 1 ? decode(parts[1]) : null;
            }
            Map<String, String> query = new HashMap<>();
            if (parsed.getRawQuery() != null) {
                for (String pair : parsed.getRawQuery().split("&")) {
                    String[] kv = pair.split("=", 2);
                    query.put(decode(kv[0]), kv.length > 1 ? decode(kv[1]) : "");
                }
            }
            user = query.getOrDefault("user", user);
            password = query.getOrDefault("password", password);
            String port = parsed.getPort() > 0 ? ":" + parsed.getPort() : "";
            String jdbc = "jdbc:postgresql://" + parsed.getHost() + port + parsed.getRawPath()
                    + (parsed.getRawQuery() != null ? "?" + parsed.getRawQuery() : "");
            return new PostgresUri(jdbc, user, password);
        }

        private static String decode(String s) {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        }
    }
}
