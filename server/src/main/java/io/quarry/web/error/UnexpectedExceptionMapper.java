package io.quarry.web.error;

import io.quarry.appdb.AppDatabase;
import io.quarry.appdb.AppDatabaseStatus;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Anything unexpected: logged with an id, answered 500 without stack trace, SQL or secrets. A failure to reach the
 * application database that did not come through {@link io.quarry.appdb.Db} (MyBatis used directly, a raw
 * connection) is still a 503, logged once per outage.
 */
@Provider
public final class UnexpectedExceptionMapper implements ExceptionMapper<Throwable> {
    private static final Logger log = LoggerFactory.getLogger(UnexpectedExceptionMapper.class);

    private final AppDatabase appDatabase;

    @Inject
    public UnexpectedExceptionMapper(AppDatabase appDatabase) {
        this.appDatabase = appDatabase;
    }

    @Override
    public Response toResponse(Throwable e) {
        if (fromApplicationDatabase(e) && AppDatabaseStatus.isConnectionFailure(e)) {
            appDatabase.status().failed(e);
            return AppDatabaseUnavailableMapper.unavailable();
        }
        String id = UUID.randomUUID().toString().substring(0, 8);
        log.error("Unexpected error {}", id, e);
        return ErrorResponses.text(500, "Internal server error (logged as " + id + ").");
    }

    /** MyBatis serves only the application database; a connected database's failure is a query failure instead. */
    private static boolean fromApplicationDatabase(Throwable e) {
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof io.quarry.appdb.AppDatabaseUnavailable || t instanceof org.apache.ibatis.exceptions.PersistenceException) {
                return true;
            }
        }
        return false;
    }
}
