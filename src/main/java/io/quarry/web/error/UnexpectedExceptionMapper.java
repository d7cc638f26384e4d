package io.quarry.web.error;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Anything unexpected: logged with an id, answered 500 without stack trace, SQL or secrets. */
@Provider
public final class UnexpectedExceptionMapper implements ExceptionMapper<Throwable> {
    private static final Logger log = LoggerFactory.getLogger(UnexpectedExceptionMapper.class);

    @Override
    public Response toResponse(Throwable e) {
        String id = UUID.randomUUID().toString().substring(0, 8);
        log.error("Unexpected error {}", id, e);
        return ErrorResponses.text(500, "Internal server error (logged as " + id + ").");
    }
}
