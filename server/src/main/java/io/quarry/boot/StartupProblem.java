package io.quarry.boot;

import io.quarry.core.AppConfig;
import io.quarry.core.DataDirectory;
import java.nio.file.Path;

/**
 * Why Quarry cannot start yet, said so that a person can act on it: what it tried to open (file or host), the cause,
 * and the fix. The password never appears.
 */
final class StartupProblem {
    private StartupProblem() {
    }

    /** One line: where, why, what to do. */
    static String describe(AppConfig config, Throwable failure) {
        String cause = rootMessage(failure);
        if (config == null) {
            return "Quarry's configuration is invalid: " + cause + ". Fix the setting and redeploy.";
        }
        return switch (config.dbType) {
            case H2 -> {
                Path file = config.h2File();
                Path directory = file == null ? null : file.toAbsolutePath().getParent();
                String fix = directory != null && !DataDirectory.writable(directory)
                        ? directory + " is not writable by the user running Quarry (" + System.getProperty("user.name")
                                + "): create it and give that user write access, or set MB_DATA_DIR (or MB_DB_FILE) to a"
                                + " writable location."
                        : "Make sure no other process holds the file (another Quarry, or a second deployment on the same"
                                + " MB_DB_FILE) and that it is readable and writable by the user running Quarry.";
                yield "Cannot open the H2 application database " + (file == null ? config.dbUrl : file + ".mv.db") + ": "
                        + cause + ". " + fix;
            }
            case POSTGRES -> "Cannot use the PostgreSQL application database " + config.dbUrl
                    + (config.dbUser == null ? "" : " as user " + config.dbUser) + ": " + cause
                    + ". Check that PostgreSQL runs and accepts connections from this host (MB_DB_HOST, MB_DB_PORT),"
                    + " that the user and password are right (MB_DB_USER, MB_DB_PASS), and that the database exists:"
                    + " Quarry creates its tables but not the database (createdb -O <user> <name>).";
            case JNDI -> "Cannot use the application DataSource " + config.dbJndiName + ": " + cause
                    + ". Check the Resource in the container's context configuration (context.xml) and that the database"
                    + " it points to accepts connections.";
        };
    }

    static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        if (message == null || message.isBlank()) {
            return root.getClass().getSimpleName();
        }
        message = message.strip().replaceAll("\\s+", " ");
        // a file system error's message is often the bare path: its kind says what happened
        return root instanceof java.nio.file.FileSystemException ? root.getClass().getSimpleName() + " " + message : message;
    }
}
