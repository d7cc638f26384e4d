package io.quarry.qp;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.run.QueryRunner;
import io.quarry.qp.web.QueryResponder;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import io.quarry.web.security.CallerFactory;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/** {@code /api/dataset}: ad-hoc queries, the way scripts and MCP servers mostly run SQL. */
@Path("dataset")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Singleton
public final class DatasetResource {
    private final QueryRunner runner;
    private final QueryProcessor processor;
    /** The request's caller: the resource is one instance for every request (built once, not per request). */
    private final Provider<Caller> callers;

    @Inject
    public DatasetResource(QueryRunner runner, QueryProcessor processor, Provider<Caller> callers) {
        this.runner = runner;
        this.processor = processor;
        this.callers = callers;
    }

    private Caller caller() {
        return CallerFactory.current(callers);
    }

    /**
     * Runs a query and streams Metabase's result object with status 202. A query that fails before its first row
     * (bad SQL, a missing parameter) answers the failure body with a 4xx status instead, as v0.63 does.
     */
    @POST
    @Access(Access.Level.USER)
    public Response run(JsonNode request) {
        QueryBody.check(request);
        return QueryResponder.respond(runner.run(QueryRequest.adHoc(caller(), request)));
    }

    /** A structured query as a pivot table: every breakout subtotal and the grand total, streamed as one result. */
    @POST
    @Path("pivot")
    @Access(Access.Level.USER)
    public Response pivot(JsonNode request) {
        QueryBody.check(request);
        return QueryResponder.respond(runner.run(QueryRequest.adHoc(caller(), request).asPivot()));
    }

    /** The SQL a query compiles to, with its bind values: {@code {"query": "...", "params": [...]}}. */
    @POST
    @Path("native")
    @Access(Access.Level.USER)
    public Response nativeForm(JsonNode request) {
        QueryBody.check(request);
        try {
            QueryProcessor.Prepared prepared = processor.prepare(request, caller(), QueryProcessor.Purpose.API);
            return Response.ok(Map.of("query", prepared.compiled().sql(), "params", prepared.compiled().params().stream()
                    .map(String::valueOf).toList())).build();
        } catch (QueryFailure failure) {
            return QueryResponder.failure(failure, request, null);
        }
    }
}
