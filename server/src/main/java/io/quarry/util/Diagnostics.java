package io.quarry.util;

import io.quarry.appdb.AppDatabase;
import io.quarry.appdb.Db;
import io.quarry.core.ConnectionPools;
import io.quarry.core.Version;
import io.quarry.setting.Settings;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the diagnostic endpoints report: the bug-report details, the anonymous usage statistics and the connection
 * pools. Counts and versions only: no names, emails or queries.
 */
public final class Diagnostics {
    /** The JVM and OS facts Metabase's bug report lists. */
    private static final List<String> SYSTEM_PROPERTIES = List.of("file.encoding", "java.runtime.name",
            "java.runtime.version", "java.vendor", "java.vendor.url", "java.version", "java.vm.name", "java.vm.version",
            "os.name", "os.version", "user.language", "user.timezone");
    private static final List<String> STATS_PROPERTIES = List.of("java.version", "java.vm.specification.version",
            "java.runtime.name", "user.timezone", "user.language", "user.country", "file.encoding", "os.name", "os.version");

    private final Db db;
    private final AppDatabase appDatabase;
    private final Settings settings;
    private final ConnectionPools pools;
    private final Clock clock;

    public Diagnostics(Db db, AppDatabase appDatabase, Settings settings, ConnectionPools pools, Clock clock) {
        this.db = db;
        this.appDatabase = appDatabase;
        this.settings = settings;
        this.pools = pools;
        this.clock = clock;
    }

    /** {@code GET /api/util/bug_report_details}: {@code {"system-info": {...}, "metabase-info": {...}}}. */
    public Map<String, Object> bugReport() {
        DiagnosticsMapper.UserStats users = db.with(DiagnosticsMapper.class, DiagnosticsMapper::userStats);
        Map<String, Object> info = new LinkedHashMap<>();
        // Engines of the connected databases; Quarry has none to report until users' databases exist.
        info.put("databases", List.of());
        info.put("run-mode", "prod");
        info.put("plan-alias", "");
        info.put("version", Version.asMap());
        info.put("quarry-version", Version.quarryVersion());
        Map<String, Object> reportSettings = new LinkedHashMap<>();
        reportSettings.put("report-timezone", settings.get("report-timezone"));
        info.put("settings", reportSettings);
        info.put("hosting-env", "unknown");
        Map<String, Object> details = applicationDatabaseDetails();
        info.put("application-database", applicationDatabaseType(details));
        info.put("application-database-details", details);
        info.put("user-count", users.total);
        info.put("active-user-count", orZero(users.active));
        info.put("api-key-count", db.with(DiagnosticsMapper.class, DiagnosticsMapper::countApiKeys));
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("system-info", systemInfo());
        result.put("metabase-info", info);
        return result;
    }

    /** {@code GET /api/util/stats}: Metabase's legacy anonymous usage statistics, for what Quarry has. */
    public Map<String, Object> anonymousStats() {
        DiagnosticsMapper.UserStats users = db.with(DiagnosticsMapper.class, DiagnosticsMapper::userStats);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("version", Version.asMap().get("tag"));
        result.put("running_on", "unknown");
        result.put("application_database", applicationDatabaseType(applicationDatabaseDetails()));
        result.put("check_for_updates", settings.bool("check-for-updates"));
        result.put("site_name", !"Quarry".equals(settings.string("site-name")));
        result.put("report_timezone", settings.get("report-timezone"));
        result.put("friendly_names", false);
        result.put("email_configured", settings.string("email-smtp-host") != null);
        result.put("slack_configured", false);
        result.put("sso_configured", false);
        result.put("instance_started", users.firstJoined == null ? null
                : users.firstJoined.withOffsetSameInstant(ZoneOffset.UTC).toLocalDate().toString());
        result.put("has_sample_data", false);
        result.put("uuid", settings.get("site-uuid"));
        result.put("timestamp", OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC));

        Map<String, Object> userCounts = new LinkedHashMap<>();
        userCounts.put("total", users.total);
        userCounts.put("active", orZero(users.active));
        userCounts.put("admin", orZero(users.admin));
        userCounts.put("logged_in", orZero(users.loggedIn));
        userCounts.put("sso", orZero(users.sso));
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("user", Map.of("users", userCounts));
        stats.put("group", Map.of("groups", db.with(DiagnosticsMapper.class, DiagnosticsMapper::countGroups)));
        stats.put("api_key", Map.of("api_keys", Map.of("total", db.with(DiagnosticsMapper.class, DiagnosticsMapper::countApiKeys))));
        stats.put("system", systemMetrics());
        result.put("stats", stats);
        return result;
    }

    /** {@code GET /api/util/diagnostic_info/connection_pool_info}: {@code {"connection-pools": {name: stats}}}. */
    public Map<String, Object> connectionPools() {
        return Map.of("connection-pools", pools.describe());
    }

    private static Map<String, Object> systemInfo() {
        Map<String, Object> info = new TreeMap<>();
        for (String name : SYSTEM_PROPERTIES) {
            info.put(name, System.getProperty(name));
        }
        return info;
    }

    private static Map<String, Object> systemMetrics() {
        Runtime runtime = Runtime.getRuntime();
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("max_memory", Math.round(runtime.maxMemory() / 1024.0 / 1024.0));
        metrics.put("processors", runtime.availableProcessors());
        for (String name : STATS_PROPERTIES) {
            metrics.put(name.replace('.', '_'), System.getProperty(name));
        }
        return metrics;
    }

    private Map<String, Object> applicationDatabaseDetails() {
        Map<String, Object> details = new LinkedHashMap<>();
        try (Connection connection = appDatabase.dataSource().getConnection()) {
            DatabaseMetaData metadata = connection.getMetaData();
            details.put("database", nameAndVersion(metadata.getDatabaseProductName(), metadata.getDatabaseProductVersion()));
            details.put("jdbc-driver", nameAndVersion(metadata.getDriverName(), metadata.getDriverVersion()));
        } catch (SQLException e) {
            details.put("error", e.getMessage());
        }
        return details;
    }

    /** Metabase's names for the application database type: {@code h2}, {@code postgres}. */
    private String applicationDatabaseType(Map<String, Object> details) {
        Object database = details.get("database");
        if (database instanceof Map<?, ?> map && map.get("name") != null) {
            String product = map.get("name").toString().toLowerCase(Locale.ROOT);
            if (product.contains("postgres")) {
                return "postgres";
            }
            if (product.contains("h2")) {
                return "h2";
            }
            return product;
        }
        return appDatabase.type().name().toLowerCase(Locale.ROOT);
    }

    private static Map<String, Object> nameAndVersion(String name, String version) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("name", name);
        result.put("version", version);
        return result;
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }
}
