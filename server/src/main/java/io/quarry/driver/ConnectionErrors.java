package io.quarry.driver;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The connection failures Metabase tells apart, with its wording: a sentence for the form ({@code message}) and a short
 * hint under each field to blame. Drivers answer one of these from
 * {@link Driver#explainConnectionFailure(java.sql.SQLException, Map)}: a map whose {@code "message"} entry is the
 * sentence and whose other entries are field hints.
 */
public final class ConnectionErrors {
    /** The key of the sentence in an explanation; every other key names a detail field. */
    public static final String MESSAGE = "message";

    private ConnectionErrors() {
    }

    public static Map<String, String> hostAndPort() {
        return of("Hmm, we couldn't connect to the database. Make sure your Host and Port settings are correct",
                "host", "check your host settings", "port", "check your port settings");
    }

    public static Map<String, String> invalidHost() {
        return of("It looks like your Host is invalid. Please double-check it and try again.", "host", "check your host settings");
    }

    public static Map<String, String> databaseName() {
        return of("Looks like the Database name is incorrect.", "dbname", "check your database name settings");
    }

    public static Map<String, String> password() {
        return of("Looks like your Password is incorrect.", "password", "check your password");
    }

    public static Map<String, String> passwordRequired() {
        return of("Looks like you forgot to enter your Password.", "password", "check your password");
    }

    public static Map<String, String> user() {
        return of("Looks like your Username is incorrect.", "user", "check your username");
    }

    public static Map<String, String> userOrPassword() {
        return of("Looks like the Username or Password is incorrect.", "user", "check your username", "password", "check your password");
    }

    public static Map<String, String> requiresSsl() {
        return of("Server appears to require SSL - please enable SSL below", "ssl", "please enable SSL");
    }

    public static Map<String, String> certificateNotTrusted() {
        return of("Server certificate not trusted - did you specify the correct SSL certificate chain?");
    }

    /** A database file (H2, SQLite, DuckDB) that is not there. */
    public static Map<String, String> fileNotFound() {
        return of("Database cannot be found.", "db", "check your connection string");
    }

    /** A file that exists but is not a database of the engine. */
    public static Map<String, String> notADatabase() {
        return of("The file is not a database of this kind.", "db", "check your connection string");
    }

    public static Map<String, String> fileInUse() {
        return of("The database file is in use by another process.", "db", "check your connection string");
    }

    /** Only a sentence, no field to blame. */
    public static Map<String, String> message(String message) {
        return of(message);
    }

    /** A sentence followed by field/hint pairs. */
    public static Map<String, String> of(String message, String... fieldHints) {
        Map<String, String> result = new LinkedHashMap<>();
        result.put(MESSAGE, message);
        for (int i = 0; i + 1 < fieldHints.length; i += 2) {
            result.put(fieldHints[i], fieldHints[i + 1]);
        }
        return result;
    }

    /** True when the failure (or one of its causes) is of this type. */
    public static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
