package io.quarry.appdb;

/**
 * The application database cannot be reached (down, refusing connections, frozen past a timeout, or every pooled
 * connection busy past the wait): the request cannot be served now, though nothing is wrong with it. Answered 503.
 */
public final class AppDatabaseUnavailable extends RuntimeException {
    public static final String MESSAGE = "The application database is unavailable. Please try again later.";

    public AppDatabaseUnavailable(Throwable cause) {
        super(MESSAGE, cause, false, false);
    }
}
