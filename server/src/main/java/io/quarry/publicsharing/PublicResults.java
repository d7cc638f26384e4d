package io.quarry.publicsharing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.core.Json;
import io.quarry.qp.run.QueryOutcome;
import io.quarry.qp.web.QueryResponder;
import io.quarry.web.error.ApiException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * A public or embedded query's answer as Metabase's {@code transform-qp-result} leaves it: a completed result keeps
 * only {@code data.{cols,rows,rows_truncated,insights,requested_timezone,results_timezone}},
 * {@code json_query.parameters} and {@code status}; a failure keeps {@code status} and {@code error_type}, its message
 * replaced. The answer is computed before it is sent (within the API's row limits), so it has no keep-alive newlines.
 * Downloads pass through unchanged.
 */
public final class PublicResults {
    /** What a stranger reads instead of the database's message. */
    public static final String QUERY_ERROR = "An error occurred while running the query.";
    private static final List<String> DATA_KEYS = List.of("cols", "rows", "rows_truncated", "insights", "requested_timezone",
            "results_timezone");

    private PublicResults() {
    }

    public static Response respond(QueryOutcome outcome) {
        if (outcome instanceof QueryOutcome.Failed failed) {
            return json(failed.status(), failedBody(failed.failure().type().key));
        }
        QueryOutcome.Streamed streamed = (QueryOutcome.Streamed) outcome;
        if (streamed.status() != 202 || !streamed.contentType().startsWith(MediaType.APPLICATION_JSON)) {
            // a download: streamed as the private ones are, a failure before its first byte without the inner message
            return QueryResponder.respond(new QueryOutcome.Streamed(streamed.status(), streamed.contentType(), streamed.headers(),
                    out -> {
                        try {
                            streamed.body().writeTo(out);
                        } catch (QueryOutcome.FailedBeforeOutput e) {
                            @SuppressWarnings("unchecked")
                            Map<String, Object> body = Json.MAPPER.convertValue(failedBody(e.failed().failure().type().key), Map.class);
                            throw new ApiException(e.failed().status(), QUERY_ERROR, body);
                        }
                    }));
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try {
            streamed.body().writeTo(buffer);
        } catch (QueryOutcome.FailedBeforeOutput e) {
            return json(e.failed().status(), failedBody(e.failed().failure().type().key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JsonNode result;
        try {
            result = Json.MAPPER.readTree(buffer.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return json(202, cut(result));
    }

    /** The cut-down result object. */
    static ObjectNode cut(JsonNode result) {
        if ("failed".equals(result.path("status").asText())) {
            return failedBody(result.path("error_type").isTextual() ? result.get("error_type").asText() : null);
        }
        ObjectNode out = Json.object();
        ObjectNode data = out.putObject("data");
        for (String key : DATA_KEYS) {
            if (result.path("data").has(key)) {
                data.set(key, result.path("data").get(key));
            }
        }
        ObjectNode jsonQuery = out.putObject("json_query");
        jsonQuery.set("parameters", result.path("json_query").has("parameters") ? result.path("json_query").get("parameters")
                : Json.MAPPER.nullNode());
        out.set("status", result.get("status"));
        return out;
    }

    private static ObjectNode failedBody(String errorType) {
        ObjectNode out = Json.object();
        out.put("status", "failed");
        out.put("error_type", errorType);
        out.put("error", QUERY_ERROR);
        return out;
    }

    private static Response json(int status, JsonNode body) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body).build();
    }
}
