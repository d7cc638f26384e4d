package io.quarry.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.qp.export.ExportFormat;
import io.quarry.qp.run.QueryContext;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.run.QueryRunner;
import io.quarry.qp.web.QueryResponder;
import io.quarry.qp.export.ExportRequest;
import io.quarry.core.Json;
import io.quarry.web.RecordsView;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Body;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
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
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** {@code /api/dashboard}: dashboards, their dashcards and tabs, copies, public links, and running dashcards. */
@Path("dashboard")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Singleton
public final class DashboardResource {
    private final DashboardService dashboards;
    private final QueryRunner runner;
    /** The request's caller: the resource is one instance for every request (built once, not per request). */
    private final Provider<Caller> callers;

    @Inject
    public DashboardResource(DashboardService dashboards, QueryRunner runner, Provider<Caller> callers) {
        this.dashboards = dashboards;
        this.runner = runner;
        this.callers = callers;
    }

    private Caller caller() {
        return CallerFactory.current(callers);
    }

    @POST
    @Access(Access.Level.USER)
    public Map<String, Object> create(JsonNode json) {
        return dashboards.create(caller(), json);
    }

    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list(@QueryParam("f") String f) {
        if (f != null && !Set.of("all", "mine", "archived").contains(f)) {
            throw ApiException.withErrors(400, Map.of("f", "nullable enum of all, mine, archived"),
                    Map.of("f", List.of("should be either \"all\" or \"mine\" or \"archived\", received: \"" + f + "\"")));
        }
        return dashboards.list(caller(), f == null ? "all" : f);
    }

    @GET
    @Path("public")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> publicDashboards() {
        return dashboards.publicDashboards(caller());
    }

    @GET
    @Path("embeddable")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> embeddable() {
        return dashboards.embeddableDashboards(caller());
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    @RecordsView("dashboard")
    public Map<String, Object> get(@PathParam("id") PosInt id) {
        return dashboards.get(caller(), id.value());
    }

    @PUT
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        return dashboards.update(caller(), id.value(), json);
    }

    /** Metabase's deprecated {@code PUT /api/dashboard/:id/cards}: the dashcards and tabs of {@code PUT /api/dashboard/:id}. */
    @PUT
    @Path("{id}/cards")
    @Access(Access.Level.USER)
    public Map<String, Object> updateCards(@PathParam("id") PosInt id, JsonNode json) {
        return dashboards.updateCards(caller(), id.value(), json);
    }

    /** Saves a denormalised (transient) dashboard in the caller's generated-dashboards collection; the stored row. */
    @POST
    @Path("save")
    @Access(Access.Level.USER)
    public Map<String, Object> save(JsonNode json) {
        return dashboards.saveTransient(caller(), null, json);
    }

    /** The same into a collection the caller may write to. */
    @POST
    @Path("save/collection/{parent-collection-id}")
    @Access(Access.Level.USER)
    public Map<String, Object> saveInto(@PathParam("parent-collection-id") PosInt collectionId, JsonNode json) {
        return dashboards.saveTransient(caller(), collectionId.value(), json);
    }

    /** {@code {"cards": [...]}}: readable cards on the tables the dashboard's cards query that use the same fields. */
    @GET
    @Path("{id}/related")
    @Access(Access.Level.USER)
    public Map<String, Object> related(@PathParam("id") PosInt id) {
        return dashboards.related(caller(), id.value());
    }

    @DELETE
    @Path("{id}")
    @Access(Access.Level.USER)
    public Response delete(@PathParam("id") PosInt id) {
        dashboards.delete(caller(), id.value());
        return Response.noContent().build();
    }

    @POST
    @Path("{id}/copy")
    @Access(Access.Level.USER)
    public Map<String, Object> copy(@PathParam("id") PosInt id, JsonNode json) {
        return dashboards.copy(caller(), id.value(), json);
    }

    @GET
    @Path("{id}/query_metadata")
    @Access(Access.Level.USER)
    public Map<String, Object> queryMetadata(@PathParam("id") PosInt id) {
        return dashboards.queryMetadata(caller(), id.value());
    }

    @POST
    @Path("{id}/public_link")
    @Access(Access.Level.USER)
    public Map<String, Object> publicLink(@PathParam("id") PosInt id) {
        return dashboards.publicLink(caller(), id.value());
    }

    @DELETE
    @Path("{id}/public_link")
    @Access(Access.Level.USER)
    public Response deletePublicLink(@PathParam("id") PosInt id) {
        dashboards.deletePublicLink(caller(), id.value());
        return Response.noContent().build();
    }

    /**
     * Runs a dashcard's card with the dashboard's parameter values: 202 and Metabase's result, streamed. As
     * {@code POST /api/card/:id/query}: a card with a {@code cache_ttl} answers from the result cache while its result
     * is younger than that many hours (unless {@code ignore_cache}), and the card's view count and last use are bumped.
     */
    @POST
    @Path("{id}/dashcard/{dashcard-id}/card/{card-id}/query")
    @Access(Access.Level.USER)
    public Response query(@PathParam("id") PosInt id, @PathParam("dashcard-id") PosInt dashcardId,
                          @PathParam("card-id") PosInt cardId, JsonNode json) {
        return QueryResponder.respond(runner.run(dashcardQuery(id, dashcardId, cardId, json)));
    }

