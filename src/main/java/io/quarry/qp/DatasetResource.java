package io.quarry.qp;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
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
                QueryResponses.withMiddleware(request), prepared.compiled().sql(), prepared.compiled().params(), prepared.query().jsIntToString());
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
        return SavedQueryResponse.respondPivot(processor, null, plan, request, "ad-hoc", startedAt, null, false);
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
}
