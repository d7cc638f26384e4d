package io.quarry.web.error;

import io.quarry.appdb.AppDatabaseUnavailable;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * The application database is down or frozen: 503 with a message that says so. The outage was logged once when it
 * began ({@link io.quarry.appdb.AppDatabaseStatus}); no stack trace per request.
 */
@Provider
public final class AppDatabaseUnavailableMapper implements ExceptionMapper<AppDatabaseUnavailable> {
    @Override
    public Response toResponse(AppDatabaseUnavailable e) {
        return unavailable();
    }

    static Response unavailable() {
        return Response.fromResponse(ErrorResponses.text(503, AppDatabaseUnavailable.MESSAGE)).header("Retry-After", "5").build();
    }
}
