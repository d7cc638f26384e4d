package io.quarry.driver.h2;

import io.quarry.driver.ConnectionErrors;
import io.quarry.driver.DetailField;
import io.quarry.driver.Feature;
import io.quarry.driver.JdbcDriver;
import io.quarry.driver.SqlDialect;
import io.quarry.web.error.ApiException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * H2 files. A connection string is an attack surface in BI servers (H2's {@code INIT=RUNSCRIPT ...} runs arbitrary
 * SQL — and through it Java — at connect time), so only a plain file path is accepted: an optional {@code file:}
 * prefix, no {@code ;} options except a short allow-list, no other H2 file system ({@code tcp:}, {@code ssl:},
 * {@code mem:}, {@code zip:}, {@code nio...:}, {@code split:} ...), and the database must already exist
 * ({@code IFEXISTS=TRUE}). Quarry's own application database (an H2 file holding password hashes and sessions) can
 * never be connected as a database.
 */
public final class H2Driver extends JdbcDriver {
    /**
     * What the engine supports, advertised (a database's {@code features}) and compiled by {@link H2Dialect} alike: the
     * standard JDBC features, right joins, percentiles and median ({@code PERCENTILE_CONT}, {@code MEDIAN}),
     * datetime-diff ({@code DATEDIFF}), actions, and persisted models (a connection that may write can hold their
     * tables; one opened with {@code ACCESS_MODE_DATA=r} fails the cache schema check). Not full joins: H2 has no
     * {@code FULL JOIN} (a syntax error), so the compiler refuses one.
     */
    static final Set<Feature> FEATURES = standardFeaturesAnd(Feature.RIGHT_JOIN, Feature.PERCENTILE_AGGREGATIONS,
            Feature.DATETIME_DIFF, Feature.ACTIONS, Feature.PERSIST_MODELS);
    private static final SqlDialect DIALECT = new H2Dialect();
    /** Options a user may put after the path; everything else (INIT, TRACE_*, AUTO_SERVER...) is refused. */
    private static final Set<String> ALLOWED_OPTIONS = Set.of("ACCESS_MODE_DATA", "IFEXISTS", "USER", "PASSWORD", "MODE",
            "CASE_INSENSITIVE_IDENTIFIERS", "DATABASE_TO_UPPER", "DATABASE_TO_LOWER");
    /** An H2 file-system prefix ({@code mem:}, {@code tcp:}, {@code nioMapped:}...), not a Windows drive letter. */
    private static final java.util.regex.Pattern FILE_SYSTEM_PREFIX = java.util.regex.Pattern.compile("^[A-Za-z][A-Za-z0-9]+:.*");

    /** The application database's H2 file (path without {@code .mv.db}), or null when it is not H2. */
    private final Path appDatabase;
    private final java.util.concurrent.ConcurrentMap<Long, java.util.concurrent.locks.ReadWriteLock> persistedTablesLocks =
            new java.util.concurrent.ConcurrentHashMap<>();

    public H2Driver() {
        this(null);
    }

    /** A driver that refuses connections to {@code appDatabase}, Quarry's own H2 application database (if any). */
    public H2Driver(Path appDatabase) {
        super(FEATURES, DIALECT);
        this.appDatabase = appDatabase == null ? null : stripSuffix(appDatabase.toAbsolutePath().normalize());
    }

    /** The database file of an H2 file URL ({@code jdbc:h2:file:/x/quarry;...} → {@code /x/quarry}), or null. */
    public static Path fileOf(String jdbcUrl) {
        if (jdbcUrl == null || !jdbcUrl.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:")) {
            return null;
        }
        String location = jdbcUrl.substring("jdbc:h2:".length()).split(";", 2)[0];
        if (location.toLowerCase(Locale.ROOT).startsWith("file:")) {
            location = location.substring("file:".length());
        } else if (FILE_SYSTEM_PREFIX.matcher(location).matches()) {
            return null;
        }
        return stripSuffix(Path.of(location).toAbsolutePath().normalize());
    }

    private static Path stripSuffix(Path path) {
        String name = path.getFileName() == null ? "" : path.getFileName().toString();
        return name.endsWith(".mv.db") ? path.resolveSibling(name.substring(0, name.length() - ".mv.db".length())) : path;
    }

    @Override
    public String engine() {
        return "h2";
    }

    /**
     * H2 2.x reparses a view while {@code CREATE OR REPLACE VIEW} replaces it, and a statement that reads the view at
     * that moment can fail ("Column not found", or a general error wrapping a {@code NullPointerException} or
     * {@code ConcurrentModificationException} from H2's schema objects) although it is fine. A persisted model's
     * refresh replaces its view ({@code CacheTables}); readers of the cache schema and the swap take turns on one lock
     * per database (the swap tries it until no query holds it, so queries never queue behind a swap).
     */
    @Override
    public java.util.concurrent.locks.ReadWriteLock persistedTablesLock(long databaseId) {
        return persistedTablesLocks.computeIfAbsent(databaseId, id -> new java.util.concurrent.locks.ReentrantReadWriteLock());
    }

