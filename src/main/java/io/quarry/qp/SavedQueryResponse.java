package io.quarry.qp;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.time.Duration;
import java.time.OffsetDateTime;
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
                ApiResultWriter.Envelope envelope = envelope(prepared, request, context, startedAt,
                        Map.of("cached", hit.cachedAt().toString()));
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
        }
        ApiResultWriter.Envelope envelope = envelope(prepared, request, context, startedAt, Map.of());
        return KeepAliveQuery.respond(processor, prepared, request, databaseId, (cursor, out) -> {
            ResultWriter writer = new ApiResultWriter(out, envelope);
            cursor.stream(cached ? cache.new Recording(writer, key, prepared.query().jsIntToString()) : writer);
        });
    }

    private static ApiResultWriter.Envelope envelope(QueryProcessor.Prepared prepared, JsonNode request, String context,
                                                     OffsetDateTime startedAt, Map<String, Object> extra) {
        return new ApiResultWriter.Envelope(prepared.database().id, context, startedAt, request, prepared.compiled().sql(),
                prepared.compiled().params(), prepared.query().jsIntToString(), extra);
    }
}
