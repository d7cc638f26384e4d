package io.quarry.card;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.qp.ApiResultWriter;
import io.quarry.qp.QueryCache;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.QueryProcessor;
import io.quarry.qp.QueryResponses;
import io.quarry.qp.ResultWriter;
import io.quarry.web.param.Body;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import io.quarry.web.security.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;

/** {@code /api/card}: saved questions and models, and running them. */
@Path("card")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class CardResource {
    private final CardService cards;
    private final QueryProcessor processor;
    private final QueryCache cache;
    private final Caller caller;
    private final Clock clock;

    @Inject
    public CardResource(CardService cards, QueryProcessor processor, QueryCache cache, Caller caller, Clock clock) {
        this.cards = cards;
        this.processor = processor;
        this.cache = cache;
        this.caller = caller;
        this.clock = clock;
    }

    @POST
    @Access(Access.Level.USER)
    public Map<String, Object> create(JsonNode json) {
        return CardService.view(cards.create(json, caller.id()));
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> get(@PathParam("id") PosInt id) {
        return CardService.view(cards.require(id.value()));
    }

    /**
     * Runs the card's query with the given parameters: 202 and Metabase's result, streamed. A card with a
     * {@code cache_ttl} answers from the shared result cache while its result is younger than that many hours, unless
     * {@code ignore_cache} is set; a fresh result is recorded for the next caller (with {@code ignore_cache} too).
     */
    @POST
    @Path("{id}/query")
    @Access(Access.Level.USER)
    public Response query(@PathParam("id") PosInt id, JsonNode json) {
        Body body = Body.of(json);
        Boolean ignoreCache = body.optBool("ignore_cache");
        body.optPosInt("dashboard_id");
        body.optBool("collection_preview");
        body.throwIfInvalid();
        Card card = cards.require(id.value());
        ObjectNode request = (ObjectNode) CardService.parse(card.datasetQuery);
        if (body.hasValue("parameters")) {
            request.set("parameters", body.get("parameters"));
        }
        OffsetDateTime startedAt = OffsetDateTime.now(clock);
        QueryProcessor.Prepared prepared;
        try {
            prepared = processor.prepare(request, caller, QueryProcessor.Purpose.API);
        } catch (QueryFailure failure) {
            return QueryResponses.failure(failure, request, card.databaseId);
        }
        cards.touch(card.id);
        // ignore_cache skips reading the cache, not refreshing it: a fresh result is stored for the next caller.
        boolean cached = card.cacheTtl != null;
        String key = cached ? QueryCache.key(prepared.database().id, prepared.compiled(), prepared.rowLimit()) : null;
        if (cached && !Boolean.TRUE.equals(ignoreCache)) {
            QueryCache.Hit hit = cache.find(key, Duration.ofHours(card.cacheTtl));
            if (hit != null) {
                ApiResultWriter.Envelope envelope = envelope(prepared, request, startedAt, Map.of("cached", hit.cachedAt().toString()));
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
        ApiResultWriter.Envelope envelope = envelope(prepared, request, startedAt, Map.of());
        return io.quarry.qp.KeepAliveQuery.respond(processor, prepared, failure -> QueryResponses.failure(failure, request, card.databaseId),
                failure -> QueryResponses.failureBody(failure, request, card.databaseId), (cursor, out) -> {
                    ResultWriter writer = new ApiResultWriter(out, envelope);
                    cursor.stream(cached ? cache.new Recording(writer, key, prepared.query().jsIntToString()) : writer);
                });
    }

    /** The card's structured query as a pivot table (subtotals and grand total), as Metabase's pivot endpoint. */
    @POST
    @Path("pivot/{id}/query")
    @Access(Access.Level.USER)
    public Response pivot(@PathParam("id") PosInt id, JsonNode json) {
        Body body = Body.of(json);
        body.optBool("ignore_cache");
        body.throwIfInvalid();
        Card card = cards.require(id.value());
        ObjectNode request = (ObjectNode) CardService.parse(card.datasetQuery);
        if (body.hasValue("parameters")) {
            request.set("parameters", body.get("parameters"));
        }
        OffsetDateTime startedAt = OffsetDateTime.now(clock);
        io.quarry.qp.PivotQueries.Plan plan;
        try {
            plan = new io.quarry.qp.PivotQueries(processor).plan(processor.prepare(request, caller, QueryProcessor.Purpose.API));
        } catch (QueryFailure failure) {
            return QueryResponses.failure(failure, request, card.databaseId);
        }
        cards.touch(card.id);
        return io.quarry.qp.DatasetResource.pivotResponse(processor, plan, request, "question", startedAt);
    }

    private static ApiResultWriter.Envelope envelope(QueryProcessor.Prepared prepared, JsonNode request, OffsetDateTime startedAt,
                                                     Map<String, Object> extra) {
        return new ApiResultWriter.Envelope(prepared.database().id, "question", startedAt, request, prepared.compiled().sql(),
                prepared.compiled().params(), prepared.query().jsIntToString(), extra);
    }
}
