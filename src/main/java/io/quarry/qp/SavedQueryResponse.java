package io.quarry.qp;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/**
 * The API answer of a saved card's query, shared by {@code POST /api/card/:id/query} and the dashcard query: a card
 * with a {@code cache_ttl} answers from the shared result cache while its result is younger than that many hours
 * (unless {@code ignoreCache}); otherwise the query runs (with keep-alive) and a fresh result is recorded for the next
 * caller — {@code ignoreCache} skips reading the cache, not refreshing it.
 */
public final class SavedQueryResponse {
    private SavedQueryResponse() {
    }

    public static Response respond(QueryProcessor processor, QueryCache cache, QueryProcessor.Prepared prepared,
                                   JsonNode request, long databaseId, String context, OffsetDateTime startedAt,
                                   Integer cacheTtlHours, boolean ignoreCache) {
        boolean cached = cacheTtlHours != null;
        String key = cached ? QueryCache.key(prepared.database().id, prepared.compiled(), prepared.rowLimit()) : null;
        if (cached && !ignoreCache) {
            QueryCache.Hit hit = cache.find(key, Duration.ofHours(cacheTtlHours));
            if (hit != null) {
                return replay(hit, envelope(prepared, request, context, startedAt, Map.of("cached", hit.cachedAt().toString())));
            }
        }
        ApiResultWriter.Envelope envelope = envelope(prepared, request, context, startedAt, Map.of());
        return KeepAliveQuery.respond(processor, prepared, request, databaseId, (cursor, out) -> {
            ResultWriter writer = new ApiResultWriter(out, envelope);
            cursor.stream(cached ? cache.new Recording(writer, key, prepared.query().jsIntToString()) : writer);
        });
    }

    /**
     * A planned pivot query (subtotals and grand total) as one API result; with a {@code cacheTtlHours} (a saved card)
     * answered from and recorded into the result cache as {@link #respond} does, keyed on every subset query.
     */
    public static Response respondPivot(QueryProcessor processor, QueryCache cache, PivotQueries.Plan plan, JsonNode request,
                                        String context, OffsetDateTime startedAt, Integer cacheTtlHours, boolean ignoreCache) {
        boolean cached = cacheTtlHours != null;
        String key = cached ? pivotKey(plan) : null;
        Object jsonQuery = QueryResponses.withMiddleware(request);
        String sql = plan.subsets().isEmpty() ? "" : plan.subsets().get(0).prepared().compiled().sql();
        if (cached && !ignoreCache) {
            QueryCache.Hit hit = cache.find(key, Duration.ofHours(cacheTtlHours));
            if (hit != null) {
                return replay(hit, new ApiResultWriter.Envelope(plan.database().id, context, startedAt, jsonQuery, sql, List.of(),
                        plan.query().jsIntToString(), Map.of("cached", hit.cachedAt().toString())));
            }
        }
        ApiResultWriter.Envelope envelope = new ApiResultWriter.Envelope(plan.database().id, context, startedAt, jsonQuery, sql,
                List.of(), plan.query().jsIntToString());
        StreamingOutput stream = out -> {
            ResultWriter writer = new ApiResultWriter(out, envelope);
            new PivotQueries(processor).stream(plan, cached ? cache.new Recording(writer, key, plan.query().jsIntToString()) : writer);
        };
        return Response.status(202).type(MediaType.APPLICATION_JSON_TYPE).entity(stream).build();
    }

    /** The cache key of a pivot query: every subset query, so it never collides with a plain query's key. */
    private static String pivotKey(PivotQueries.Plan plan) {
        StringBuilder sql = new StringBuilder("pivot");
        long rowLimit = 0;
        for (PivotQueries.Subset subset : plan.subsets()) {
            QueryProcessor.Prepared p = subset.prepared();
            sql.append('\n').append(subset.grouping()).append(':').append(QueryCache.key(p.database().id, p.compiled(), p.rowLimit()));
            rowLimit = p.rowLimit();
        }
        return QueryCache.key(plan.database().id, new CompiledQuery(sql.toString(), List.of(), List.of()), rowLimit);
    }

    /** A cached result, streamed as a fresh one (202), its envelope saying when it was computed. */
    private static Response replay(QueryCache.Hit hit, ApiResultWriter.Envelope envelope) {
        StreamingOutput replay = out -> {
            ResultWriter writer = new ApiResultWriter(out, envelope);
            writer.begin(hit.columns());
            for (Object[] row : hit.rows()) {
                writer.row(row);
            }
            writer.end(new ResultWriter.Summary(hit.rows().size(), hit.truncated(), hit.rowLimit(), 0));
        };
        return Response.status(202).type(MediaType.APPLICATION_JSON_TYPE).entity(replay).build();
    }

    private static ApiResultWriter.Envelope envelope(QueryProcessor.Prepared prepared, JsonNode request, String context,
                                                     OffsetDateTime startedAt, Map<String, Object> extra) {
        return new ApiResultWriter.Envelope(prepared.database().id, context, startedAt, request, prepared.compiled().sql(),
                prepared.compiled().params(), prepared.query().jsIntToString(), extra);
    }
}
