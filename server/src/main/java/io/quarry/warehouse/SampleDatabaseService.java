package io.quarry.warehouse;

import io.quarry.core.AppConfig;
import io.quarry.core.DataDirectory;
import io.quarry.sample.SampleDatabase;
import io.quarry.web.error.ApiException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bundled Sample Database as a connected database: its H2 file is generated into the plugins directory
 * ({@code MB_PLUGINS_DIR}, {@code plugins} in the data directory by default, as Metabase's) on first use and connected read-only as the
 * file's SELECT-only user. There is at most one: adding it again answers the one already there.
 */
public final class SampleDatabaseService {
    private static final Logger log = LoggerFactory.getLogger(SampleDatabaseService.class);
    public static final String NAME = "Sample Database";
    /** The sample file's cache schema for persisted models, the one schema its connection user may write. */
    public static final String CACHE_SCHEMA = SampleDatabase.CACHE_SCHEMA;

    private final DatabaseService databases;
    private final SyncLauncher sync;
    private final AppConfig config;
    private final Executor executor;

    public SampleDatabaseService(DatabaseService databases, SyncLauncher sync, AppConfig config, Executor executor) {
        this.databases = databases;
        this.sync = sync;
        this.config = config;
        this.executor = executor;
    }

    /** Where the sample database file lives. */
    public Path directory() {
        return config.pluginsDir();
    }

    /** Whether setup adds the sample database ({@code MB_LOAD_SAMPLE_CONTENT}, on unless "false"). */
    public boolean loadByDefault() {
        return !"false".equalsIgnoreCase(Optional.ofNullable(config.get("MB_LOAD_SAMPLE_CONTENT")).orElse("true").trim());
    }

    /** The sample database, added (file generated if needed, first sync started) when there is none yet. */
    public synchronized Database ensureAdded() {
        for (Database existing : databases.list()) {
            if (existing.isSample) {
                return existing;
            }
        }
        String problem = problem();
        if (problem != null) {
            throw new ApiException(503, problem);
        }
        Path file = SampleDatabase.ensure(directory());
        Database database = new Database();
        database.name = NAME;
        database.engine = SampleDatabase.ENGINE;
        database.isSample = true;
        database.details = details(file);
        Database created = databases.create(database);
        sync.syncInBackground(created.id);
        log.info("Added the sample database (id {})", created.id);
        return created;
    }

    /**
     * Why the sample database cannot be generated here, as a message that says where and how to fix it; null when it
     * can (the file is already there, or its directory can be created and written).
     */
    public String problem() {
        Path directory = directory();
        if (Files.isRegularFile(directory.resolve(SampleDatabase.FILE_NAME)) || DataDirectory.writable(directory)) {
            return null;
        }
        return "The Sample Database cannot be created: " + directory + " is not writable by the user running Quarry ("
                + System.getProperty("user.name") + "). Make it writable, or set MB_PLUGINS_DIR (or MB_DATA_DIR) to a"
                + " writable directory.";
    }

    /** Adds the sample database on the background executor (setup does not wait for a first generation). */
    public void addInBackground() {
        executor.execute(() -> {
            try {
                ensureAdded();
            } catch (RuntimeException e) {
                log.warn("Could not add the sample database", e);
            }
        });
    }

    /** The details that open the sample file read-only as its SELECT-only user. */
    static Map<String, Object> details(Path database) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("db", "file:" + database + ";ACCESS_MODE_DATA=r");
        details.put("user", SampleDatabase.USER);
        details.put("password", SampleDatabase.PASSWORD);
        return details;
    }
}
