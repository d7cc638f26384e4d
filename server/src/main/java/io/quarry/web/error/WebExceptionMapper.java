package io.quarry.web.error;

import jakarta.inject.Inject;
import jakarta.inject.Provider;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import org.glassfish.jersey.server.ExtendedUriInfo;

/** JAX-RS's own errors (no such path, wrong method, unsupported media type) keep their status, with Metabase's texts. */
@jakarta.ws.rs.ext.Provider
public final class WebExceptionMapper implements ExceptionMapper<WebApplicationException> {
    @Inject
    private Provider<ExtendedUriInfo> uriInfo;

    @Override
    public Response toResponse(WebApplicationException e) {
        if (e instanceof ApiException api) {
            return ErrorResponses.of(api);
        }
        int status = e.getResponse().getStatus();
        if (status == 404) {
            boolean matched = uriInfo != null && uriInfo.get().getMatchedResourceMethod() != null;
            return ErrorResponses.text(404, matched ? "Not found." : "API endpoint does not exist.");
        }
        if (status == 405) {
            // Metabase routes by method and path together: a known path with another method is an unknown endpoint.
            return ErrorResponses.text(404, "API endpoint does not exist.");
        }
        String reason = e.getResponse().getStatusInfo().getReasonPhrase();
        return ErrorResponses.text(status, reason == null ? "Error." : reason);
    }
}
