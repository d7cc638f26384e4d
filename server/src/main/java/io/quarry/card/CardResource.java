package io.quarry.card;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.qp.QueryMetadata;
import io.quarry.qp.mbql.QueryForms;
import io.quarry.qp.run.QueryContext;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.run.QueryRunner;
import io.quarry.qp.web.QueryResponder;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.MetadataService;
import io.quarry.web.RecordsView;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import io.quarry.web.param.BoolStr;
import io.quarry.web.param.PosInt;
import io.quarry.web.param.Validation;
import io.quarry.web.security.Access;
import io.quarry.web.security.CallerFactory;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code /api/card}: saved questions and models, and running them. */
@Path("card")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Singleton
public final class CardResource {
    static final String[] FILTERS = {"archived", "table", "using_model", "bookmarked", "all", "mine", "database"};

    private final CardService cards;
    private final DatabaseService databases;
    private final QueryMetadata queryMetadata;
    private final MetadataService metadata;
    private final QueryRunner runner;
    /** The request's caller: the resource is one instance for every request (built once, not per request). */
    private final Provider<Caller> callers;

    @Inject
    public CardResource(CardService cards, DatabaseService databases, QueryMetadata queryMetadata, MetadataService metadata,
                        QueryRunner runner, Provider<Caller> callers) {
        this.cards = cards;
        this.databases = databases;
        this.queryMetadata = queryMetadata;
        this.metadata = metadata;
        this.runner = runner;
        this.callers = callers;
    }

    private Caller caller() {
        return CallerFactory.current(callers);
    }

    @POST
    @Access(Access.Level.USER)
    public Map<String, Object> create(JsonNode json) {
        return cards.fullView(cards.create(json, caller()), caller());
    }

    /** {@code f}: all (default), mine, bookmarked, database, table, using_model, archived; {@code model_id} for the last three. */
    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list(@QueryParam("f") String f, @QueryParam("model_id") PosInt modelId) {
        String chosen = Validation.optEnum("f", f, FILTERS);
        String filter = chosen == null ? "all" : chosen;
        Long model = modelId == null ? null : modelId.value();
        if (Set.of("database", "table", "using_model").contains(filter)) {
            if (model == null) {
                throw ApiException.invalidField("model_id", "model_id is a required parameter when filter mode is '" + filter + "'");
            }
            if (filter.equals("database")) {
                Checks.found(databases.find(model));
            } else if (filter.equals("table")) {
                Checks.found(metadata.findTable(model));
            }
        }
        return cards.views(cards.list(filter, model, caller()), caller());
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    @RecordsView("card")
    public Map<String, Object> get(@PathParam("id") PosInt id, @QueryParam("ignore_view") BoolStr ignoreView,
                                   @QueryParam("legacy-mbql") BoolStr legacyMbql) {
        Card card = cards.requireReadable(id.value(), caller());
        if (!BoolStr.orDefault(ignoreView, false)) {
            cards.touch(card.id);
            card = cards.require(card.id);
        }
        Map<String, Object> view = cards.fullView(card, caller());
        if (!BoolStr.orDefault(legacyMbql, true)) {
            // Metabase v0.63's own default; Quarry's default stays legacy MBQL, which every client reads
            view.put("dataset_query", QueryForms.mbql5Json(card.datasetQuery));
        }
        return view;
    }

    /** Unknown keys are ignored: clients send whole cards back. */
    @PUT
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        return cards.fullView(cards.update(id.value(), json, caller()), caller());
    }

    /** Deprecated hard delete (archive with PUT instead): 204. */
    @DELETE
    @Path("{id}")
    @Access(Access.Level.USER)
    public Response delete(@PathParam("id") PosInt id) {
        cards.delete(id.value(), caller());
        return Response.noContent().build();
    }

    @POST
    @Path("{id}/copy")
    @Access(Access.Level.USER)
    public Map<String, Object> copy(@PathParam("id") PosInt id) {
        return cards.fullView(cards.copy(id.value(), caller()), caller());
    }

    /** {@code {card_ids: [...], collection_id}}: moves cards (null = Root); {@code {"status": "ok"}}. */
    @POST
    @Path("collections")
    @Access(Access.Level.USER)
    public Map<String, Object> move(JsonNode json) {
        Body body = Body.of(json);
        List<Long> cardIds = cardIds(body, "value must be an array.", "value must be an array. Each value must be an integer greater than zero.");
        Long collectionId = body.optPosInt("collection_id");
        body.throwIfInvalid();
        cards.move(cardIds, collectionId, caller());
        return Map.of("status", "ok");
    }

