package io.quarry.web.error;

import io.quarry.core.UnauthenticatedException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A caller without a user where one is needed: the same 401 as {@link ApiException#unauthenticated()}. */
@Provider
public final class UnauthenticatedExceptionMapper implements ExceptionMapper<UnauthenticatedException> {
    @Override
    public Response toResponse(UnauthenticatedException e) {
        return ErrorResponses.of(ApiException.unauthenticated());
    }
}