    /**
     * The body of a dashcard query (plain or pivot), validated, and the dashcard's card with the dashboard's parameters
     * mapped, as a request: the card's view counted, its cache rules applied.
     */
    private QueryRequest dashcardQuery(PosInt id, PosInt dashcardId, PosInt cardId, JsonNode json) {
        Body body = Body.of(json);
        body.optNonBlank("dashboard_load_id");
        Boolean ignoreCache = body.optBool("ignore_cache");
        JsonNode parameters = parameters(body, body.get("parameters"));
        body.throwIfInvalid();
        Caller caller = caller();
        DashboardService.CardRun run = dashboards.cardRun(caller, id.value(), dashcardId.value(), cardId.value(), parameters);
        CardRow card = run.card();
        return QueryRequest.savedCard(QueryContext.DASHBOARD_CARD, caller, new QueryRequest.SavedCard(card.id, card.databaseId),
                run.request(), null, new QueryRequest.CacheRules(Boolean.TRUE.equals(ignoreCache), card.cacheTtl));
    }

    /**
     * Metabase's {@code POST /api/dashboard/pivot/:dashboard-id/dashcard/:dashcard-id/card/:card-id/query}: the dashcard
     * query (dashboard parameters mapped as for the plain dashcard query) run as a pivot table, as
     * {@code POST /api/card/pivot/:card-id/query}; result cache and view count as the plain dashcard query.
     */
    @POST
    @Path("pivot/{id}/dashcard/{dashcard-id}/card/{card-id}/query")
    @Access(Access.Level.USER)
    public Response pivot(@PathParam("id") PosInt id, @PathParam("dashcard-id") PosInt dashcardId,
                          @PathParam("card-id") PosInt cardId, JsonNode json) {
        return QueryResponder.respond(runner.run(dashcardQuery(id, dashcardId, cardId, json).asPivot()));
    }

    @POST
    @Path("{id}/dashcard/{dashcard-id}/card/{card-id}/query/{export-format: " + ExportFormat.PATH_PATTERN + "}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Access(Access.Level.USER)
    public Response exportJson(@PathParam("id") PosInt id, @PathParam("dashcard-id") PosInt dashcardId,
                               @PathParam("card-id") PosInt cardId, @PathParam("export-format") String format, JsonNode json) {
        Body body = Body.of(json);
        JsonNode raw = body.get("parameters");
        JsonNode parameters = parameters(body, raw.isTextual() ? parseJson(body, raw.asText()) : raw);
        body.throwIfInvalid();
        ObjectNode options = json != null && json.isObject() ? ((ObjectNode) json).deepCopy() : Json.object();
        options.remove("parameters");
        return export(id.value(), dashcardId.value(), cardId.value(), ExportFormat.of(format), parameters, options);
    }

    @POST
    @Path("{id}/dashcard/{dashcard-id}/card/{card-id}/query/{export-format: " + ExportFormat.PATH_PATTERN + "}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Access(Access.Level.USER)
    public Response exportForm(@PathParam("id") PosInt id, @PathParam("dashcard-id") PosInt dashcardId,
                               @PathParam("card-id") PosInt cardId, @PathParam("export-format") String format,
                               MultivaluedMap<String, String> form) {
        Body body = Body.of(Json.object());
        String text = form.getFirst("parameters");
        JsonNode parameters = parameters(body, text == null ? null : parseJson(body, text));
        body.throwIfInvalid();
        ObjectNode options = Json.object();
        form.forEach((key, values) -> {
            if (!key.equals("parameters") && !values.isEmpty()) {
                options.put(key, values.get(0));
            }
        });
        return export(id.value(), dashcardId.value(), cardId.value(), ExportFormat.of(format), parameters, options);
    }

    private Response export(long id, long dashcardId, long cardId, ExportFormat format, JsonNode parameters, ObjectNode options) {
        Caller caller = caller();
        DashboardService.CardRun run = dashboards.cardRun(caller, id, dashcardId, cardId, parameters);
        ExportRequest export = ExportRequest.withQuery(options, run.request());
        String slug = run.card().name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        QueryRequest.Download download = new QueryRequest.Download(format, export.options(), slug.isEmpty() ? "query_result" : slug);
        return QueryResponder.respond(runner.run(QueryRequest.download(caller, export.query(),
                new QueryRequest.SavedCard(run.card().id, run.card().databaseId), download)));
    }

    private static JsonNode parseJson(Body body, String text) {
        try {
            return Json.read(text);
        } catch (Exception e) {
            body.addError("parameters", "nullable value must be a valid JSON string.",
                    "should be a valid JSON string, received: \"" + text + "\"");
            return null;
        }
    }

    /** Metabase's ParameterWithID: each value a map with a non-blank string {@code id}. */
    private static JsonNode parameters(Body body, JsonNode parameters) {
        if (parameters == null || parameters.isNull()) {
            return null;
        }
        boolean ok = parameters.isArray();
        if (ok) {
            for (JsonNode p : parameters) {
                if (!p.isObject() || !p.path("id").isTextual() || p.path("id").asText().isBlank()) {
                    ok = false;
                }
            }
        }
        if (!ok) {
            body.addError("parameters", "nullable sequence of value must be a parameter map with an 'id' key",
                    "invalid parameter, received: " + parameters);
            return null;
        }
        return parameters;
    }
}
