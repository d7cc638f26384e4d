package io.quarry.qp.web;

import io.quarry.qp.QueryFailure;
import io.quarry.qp.run.QueryOutcome;
import io.quarry.web.error.ApiException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;

/**
 * The web side of the query runner: a {@link QueryOutcome} as a JAX-RS response. A failure answers Metabase's failure
 * body with its status; an answer streams with its status and headers (202 for API results, whose keep-alive newlines
 * the body itself writes). A download that fails before its first byte still answers its own status and the failure
 * body.
 */
public final class QueryResponder {
    private QueryResponder() {
    }

    public static Response respond(QueryOutcome outcome) {
        if (outcome instanceof QueryOutcome.Failed failed) {
            return failure(failed);
        }
        QueryOutcome.Streamed streamed = (QueryOutcome.Streamed) outcome;
        StreamingOutput body = out -> {
            try {
                streamed.body().writeTo(out);
            } catch (QueryOutcome.FailedBeforeOutput e) {
                QueryOutcome.Failed failed = e.failed();
                throw new ApiException(failed.status(), failed.failure().getMessage(), failed.body());
            }
        };
        // the API answer's status and type as constants: Jersey looks an int status up by copying Status.values() and
        // parses a media type string, on every query
        Response.ResponseBuilder response = (streamed.status() == 202 ? Response.status(Response.Status.ACCEPTED)
                : Response.status(streamed.status()))
                .type(MediaType.APPLICATION_JSON.equals(streamed.contentType()) ? MediaType.APPLICATION_JSON_TYPE
                        : MediaType.valueOf(streamed.contentType()))
                .entity(body);
        streamed.headers().forEach(response::header);
        return response.build();
    }

    /** Metabase's failure body with the failure's status; {@code jsonQuery} and {@code databaseId} are echoed in it. */
    public static Response failure(QueryFailure failure, Object jsonQuery, Long databaseId) {
        return failure(new QueryOutcome.Failed(failure, jsonQuery, databaseId));
    }

    private static Response failure(QueryOutcome.Failed failed) {
        return Response.status(failed.status()).type(MediaType.APPLICATION_JSON_TYPE).entity(failed.body()).build();
    }
}
