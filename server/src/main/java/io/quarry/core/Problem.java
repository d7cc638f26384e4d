package io.quarry.core;

import java.time.Instant;
import java.util.Objects;

/**
 * The last thing that went wrong with a dependency (the application database, a connected database's pool, the SMTP
 * server, the scheduler's lease), and when: what {@code GET /api/health/details} reports beside each live check.
 */
public record Problem(String message, Instant at) {
    public Problem {
        Objects.requireNonNull(at, "at is null");
        message = message == null ? "unknown error" : message;
    }

    /** The failure's own message (its class when it has none), at the current time. */
    public static Problem of(Throwable failure) {
        String message = failure.getMessage();
        return new Problem(message == null || message.isBlank() ? failure.toString() : message, Instant.now());
    }
}
