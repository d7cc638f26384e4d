package io.quarry.web.error;

import jakarta.ws.rs.WebApplicationException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A failure with an HTTP status, thrown by services and turned into a response by {@link ApiExceptionMapper}.
 * Following Metabase: an exception that carries a body (validation {@code errors}, extra keys) answers JSON; one that
 * carries only a message answers that message as plain text.
 *
 * <p>It extends {@link WebApplicationException} so that Jersey passes it through unchanged when a parameter converter
 * throws it (any other exception from a converter becomes a 404 by JAX-RS rules).
 */
public class ApiException extends WebApplicationException {
    private final int status;
    private final Map<String, Object> body;

    public ApiException(int status, String message) {
        this(status, message, null);
    }

    public ApiException(int status, String message, Map<String, Object> body) {
        super(message, null, status);
        this.status = status;
        this.body = body;
    }

    public int status() {
        return status;
    }

    /** The JSON body, or null when the message alone is the (plain-text) body. */
    public Map<String, Object> body() {
        return body;
    }

    public static ApiException notFound() {
        return new ApiException(404, "Not found.");
    }

    public static ApiException forbidden() {
        return new ApiException(403, "You don't have permissions to do that.");
    }

    public static ApiException unauthenticated() {
        return new ApiException(401, "Unauthenticated");
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }

    /** A 400 naming one field, as Metabase's {@code checkp}: {@code {"errors": {field: message}}}. */
    public static ApiException invalidField(String field, String message) {
        return withErrors(400, Map.of(field, message), null);
    }

    public static ApiException withErrors(int status, Map<String, ?> errors, Map<String, List<String>> specificErrors) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("errors", errors);
        if (specificErrors != null && !specificErrors.isEmpty()) {
            body.put("specific-errors", specificErrors);
        }
        String first = errors.isEmpty() ? "Invalid Request." : "Invalid field: " + errors.keySet().iterator().next();
        return new ApiException(status, first, body);
    }
}
