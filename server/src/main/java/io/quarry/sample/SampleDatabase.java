package io.quarry.sample;

import io.quarry.sample.SampleSchema.Column;
import io.quarry.sample.SampleSchema.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Quarry's bundled Sample Database: a store (PRODUCTS, PEOPLE, ORDERS, REVIEWS) and a SaaS business (ACCOUNTS,
 * ANALYTIC_EVENTS, FEEDBACK, INVOICES), generated deterministically into an H2 file on first use.
 *
 * <p>{@link #ensure(Path)} creates {@code <dir>/sample-database.mv.db} once. The file is built under a temporary
 * directory next to it and moved into place atomically when complete, under a JVM-wide lock plus a file lock on
 * {@code <dir>/sample-database.lock}, so concurrent callers (threads or processes) see either no file or a
 * complete one. Queries go through {@link #jdbcUrl(Path)}: read-only, never creating a database, as {@link #USER},
 * a user with SELECT rights only on the data (no admin functions such as FILE_READ or CREATE ALIAS).
 *
 * <p>Model caching needs a schema the connection user may write: the file has one, {@link #CACHE_SCHEMA}, owned by
 * {@link #USER} (it may create, fill and drop tables there and nowhere else; H2 lets only schema administrators create
 * schemas, so it is made when the file is built). A file built before it had this schema is rebuilt by
 * {@link #ensure(Path)} (the data is generated, the same every time).
 */
public final class SampleDatabase {
    private static final Logger log = LoggerFactory.getLogger(SampleDatabase.class);

    /** The database name; H2 stores it as {@code <name>.mv.db}. */
    public static final String NAME = "sample-database";
    public static final String FILE_NAME = NAME + ".mv.db";
    /** The engine of the generated file, as the connected database names it. */
    public static final String ENGINE = "h2";

    /** The read-only query user (Metabase's sample connection used GUEST/guest too). */
    public static final String USER = "GUEST";
    public static final String PASSWORD = "guest";
    /** The schema the cache tables of persisted models go to, owned by {@link #USER}. */
    public static final String CACHE_SCHEMA = "metabase_cache_sample";
    /** The seed of the data: changing it changes every row. */
    static final long SEED = 20_160_430L;

    private static final String LOCK_FILE = NAME + ".lock";
    private static final String BUILD_PREFIX = "." + NAME + "-build-";
    private static final int BATCH_SIZE = 1_000;
    /** One monitor per directory: a JVM may not hold two overlapping file locks on one file. */
    private static final Map<Path, Object> DIRECTORY_LOCKS = new ConcurrentHashMap<>();
    /** How many databases this JVM has built (tests use it to prove a file was reused, not rebuilt). */
    static final AtomicInteger BUILDS = new AtomicInteger();

    private SampleDatabase() {
    }

    /**
     * Creates the sample database in {@code directory} unless it is already there, and returns its path without
     * the {@code .mv.db} suffix (the form H2 URLs take). An existing file is reused as it is.
     */
    @SuppressWarnings("try") // the FileLock is held for the body of the try, never referenced
    public static Path ensure(Path directory) {
        Path dir = directory.toAbsolutePath().normalize();
        if (dir.toString().indexOf(';') >= 0) {
            // ';' separates settings in an H2 URL: such a path could smuggle settings in.
            throw new IllegalArgumentException("The sample database directory must not contain ';': " + dir);
        }
        Path database = dir.resolve(NAME);
        Path file = dir.resolve(FILE_NAME);
        if (Files.isRegularFile(file) && current(database)) {
            return database;
        }
        try {
            Files.createDirectories(dir);
            synchronized (DIRECTORY_LOCKS.computeIfAbsent(dir, key -> new Object())) {
                try (FileChannel channel = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                     FileLock lock = channel.lock()) {
                    if (!Files.isRegularFile(file) || !current(database)) {
                        deleteAbandonedBuilds(dir);
                        build(dir, file);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create the sample database in " + dir, e);
        }
        return database;
    }

    /**
     * The JDBC URL that opens the sample database at {@code database} (as returned by {@link #ensure(Path)})
     * read-only; it fails instead of creating an empty database when the file is missing. Connect as
     * {@link #USER}/{@link #PASSWORD}.
     */
    public static String jdbcUrl(Path database) {
        String path = database.toAbsolutePath().normalize().toString();
        if (path.indexOf(';') >= 0) {
            throw new IllegalArgumentException("The sample database path must not contain ';': " + path);
        }
        return "jdbc:h2:file:" + path + ";ACCESS_MODE_DATA=r;IFEXISTS=TRUE";
    }

    /** Opens a read-only connection to the sample database at {@code database}. */
    public static Connection connect(Path database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), USER, PASSWORD);
    }

    /** Whether the file at {@code database} is of this build (it has the cache schema); false when it cannot be read. */
    private static boolean current(Path database) {
        try (Connection connection = connect(database);
             PreparedStatement query = connection.prepareStatement(
                     "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SCHEMATA WHERE SCHEMA_NAME = ?")) {
            query.setString(1, CACHE_SCHEMA);
            try (var rows = query.executeQuery()) {
                return rows.next() && rows.getInt(1) == 1;
            }
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Builds the database in a private directory next to {@code target}, then moves the finished file there (over an
     * outdated one).
     */
    private static void build(Path dir, Path target) throws IOException {
        long started = System.nanoTime();
        BUILDS.incrementAndGet();
        Path buildDir = Files.createTempDirectory(dir, BUILD_PREFIX);
        try {
            Path built = buildDir.resolve(NAME);
            write(built);
            Path builtFile = buildDir.resolve(FILE_NAME);
            boolean outdated = Files.isRegularFile(target);
            try {
                Files.move(builtFile, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                // No atomic rename here: a plain move still never replaces a file someone else completed.
                if (outdated) {
                    Files.move(builtFile, target, StandardCopyOption.REPLACE_EXISTING);
                } else {
                    Files.move(builtFile, target);
                }
            }
            log.info("Created the sample database {} in {} ms", target, (System.nanoTime() - started) / 1_000_000);
        } catch (FileAlreadyExistsException e) {
            log.info("The sample database {} appeared while this one was built; keeping that one", target);
        } finally {
            deleteRecursively(buildDir);
        }
    }

    /** Creates the schema with its keys and comments, loads the rows, and shuts the database down compacted. */
    private static void write(Path database) throws IOException {
        // The owner gets a throwaway password: once built, nobody needs (or can get) admin rights on the file.
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        String url = "jdbc:h2:file:" + database.toAbsolutePath() + ";DB_CLOSE_ON_EXIT=FALSE";
        try (Connection connection = DriverManager.getConnection(url, "OWNER",
                Base64.getEncoder().encodeToString(secret))) {
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                // Keys before rows: checking each row as it comes is cheaper in H2 than validating afterwards.
                for (Table table : SampleSchema.TABLES) {
                    statement.execute(table.createSql());
                    for (String sql : table.foreignKeySql()) {
                        statement.execute(sql);
                    }
                    for (String sql : table.commentSql()) {
                        statement.execute(sql);
                    }
                }
                for (Map.Entry<Table, List<Object[]>> entry : SampleDataGenerator.generate(SEED).entrySet()) {
                    insert(connection, entry.getKey(), entry.getValue());
                }
                statement.execute("CREATE USER " + USER + " PASSWORD '" + PASSWORD + "'");
                statement.execute("GRANT SELECT ON SCHEMA PUBLIC TO " + USER);
                statement.execute("CREATE SCHEMA \"" + CACHE_SCHEMA + "\" AUTHORIZATION " + USER);
                connection.commit();
                statement.execute("SHUTDOWN COMPACT");
            }
        } catch (SQLException e) {
            throw new IOException("Could not write the sample database " + database, e);
        }
    }

    private static void insert(Connection connection, Table table, List<Object[]> rows) throws SQLException {
        List<Column> columns = table.columns();
        try (PreparedStatement insert = connection.prepareStatement(table.insertSql())) {
            int pending = 0;
            for (Object[] row : rows) {
                for (int i = 0; i < columns.size(); i++) {
                    if (row[i] == null) {
                        insert.setNull(i + 1, columns.get(i).jdbcType());
                    } else {
                        insert.setObject(i + 1, row[i]);
                    }
                }
                insert.addBatch();
                if (++pending == BATCH_SIZE) {
                    insert.executeBatch();
                    pending = 0;
                }
            }
            if (pending > 0) {
                insert.executeBatch();
            }
        }
        connection.commit();
    }

    /** Removes build directories a crashed process left behind (only called while holding the lock). */
    private static void deleteAbandonedBuilds(Path dir) throws IOException {
        try (DirectoryStream<Path> builds = Files.newDirectoryStream(dir, BUILD_PREFIX + "*")) {
            for (Path build : builds) {
                deleteRecursively(build);
            }
        }
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path each : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(each);
            }
        }
    }
}
