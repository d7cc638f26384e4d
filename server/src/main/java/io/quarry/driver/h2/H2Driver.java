package io.quarry.driver.h2;

import io.quarry.driver.ConnectionErrors;
import io.quarry.driver.DetailField;
import io.quarry.driver.Feature;
import io.quarry.driver.JdbcDriver;
import io.quarry.driver.PersistedTableDdl;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.SqlTokens;
import io.quarry.driver.StatementKind;
import io.quarry.driver.StatementRefused;
import io.quarry.web.error.ApiException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.h2.command.Command;
import org.h2.command.CommandContainer;
import org.h2.command.CommandInterface;
import org.h2.command.Parser;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.message.DbException;

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
    private static final PersistedTableDdl PERSISTED_TABLES = new H2PersistedTables(DIALECT);
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
    public PersistedTableDdl persistedTables() {
        return PERSISTED_TABLES;
    }

    @Override
    public List<DetailField> detailFields() {
        return List.of(DetailField.text("db", "Connection String", true, "file:/Users/camsaul/bird_sightings/toucans"));
    }

    @Override
    public Set<String> allowedConnectionOptions() {
        return ALLOWED_OPTIONS;
    }

    /** As every engine's, and the {@code PASSWORD=} option of the connection string ({@code db}) masked in place. */
    @Override
    public Map<String, Object> maskedDetails(Map<String, Object> details) {
        Map<String, Object> masked = super.maskedDetails(details);
        if (masked.get("db") instanceof String db) {
            masked.put("db", withPassword(db, SECRET_PLACEHOLDER));
        }
        return masked;
    }

    /**
     * As every engine's, and a connection string sent back with its {@code PASSWORD=} masked keeps the stored
     * string's password (none when the stored string has none: the placeholder is never stored as a password).
     */
    @Override
    public Map<String, Object> mergedDetails(Map<String, Object> stored, Map<String, Object> incoming) {
        Map<String, Object> merged = super.mergedDetails(stored, incoming);
        if (incoming.get("db") instanceof String db && SECRET_PLACEHOLDER.equals(passwordOf(db))) {
            String storedPassword = stored != null && stored.get("db") instanceof String old ? passwordOf(old) : null;
            merged.put("db", withPassword(db, storedPassword));
        }
        return merged;
    }

    /** The value of the connection string's last {@code PASSWORD=} option (the one H2 would use), or null. */
    private static String passwordOf(String db) {
        String password = null;
        String[] parts = db.split(";", -1);
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq > 0 && parts[i].substring(0, eq).trim().equalsIgnoreCase("PASSWORD")) {
                password = parts[i].substring(eq + 1).trim();
            }
        }
        return password;
    }

    /**
     * The connection string with every non-empty {@code PASSWORD=} option's value replaced by {@code password}, or
     * the option removed when {@code password} is null; everything else as written.
     */
    private static String withPassword(String db, String password) {
        String[] parts = db.split(";", -1);
        StringBuilder out = new StringBuilder(parts[0]);
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i];
            int eq = part.indexOf('=');
            if (eq > 0 && part.substring(0, eq).trim().equalsIgnoreCase("PASSWORD") && !part.substring(eq + 1).isBlank()) {
                if (password == null) {
                    continue;
                }
                part = part.substring(0, eq + 1) + password;
            }
            out.append(';').append(part);
        }
        return out.toString();
    }

    @Override
    public ConnectionSpec connectionSpec(Map<String, Object> details) {
        return connectionSpec(details, false);
    }

    /**
     * The file as a URL with no options at all ({@code jdbc:h2:file:/path}); everything else travels as connection
     * properties, which H2 reads as settings without unescaping them, so no value can end the URL early or add a
     * setting (a trailing {@code \\} on the last option once swallowed the {@code ;IFEXISTS=TRUE} appended after it).
     * {@code IFEXISTS=TRUE} (never create a database) and {@code ACCESS_MODE_DATA} are Quarry's: read-only unless
     * Quarry may write to the database ({@code mayWrite}, from its settings: actions, persisted models, uploads).
     */
    @Override
    public ConnectionSpec connectionSpec(Map<String, Object> details, boolean mayWrite) {
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
            if (value.indexOf('\\') >= 0) {
                throw ApiException.invalidField("db", "The value of the H2 connection option " + key + " may not contain a backslash.");
            }
            switch (key) {
                case "USER" -> properties.setProperty("user", value);
                case "PASSWORD" -> properties.setProperty("password", value);
                case "IFEXISTS", "ACCESS_MODE_DATA" -> {
                    // Quarry's to set (below)
                }
                default -> properties.setProperty(key, value);
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
        // Never create a database where none exists: a connection is to an existing file only.
        properties.setProperty("IFEXISTS", "TRUE");
        properties.setProperty("ACCESS_MODE_DATA", mayWrite ? "rw" : "r");
        return new ConnectionSpec("org.h2.Driver", "jdbc:h2:file:" + file, properties);
    }

    /** Metabase's refusal of SQL written by a person on an H2 connection as an administrator. */
    public static final String ADMIN_REFUSED = "Running SQL queries against H2 databases using the default (admin) database user is forbidden.";

    private static final String HOST_REFUSED = "Queries against H2 databases may not use functions that reach the "
            + "server's files or other databases.";

    /** H2's functions that read or write files on the host or open other databases. */
    private static final Set<String> HOST_FUNCTIONS = Set.of("FILE_READ", "FILE_WRITE", "CSVREAD", "CSVWRITE", "LINK_SCHEMA");

    private static boolean callsHostFunction(SqlTokens tokens) {
        for (String function : HOST_FUNCTIONS) {
            if (tokens.containsSequence(function, "(")) {
                return true;
            }
        }
        return false;
    }

    /** What each kind of statement may be, as H2's parser classifies it ({@link CommandInterface}). */
    private static final Map<StatementKind, Set<Integer>> ALLOWED_COMMANDS = Map.of(
            StatementKind.READ, Set.of(CommandInterface.SELECT),
            StatementKind.WRITE_ROWS, Set.of(CommandInterface.INSERT, CommandInterface.UPDATE, CommandInterface.DELETE,
                    CommandInterface.MERGE),
            StatementKind.WRITE_TABLES, Set.of(CommandInterface.SELECT, CommandInterface.INSERT, CommandInterface.DELETE,
                    CommandInterface.CREATE_SCHEMA, CommandInterface.CREATE_TABLE, CommandInterface.DROP_TABLE,
                    CommandInterface.CREATE_VIEW, CommandInterface.DROP_VIEW, CommandInterface.ALTER_TABLE_RENAME));

    /**
     * H2 runs Java and reaches the host through SQL ({@code CREATE ALIAS ... AS $$ java $$}, {@code FILE_READ},
     * {@code CSVWRITE}, {@code RUNSCRIPT}, {@code LINK_SCHEMA}, {@code EXECUTE IMMEDIATE} of any of these), and runs
     * every statement of a text. So, as Metabase does and further:
     * <ul>
     * <li>SQL a person wrote ({@code authored}: a native query, or a query with a native part) never runs as an H2
     * administrator ({@code sa}, or any user with admin rights): every host-reaching function and command needs admin
     * rights, so a connection as an ordinary user cannot use them.</li>
     * <li>H2's own parser classifies the text: exactly one statement, of a command type the kind allows (a read is one
     * SELECT; a row write one INSERT, UPDATE, DELETE or MERGE; table writes the DDL of Quarry's own tables), and no
     * data-change delta table ({@code SELECT ... FROM FINAL TABLE (INSERT ...)}) in a read.</li>
     * <li>A read on a database opened read-write (actions or persisted models on) runs in a transaction the pool rolls
     * back when the connection returns; opened read-only ({@code ACCESS_MODE_DATA=r}), H2 itself refuses any write.</li>
     * </ul>
     */
    @Override
    public void checkStatement(java.sql.Connection connection, String sql, StatementKind kind, boolean authored)
            throws java.sql.SQLException {
        if (!(connection.unwrap(JdbcConnection.class).getSession() instanceof SessionLocal session)) {
            throw new StatementRefused("Only connections to H2 files on this server are supported.");
        }
        if (authored && session.getUser().isAdmin()) {
            throw new StatementRefused(ADMIN_REFUSED);
        }
        Command command;
        try {
            command = new Parser(session).prepareCommand(sql);
        } catch (DbException e) {
            if (e.getErrorCode() == org.h2.api.ErrorCode.ADMIN_RIGHTS_REQUIRED) {
                // CSVREAD, LINK_SCHEMA ...: what reaches the host needs admin rights, which this user lacks
                throw new StatementRefused(HOST_REFUSED);
            }
            // the statement's own error (syntax, a missing table), as executing it would have reported it
            throw e.getSQLException();
        }
        try {
            if (!(command instanceof CommandContainer)) { // a CommandList: several statements
                throw new StatementRefused("Only one SQL statement may run at a time on H2 databases.");
            }
            if (!ALLOWED_COMMANDS.get(kind).contains(command.getCommandType())) {
                throw new StatementRefused(kind == StatementKind.READ ? "Queries against H2 databases may only read data: "
                        + "one SELECT statement is allowed." : "This statement is not allowed on H2 databases.");
            }
            SqlTokens tokens = SqlTokens.of(sql, SqlTokens.Lexicon.H2);
            if (authored && callsHostFunction(tokens)) {
                // an ordinary user's connection could not run them either; this says so before it tries
                throw new StatementRefused(HOST_REFUSED);
            }
            if (kind == StatementKind.READ && tokens.containsDataChangeDeltaTable()) {
                throw new StatementRefused("Queries against H2 databases may only read data: data-change delta tables "
                        + "(FINAL TABLE, OLD TABLE, NEW TABLE) are not allowed.");
            }
        } finally {
            command.close();
        }
        if (kind == StatementKind.READ && !session.getDatabase().isReadOnly() && connection.getAutoCommit()) {
            connection.setAutoCommit(false);
        }
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
