package io.quarry.driver;

import io.quarry.web.error.ApiException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Engines whose database is one local file ({@code sqlite}, {@code duckdb}): the {@code db} detail is a plain path,
 * nothing else. URL syntax the engines would interpret ({@code :memory:}, {@code :resource:}, URI file names with
 * {@code ?} parameters, {@code ;key=value} settings, MotherDuck {@code md:}) is refused, relative paths are made
 * absolute, and each engine opens the file without creating it when it is missing.
 */
public abstract class FileDriver extends JdbcDriver {
    /** An engine's features and dialect ({@link JdbcDriver#JdbcDriver(Set, SqlDialect)}). */
    protected FileDriver(java.util.Set<Feature> features, SqlDialect dialect) {
        super(features, dialect);
    }

    /** {@code jdbc:sqlite:}. */
    protected abstract String urlPrefix();

    /** The file path placeholder of the connection form. */
    protected abstract String pathExample();

    @Override
    public List<DetailField> detailFields() {
        return List.of(DetailField.text("db", "Filename", true, pathExample()));
    }

    /** The absolute, normalised path of the database file; 400 naming {@code db} for anything but a plain path. */
    protected Path path(Map<String, Object> details) {
        String db = text(details, "db");
        if (db == null) {
            throw ApiException.invalidField("db", "value must be a non-blank string.");
        }
        String lower = db.toLowerCase(Locale.ROOT);
        String prefix = urlPrefix().toLowerCase(Locale.ROOT);
        if (lower.startsWith(prefix)) {
            db = db.substring(prefix.length());
            lower = lower.substring(prefix.length());
        }
        if (lower.startsWith("file:")) {
            db = db.substring("file:".length());
            lower = lower.substring("file:".length());
        }
        // ":memory:", ":resource:...", and any "scheme:" (md:, motherduck:, http:, s3:, jdbc:...) but a drive letter
        if (db.isBlank() || db.startsWith(":") || db.matches("^[A-Za-z][A-Za-z0-9+.-]+:.*")) {
            throw ApiException.invalidField("db", "Only database files on this server are supported (no in-memory, remote or "
                    + "resource databases).");
        }
        for (char c : new char[]{'?', '#', ';', '\0', '\n', '\r'}) {
            if (db.indexOf(c) >= 0) {
                throw ApiException.invalidField("db", "The database path must be a plain file path, without URL parameters.");
            }
        }
        try {
            return Path.of(db).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw ApiException.invalidField("db", "The database path is not a valid file path.");
        }
    }

    @Override
    public Map<String, String> explainConnectionFailure(java.sql.SQLException failure, Map<String, Object> details) {
        Map<String, String> explained = super.explainConnectionFailure(failure, details);
        // whatever the engine said, a file engine has one field to blame
        explained.putIfAbsent("db", "check your connection string");
        return explained;
    }
}
