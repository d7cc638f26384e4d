package io.quarry.qp;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.security.Access;
import io.quarry.web.security.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.Map;

/** {@code /api/dataset}: ad-hoc queries, the way scripts and MCP servers mostly run SQL. */
@Path("dataset")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class DatasetResource {
    private final QueryProcessor processor;
    private final Caller caller;
    private final Clock clock;

    @Inject
    public DatasetResource(QueryProcessor processor, Caller caller, Clock clock) {
        this.processor = processor;
        this.caller = caller;
        this.clock = clock;
    }

    /**
     * Runs a query and streams Metabase's result object with status 202. A query that fails before its first row
     * (bad SQL, a missing parameter) answers the failure body with a 4xx status instead, as v0.63 does.
     */
    @POST
    @Access(Access.Level.USER)
    public Response run(JsonNode request) {
        OffsetDateTime startedAt = OffsetDateTime.now(clock);
        Long databaseId = request != null && request.path("database").canConvertToExactIntegral() ? request.path("database").asLong() : null;
        QueryProcessor.Prepared prepared;
        try {
            prepared = processor.prepare(request, caller, QueryProcessor.Purpose.API);
        } catch (QueryFailure failure) {
            return QueryResponses.failure(failure, request, databaseId);
        }
        ApiResultWriter.Envelope envelope = new ApiResultWriter.Envelope(prepared.database().id, "ad-hoc", startedAt,
                withMiddleware(request), prepared.compiled().sql(), prepared.compiled().params(), prepared.query().jsIntToString());
        // a slow query keeps the connection alive with newlines and is cancelled when its client goes away
        return KeepAliveQuery.respond(processor, prepared, request, databaseId, (cursor, out) -> cursor.stream(new ApiResultWriter(out, envelope)));
    }

    /** A structured query as a pivot table: every breakout subtotal and the grand total, streamed as one result. */
    @POST
    @Path("pivot")
    @Access(Access.Level.USER)
    public Response pivot(JsonNode request) {
        OffsetDateTime startedAt = OffsetDateTime.now(clock);
        PivotQueries.Plan plan;
        try {
            plan = new PivotQueries(processor).plan(processor.prepare(request, caller, QueryProcessor.Purpose.API));
        } catch (QueryFailure failure) {
            return QueryResponses.failure(failure, request, null);
        }
        return pivotResponse(processor, plan, request, "ad-hoc", startedAt);
    }

    /** Streams a planned pivot query in the API's result format (202). */
    public static Response pivotResponse(QueryProcessor processor, PivotQueries.Plan plan, JsonNode request, String context,
                                         OffsetDateTime startedAt) {
        ApiResultWriter.Envelope envelope = new ApiResultWriter.Envelope(plan.database().id, context, startedAt,
                withMiddleware(request), plan.subsets().isEmpty() ? "" : plan.subsets().get(0).prepared().compiled().sql(),
                java.util.List.of(), plan.query().jsIntToString());
        StreamingOutput body = out -> new PivotQueries(processor).stream(plan, new ApiResultWriter(out, envelope));
        return Response.status(202).type(MediaType.APPLICATION_JSON_TYPE).entity(body).build();
    }

    /** The SQL a query compiles to, with its bind values: {@code {"query": "...", "params": [...]}}. */
    @POST
    @Path("native")
    @Access(Access.Level.USER)
    public Response nativeForm(JsonNode request) {
        try {
            QueryProcessor.Prepared prepared = processor.prepare(request, caller, QueryProcessor.Purpose.API);
            return Response.ok(Map.of("query", prepared.compiled().sql(), "params", prepared.compiled().params().stream()
                    .map(String::valueOf).toList())).build();
        } catch (QueryFailure failure) {
            return QueryResponses.failure(failure, request, null);
        }
    }

    /** The request as Metabase echoes it in {@code json_query}, with the middleware it applied. */
    private static Object withMiddleware(JsonNode request) {
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
