package io.quarry.driver;

import io.quarry.web.error.ApiException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * H2 files. A connection string is an attack surface in BI servers (H2's {@code INIT=RUNSCRIPT ...} runs arbitrary
 * SQL — and through it Java — at connect time), so only a plain file path is accepted: {@code file:} or {@code mem:}
 * prefixes aside, no {@code ;} options except a short allow-list, no remote ({@code tcp:}, {@code ssl:}) or
 * {@code zip:} URLs, and the database must already exist ({@code IFEXISTS=TRUE}).
 */
public final class H2Driver extends JdbcDriver {
    /** Options a user may put after the path; everything else (INIT, TRACE_*, AUTO_SERVER...) is refused. */
    private static final Set<String> ALLOWED_OPTIONS = Set.of("ACCESS_MODE_DATA", "IFEXISTS", "USER", "PASSWORD", "MODE",
            "CASE_INSENSITIVE_IDENTIFIERS", "DATABASE_TO_UPPER", "DATABASE_TO_LOWER");

    @Override
    public String engine() {
        return "h2";
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
        if (lower.startsWith("tcp:") || lower.startsWith("ssl:") || lower.startsWith("zip:") || lower.startsWith("nio")
                || lower.startsWith("split:") || lower.startsWith("async:") || lower.startsWith("memfs:") || lower.startsWith("mem:")) {
            throw ApiException.invalidField("db", "Only H2 database files are supported (no remote, in-memory or archive URLs).");
        }
        String path = lower.startsWith("file:") ? location.substring("file:".length()) : location;
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
        String normalized = Path.of(path.replaceFirst("\\.mv\\.db$", "")).toAbsolutePath().normalize().toString();
        // Never create a database where none exists: a connection is to an existing file only.
        return new ConnectionSpec("org.h2.Driver", "jdbc:h2:file:" + normalized + options + ";IFEXISTS=TRUE", properties);
    }

    @Override
    public Map<String, String> explainConnectionFailure(java.sql.SQLException failure, Map<String, Object> details) {
        String message = rootMessage(failure);
        if (failure.getErrorCode() == 90146 || message.contains("not found, and IFEXISTS")) {
            return Map.of("db", "No H2 database file was found at that path.");
        }
        if (failure.getErrorCode() == 28000 || message.contains("Wrong user name or password")) {
            return Map.of("password", "Wrong user name or password.");
        }
        if (failure.getErrorCode() == 90020) {
            return Map.of("db", "The H2 database file is in use by another process.");
        }
        return super.explainConnectionFailure(failure, details);
    }
}
