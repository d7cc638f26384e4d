package io.quarry.qp;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Metabase's body for a query that failed: {@code status: failed}, the database's message, the error type. */
public final class QueryResponses {
    private QueryResponses() {
    }

    public static Response failure(QueryFailure failure, Object jsonQuery, Long databaseId) {
        return Response.status(failure.type().status).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(failureBody(failure, jsonQuery, databaseId)).build();
    }

    /** The failure body alone, for a failure that comes after a 202 was committed. */
    public static Map<String, Object> failureBody(QueryFailure failure, Object jsonQuery, Long databaseId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", "failed");
        body.put("error", failure.getMessage());
        body.put("error_type", failure.type().key);
        if (failure.getCause() != null) {
            body.put("class", "class " + failure.getCause().getClass().getName());
        }
        body.put("state", failure.sqlState());
        body.put("json_query", jsonQuery);
        body.put("database_id", databaseId);
        body.put("row_count", 0);
        body.put("running_time", 0);
        body.put("data", Map.of("rows", List.of(), "cols", List.of()));
        return body;
    }

    /** The request as Metabase echoes it in {@code json_query}, with the middleware it applied. */
    public static Object withMiddleware(com.fasterxml.jackson.databind.JsonNode request) {
        if (request == null || !request.isObject()) {
            return request;
        }
        com.fasterxml.jackson.databind.node.ObjectNode copy = request.deepCopy();
        com.fasterxml.jackson.databind.node.ObjectNode middleware = copy.with("middleware");
        if (!middleware.has("js-int-to-string?")) {
            middleware.put("js-int-to-string?", true);
        }
        middleware.put("add-default-userland-constraints?", true);
        return copy;
    }
}
