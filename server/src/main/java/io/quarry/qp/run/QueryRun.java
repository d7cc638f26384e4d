package io.quarry.qp.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.qp.ApiResultWriter;
import io.quarry.qp.PivotQueries;
import io.quarry.qp.QueryExecutor;
import io.quarry.qp.QueryProcessor;
import io.quarry.qp.ResultWriter;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A query on its way through the runner's steps: the request, the query as it runs, when it started, and what the
 * steps so far have made of it (resolved, compiled, planned as a pivot, opened, recorded into the cache). Each step
 * passes on a copy with its part added.
 */
public record QueryRun(QueryRequest request, JsonNode query, OffsetDateTime startedAt, QueryProcessor.Resolved resolved,
                       QueryProcessor.Prepared prepared, PivotQueries.Plan plan, QueryExecutor.Cursor cursor,
                       UnaryOperator<ResultWriter> recorder) {

    static QueryRun start(QueryRequest request, OffsetDateTime startedAt) {
        return new QueryRun(request, request.effectiveQuery(), startedAt, null, null, null, null, UnaryOperator.identity());
    }

    QueryRun withResolved(QueryProcessor.Resolved resolved) {
        return new QueryRun(request, query, startedAt, resolved, prepared, plan, cursor, recorder);
    }

    QueryRun withPrepared(QueryProcessor.Prepared prepared) {
        return new QueryRun(request, query, startedAt, resolved, prepared, plan, cursor, recorder);
    }

    QueryRun withPlan(PivotQueries.Plan plan) {
        return new QueryRun(request, query, startedAt, resolved, prepared, plan, cursor, recorder);
    }

    QueryRun withCursor(QueryExecutor.Cursor cursor) {
        return new QueryRun(request, query, startedAt, resolved, prepared, plan, cursor, recorder);
    }

    /** Rows written to the answer also go through {@code recorder} (the result cache records them). */
    QueryRun withRecorder(UnaryOperator<ResultWriter> recorder) {
        return new QueryRun(request, query, startedAt, resolved, prepared, plan, cursor, recorder);
    }

    /** The writer of the answer, with whatever records its rows. */
    ResultWriter recording(ResultWriter writer) {
        return recorder.apply(writer);
    }

    QueryProcessor.Purpose purpose() {
        return request.download() != null ? QueryProcessor.Purpose.EXPORT : QueryProcessor.Purpose.API;
    }

    /** Whether rights and compilation treat the query as a saved question's ({@link QueryRequest#runsAsSaved()}). */
    boolean savedCard() {
        return request.runsAsSaved();
    }

    /** The query as a failure body echoes it: a file download echoes nothing. */
    Object failureQuery() {
        QueryRequest.Download download = request.download();
        return download != null && download.format().isFile() ? null : query;
    }

    /**
     * The database a failure body names: the saved card's; for an ad-hoc query the one it asked for (none for an
     * ad-hoc pivot query, as v0.63's {@code /api/dataset/pivot} answers).
     */
    Long failureDatabaseId() {
        if (request.card() != null) {
            return request.card().databaseId();
        }
        if (request.pivot()) {
            return null;
        }
        return query != null && query.path("database").canConvertToExactIntegral() ? query.path("database").asLong() : null;
    }

    /** What the answer says about the query besides its rows; {@code extra} such as when a cached result was computed. */
    ApiResultWriter.Envelope envelope(Map<String, Object> extra) {
        if (plan != null) {
            String sql = plan.subsets().isEmpty() ? "" : plan.subsets().get(0).prepared().compiled().sql();
            return new ApiResultWriter.Envelope(plan.database().id, contextKey(), startedAt, withMiddleware(query), sql, List.of(),
                    plan.query().jsIntToString(), extra);
        }
        if (request.download() != null) {
            return new ApiResultWriter.Envelope(prepared.database().id, contextKey(), startedAt, query, prepared.compiled().sql(),
                    prepared.compiled().params(), false, extra);
        }
        // an ad-hoc query is echoed with the middleware Metabase applied to it; a card's query as stored
        Object jsonQuery = request.card() == null ? withMiddleware(query) : query;
        return new ApiResultWriter.Envelope(prepared.database().id, contextKey(), startedAt, jsonQuery, prepared.compiled().sql(),
                prepared.compiled().params(), prepared.query().jsIntToString(), extra);
    }

    private String contextKey() {
        return request.download() != null ? request.download().format().context() : request.context().key;
    }

    /** The request as Metabase echoes it in {@code json_query}, with the middleware it applied. */
    static Object withMiddleware(JsonNode request) {
        if (request == null || !request.isObject()) {
            return request;
        }
        ObjectNode copy = request.deepCopy();
        ObjectNode middleware = copy.with("middleware");
        if (!middleware.has("js-int-to-string?")) {
            middleware.put("js-int-to-string?", true);
        }
        middleware.put("add-default-userland-constraints?", true);
        return copy;
    }
}