    /**
     * The required {@code card_ids}: a list of positive integers ({@code message} when it is no list, {@code elementMessage}
     * when an element is no positive integer). Errors land in {@code body}.
     */
    static List<Long> cardIds(Body body, String message, String elementMessage) {
        JsonNode ids = body.get("card_ids", Body.Kind.POS_INTS);
        List<Long> cardIds = new ArrayList<>();
        if (!ids.isArray()) {
            body.addError("card_ids", message, ids.isNull() ? "missing required key, received: nil" : "should be a sequence, received: " + ids);
        } else {
            for (JsonNode element : ids) {
                if (!element.isIntegralNumber() || !element.canConvertToLong() || element.asLong() <= 0) {
                    body.addError("card_ids", elementMessage, "invalid type, received: " + element);
                    break;
                }
                cardIds.add(element.asLong());
            }
        }
        return cardIds;
    }

    /** The dashboards showing the card: {@code [{"id", "name"}]}; 403 unless the caller may change every one. */
    @GET
    @Path("{id}/dashboards")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> dashboards(@PathParam("id") PosInt id) {
        return cards.dashboardsOfCard(id.value(), caller());
    }

    /** Cards with a public link: superusers, public sharing enabled. */
    @GET
    @Path("public")
    @Access(Access.Level.SUPERUSER)
    public List<Map<String, Object>> publicCards() {
        cards.requirePublicSharing();
        return summaries(cards.publicCards(), true);
    }

    /** Cards with {@code enable_embedding}: superusers, embedding enabled. */
    @GET
    @Path("embeddable")
    @Access(Access.Level.SUPERUSER)
    public List<Map<String, Object>> embeddableCards() {
        cards.requireEmbedding();
        return summaries(cards.embeddableCards(), false);
    }

    /** {@code {name, id}} of each card, and its {@code public_uuid} when asked. */
    private static List<Map<String, Object>> summaries(List<Card> list, boolean withPublicUuid) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Card c : list) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("name", c.name);
            v.put("id", c.id);
            if (withPublicUuid) {
                v.put("public_uuid", c.publicUuid);
            }
            out.add(v);
        }
        return out;
    }

    /** The card's public UUID ({@code {"uuid": ...}}), the same one when it is already shared. */
    @POST
    @Path("{id}/public_link")
    @Access(Access.Level.USER)
    public Map<String, Object> publicLink(@PathParam("id") PosInt id) {
        return Map.of("uuid", cards.publicLink(id.value(), caller()));
    }

    @DELETE
    @Path("{id}/public_link")
    @Access(Access.Level.USER)
    public Response removePublicLink(@PathParam("id") PosInt id) {
        cards.removePublicLink(id.value(), caller());
        return Response.noContent().build();
    }

    /** What a client needs to show the card: its database, tables, fields and referenced cards. */
    @GET
    @Path("{id}/query_metadata")
    @Access(Access.Level.USER)
    public Map<String, Object> queryMetadata(@PathParam("id") PosInt id) {
        Card card = cards.requireReadable(id.value(), caller());
        return queryMetadata.of(CardService.parse(card.datasetQuery), caller());
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
        // the caller looked up once: each lookup goes through the request scope
        Caller caller = caller();
        Card card = cards.requireRunnable(id.value(), caller);
        return QueryResponder.respond(runner.run(questionRequest(caller, card, body.get("parameters"), ignoreCache)));
    }

    /** The card's query with the caller's parameter values, as a question: its view counted, its cache rules applied. */
    private static QueryRequest questionRequest(Caller caller, Card card, JsonNode parameters, Boolean ignoreCache) {
        return QueryRequest.savedCard(QueryContext.QUESTION, caller, new QueryRequest.SavedCard(card.id, card.databaseId),
                card.datasetQueryTree(), parameters,
                new QueryRequest.CacheRules(Boolean.TRUE.equals(ignoreCache), card.cacheTtl));
    }

    /** The card's structured query as a pivot table (subtotals and grand total), as Metabase's pivot endpoint. */
    @POST
    @Path("pivot/{id}/query")
    @Access(Access.Level.USER)
    public Response pivot(@PathParam("id") PosInt id, JsonNode json) {
        Body body = Body.of(json);
        Boolean ignoreCache = body.optBool("ignore_cache");
        body.throwIfInvalid();
        Caller caller = caller();
        Card card = cards.requireReadable(id.value(), caller);
        return QueryResponder.respond(runner.run(questionRequest(caller, card, body.get("parameters"), ignoreCache).asPivot()));
    }
}
