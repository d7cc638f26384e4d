package io.quarry.web.error;

import com.fasterxml.jackson.core.JsonProcessingException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A request body that is not JSON at all. */
@Provider
public final class JsonSyntaxExceptionMapper implements ExceptionMapper<JsonProcessingException> {
    @Override
    public Response toResponse(JsonProcessingException e) {
        return ErrorResponses.of(ApiException.invalidField("body", "Malformed JSON request body."));
    }
}
