package io.quarry.driver;

import java.sql.SQLException;

/**
 * A statement the engine will not run on a connected database (see {@link Driver#checkStatement}): nothing of it
 * reached the database. SQL state {@code 42501} (insufficient privilege).
 */
public final class StatementRefused extends SQLException {
    public StatementRefused(String message) {
        super(message, "42501");
    }
}