    @Override
    public String displayName() {
        return "H2";
    }

    @Override
    public List<DetailField> detailFields() {
        return List.of(DetailField.text("db", "Connection String", true, "file:/Users/camsaul/bird_sightings/toucans"));
    }

    @Override
    public ConnectionSpec connectionSpec(Map<String, Object> details) {
        String db = text(details, "db");
        if (db == null) {
            throw ApiException.invalidField("db", "value must be a non-blank string.");
        }
        String[] parts = db.split(";");
        String location = parts[0].trim();
        String lower = location.toLowerCase(Locale.ROOT);
        if (lower.startsWith("jdbc:h2:")) {
            location = location.substring("jdbc:h2:".length());
            lower = location.toLowerCase(Locale.ROOT);
        }
        if (lower.startsWith("file:")) {
            location = location.substring("file:".length());
        } else if (FILE_SYSTEM_PREFIX.matcher(location).matches()) {
            // tcp:, ssl:, mem:, zip:, split:, async:, nio...:, memFS:, retry: ... anything but a file on this server
            throw ApiException.invalidField("db", "Only H2 database files are supported (no remote, in-memory or archive URLs).");
        }
        String path = location;
        if (path.isBlank()) {
            throw ApiException.invalidField("db", "value must be a non-blank string.");
        }
        Properties properties = new Properties();
        StringBuilder options = new StringBuilder();
        for (int i = 1; i < parts.length; i++) {
            String option = parts[i].trim();
            if (option.isEmpty()) {
                continue;
            }
            String[] kv = option.split("=", 2);
            String key = kv[0].trim().toUpperCase(Locale.ROOT);
            if (!ALLOWED_OPTIONS.contains(key)) {
                throw ApiException.invalidField("db", "The H2 connection option " + key + " is not allowed.");
            }
            String value = kv.length > 1 ? kv[1].trim() : "";
            if (key.equals("USER")) {
                properties.setProperty("user", value);
            } else if (key.equals("PASSWORD")) {
                properties.setProperty("password", value);
            } else if (!key.equals("IFEXISTS")) {
                options.append(';').append(key).append('=').append(value);
            }
        }
        if (text(details, "user") != null) {
            properties.setProperty("user", text(details, "user"));
        }
        if (details.get("password") != null) {
            properties.setProperty("password", details.get("password").toString());
        }
        Path file;
        try {
            file = stripSuffix(Path.of(path.trim()).toAbsolutePath().normalize());
        } catch (java.nio.file.InvalidPathException e) {
            throw ApiException.invalidField("db", "The database path is not a valid file path.");
        }
        if (appDatabase != null && sameDatabase(file, appDatabase)) {
            throw ApiException.invalidField("db", "Quarry's own application database cannot be added as a database.");
        }
        String normalized = file.toString();
        // Never create a database where none exists: a connection is to an existing file only.
        return new ConnectionSpec("org.h2.Driver", "jdbc:h2:file:" + normalized + options + ";IFEXISTS=TRUE", properties);
    }

    /** Same file, also when reached through a symbolic link or a differently written path. */
    private static boolean sameDatabase(Path candidate, Path protectedDatabase) {
        if (candidate.equals(protectedDatabase)) {
            return true;
        }
        Path a = canonical(candidate);
        Path b = canonical(protectedDatabase);
        if (a.equals(b)) {
            return true;
        }
        Path fileA = a.resolveSibling(a.getFileName() + ".mv.db");
        Path fileB = b.resolveSibling(b.getFileName() + ".mv.db");
        try {
            return java.nio.file.Files.exists(fileA) && java.nio.file.Files.exists(fileB) && java.nio.file.Files.isSameFile(fileA, fileB);
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** The path with its directory's symbolic links resolved (when the directory exists). */
    private static Path canonical(Path path) {
        Path parent = path.getParent();
        try {
            return parent == null ? path : parent.toRealPath().resolve(path.getFileName());
        } catch (java.io.IOException e) {
            return path;
        }
    }

    @Override
    public Map<String, String> explainConnectionFailure(java.sql.SQLException failure, Map<String, Object> details) {
        String message = rootMessage(failure);
        int code = failure.getErrorCode();
        if (code == 90146 || message.contains("not found, and IFEXISTS") || message.matches("(?s)^Database .* not found.*")) {
            return ConnectionErrors.fileNotFound();
        }
        if (code == 28000 || message.contains("Wrong user name or password")) {
            return ConnectionErrors.userOrPassword();
        }
        if (code == 90020) {
            return ConnectionErrors.fileInUse();
        }
        if (code == 90030 || code == 90048 || code == 90049) { // corrupted file, unsupported format, encryption error
            return ConnectionErrors.notADatabase();
        }
        Map<String, String> explained = super.explainConnectionFailure(failure, details);
        explained.putIfAbsent("db", "check your connection string");
        return explained;
    }
}
