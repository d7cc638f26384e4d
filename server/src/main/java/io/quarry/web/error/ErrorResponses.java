package io.quarry.web.error;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Metabase's rule: a body with extra data is JSON; a bare message is plain text. */
public final class ErrorResponses {
    public static final MediaType TEXT = MediaType.valueOf("text/plain; charset=utf-8");

    private ErrorResponses() {
    }

    public static Response of(ApiException e) {
        if (e.body() != null) {
            return Response.status(e.status()).type(MediaType.APPLICATION_JSON_TYPE).entity(e.body()).build();
        }
        return text(e.status(), e.getMessage());
    }

    public static Response text(int status, String message) {
        return Response.status(status).type(TEXT).entity(message).build();
    }
}
