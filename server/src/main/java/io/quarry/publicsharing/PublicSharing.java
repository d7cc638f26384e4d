package io.quarry.publicsharing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.card.Card;
import io.quarry.card.CardService;
import io.quarry.core.Json;
import io.quarry.dashboard.DashboardService;
import io.quarry.qp.export.ExportFormat;
import io.quarry.qp.export.ExportRequest;
import io.quarry.qp.run.QueryContext;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.run.QueryRunner;
import io.quarry.setting.Settings;
import io.quarry.web.error.ApiException;
import jakarta.ws.rs.core.Response;
import io.quarry.parameters.ParameterValues;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Public links and what signed embeds share with them: finding the shared card or dashboard, and running its queries
 * with the card's own rights ({@link QueryRequest#trusted}) in the public or embedded context.
 */
public final class PublicSharing {
    private final Settings settings;
    private final CardService cards;
    private final DashboardService dashboards;
    private final QueryRunner runner;
    private final ParameterValues values;

    public PublicSharing(Settings settings, CardService cards, DashboardService dashboards, QueryRunner runner,
                         ParameterValues values) {
        this.settings = Objects.requireNonNull(settings, "settings is null");
        this.cards = Objects.requireNonNull(cards, "cards is null");
        this.dashboards = Objects.requireNonNull(dashboards, "dashboards is null");
        this.runner = Objects.requireNonNull(runner, "runner is null");
        this.values = Objects.requireNonNull(values, "values is null");
    }

    /** 400 {@code Public sharing is not enabled.} (which strangers see as {@code An error occurred.}). */
    void requireEnabled() {
        if (!settings.bool("enable-public-sharing")) {
            throw ApiException.badRequest("Public sharing is not enabled.");
        }
    }

    /** The live card shared under this UUID; sharing must be on, an unknown or revoked UUID is 404. */
    Card publicCard(String uuid) {
        requireEnabled();
        Card card = cards.publicCard(requireUuid(uuid));
        if (card == null) {
            throw ApiException.notFound();
        }
        return card;
    }

    /** The id of the live dashboard shared under this UUID (as {@link #publicCard}). */
    long publicDashboard(String uuid) {
        requireEnabled();
        Long id = dashboards.publicDashboardId(requireUuid(uuid));
        if (id == null) {
            throw ApiException.notFound();
        }
        return id;
    }

    private static String requireUuid(String uuid) {
        try {
            return UUID.fromString(uuid).toString().equals(uuid.toLowerCase(Locale.ROOT)) ? uuid.toLowerCase(Locale.ROOT) : fail(uuid);
        } catch (IllegalArgumentException e) {
            return fail(uuid);
        }
    }

    private static String fail(String uuid) {
        throw ApiException.invalidField("uuid", "value must be a valid UUID.");
    }

    /** A live card by id (embeds name it by id): 404 if missing or archived. */
    public Card liveCard(long id) {
        Card card = cards.require(id);
        if (card.archived) {
            throw ApiException.notFound();
        }
        return card;
    }

    /**
     * The id of the card ({@code question}) or dashboard with this NanoID {@code entity_id}, as embed tokens may name
     * them; 404 when none has it.
     */
    public long idOfEntity(String kind, String entityId) {
        Long id = kind.equals("question") ? cards.idByEntityId(entityId) : dashboards.idByEntityId(entityId);
        if (id == null) {
            throw ApiException.notFound();
        }
        return id;
    }

    /** A shared card as strangers see it ({@link PublicViews#card(Card)}), its {@code param_fields} filled in. */
    public Map<String, Object> cardView(Card card) {
        Map<String, Object> view = PublicViews.card(card);
        view.put("param_fields", dashboards.paramFields(PublicViews.parameterFieldIds(card)));
        return view;
    }

    /** The whole dashboard, read with its own rights (archived: 404); callers cut it down. */
    public Map<String, Object> dashboardView(long id) {
        return dashboards.trustedView(id);
    }

    /** Runs a card with its own rights; {@code parameters} are already bound to the card's parameters. */
    public Response runCard(QueryContext context, Card card, JsonNode parameters) {
        return runCard(context, card, parameters, false);
    }

    /** As {@link #runCard(QueryContext, Card, JsonNode)}, as a pivot table when {@code pivot} is set. */
    public Response runCard(QueryContext context, Card card, JsonNode parameters, boolean pivot) {
        return runCard(context, card, parameters, pivot, null);
    }

    /**
     * As {@link #runCard(QueryContext, Card, JsonNode, boolean)}, with at most {@code maxResults} rows when it is not
     * null (the query's {@code constraints.max-results}, which can only lower the API's row limit).
     */
    public Response runCard(QueryContext context, Card card, JsonNode parameters, boolean pivot, Long maxResults) {
        QueryRequest request = QueryRequest.trusted(context, new QueryRequest.SavedCard(card.id, card.databaseId),
                capped(query(card.datasetQuery, parameters), maxResults), null, null);
        return PublicResults.respond(runner.run(pivot ? request.asPivot() : request));
    }

    /** A card's rows as a file (csv, json, xlsx, api), streamed like the private downloads. */
    public Response exportCard(QueryContext context, Card card, JsonNode parameters, ExportFormat format, ObjectNode options) {
        return export(context, card.id, card.databaseId, card.name, query(card.datasetQuery, parameters), format, options);
    }

    /** A dashcard's card with the dashboard's parameter values ({@code [{id, value}]}), with the card's own rights. */
    public Response runDashcard(QueryContext context, long dashboardId, long dashcardId, long cardId, JsonNode parameters) {
        return runDashcard(context, dashboardId, dashcardId, cardId, parameters, false);
    }

    /** As {@link #runDashcard(QueryContext, long, long, long, JsonNode)}, as a pivot table when {@code pivot} is set. */
    public Response runDashcard(QueryContext context, long dashboardId, long dashcardId, long cardId, JsonNode parameters,
                                boolean pivot) {
        return runDashcard(context, dashboardId, dashcardId, cardId, parameters, pivot, null);
    }

    /** As {@link #runDashcard(QueryContext, long, long, long, JsonNode, boolean)}, with at most {@code maxResults} rows. */
    public Response runDashcard(QueryContext context, long dashboardId, long dashcardId, long cardId, JsonNode parameters,
                                boolean pivot, Long maxResults) {
        DashboardService.CardRun run = dashboards.trustedCardRun(dashboardId, dashcardId, cardId, parameters);
        QueryRequest request = QueryRequest.trusted(context, new QueryRequest.SavedCard(run.card().id, run.card().databaseId),
                capped(run.request(), maxResults), null, null);
        return PublicResults.respond(runner.run(pivot ? request.asPivot() : request));
    }

    public Response exportDashcard(QueryContext context, long dashboardId, long dashcardId, long cardId, JsonNode parameters,
                                   ExportFormat format, ObjectNode options) {
        DashboardService.CardRun run = dashboards.trustedCardRun(dashboardId, dashcardId, cardId, parameters);
        return export(context, run.card().id, run.card().databaseId, run.card().name, run.request(), format, options);
    }

    private Response export(QueryContext context, long cardId, Long databaseId, String name, ObjectNode query,
                            ExportFormat format, ObjectNode options) {
        ExportRequest export = ExportRequest.withQuery(options, query);
        QueryRequest.Download download = new QueryRequest.Download(format, export.options(), slug(name));
        return PublicResults.respond(runner.run(QueryRequest.trusted(context, new QueryRequest.SavedCard(cardId, databaseId),
                export.query(), null, download)));
    }

    private static ObjectNode capped(ObjectNode query, Long maxResults) {
        if (maxResults != null) {
            query.putObject("constraints").put("max-results", maxResults);
        }
        return query;
    }

    private static ObjectNode query(String datasetQuery, JsonNode parameters) {
        ObjectNode query = (ObjectNode) PublicViews.parse(datasetQuery);
        if (parameters != null && parameters.isArray() && !parameters.isEmpty()) {
            query.set("parameters", parameters);
        }
        return query;
    }

    /** The card's name as a file name prefix, as the private downloads make it. */
    static String slug(String name) {
        String slug = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        return slug.isEmpty() ? "query_result" : slug;
    }

    /**
     * The values of a shared card's parameter ({@code key} its id; {@code query} a search prefix or null): a static
     * list, or the values of the field it filters, read with the card's rights. {@code {"values": [...],
     * "has_more_values": false}}.
     */
    public Map<String, Object> cardValues(Card card, String key, String query) {
        JsonNode parameter = PublicParameters.find(PublicViews.parameters(card), "id", key);
        if (parameter == null) {
            throw ApiException.badRequest("Card does not have a parameter with the ID " + key + ".");
        }
        if (ParameterValues.isStaticList(parameter)) {
            return ParameterValues.staticList(parameter, query);
        }
        Long fieldId = ParameterValues.fieldOf(parameter.path("target"), PublicViews.parse(card.datasetQuery));
        if (fieldId == null) {
            return ParameterValues.result(new ArrayList<>(), false);
        }
        return values.ofFieldsOfSharedObject(List.of(fieldId), query);
    }

    /** The values of a shared dashboard's parameter: a static list, or those of the fields its dashcards map it to. */
    public Map<String, Object> dashboardValues(Map<String, Object> view, String key, String query) {
        JsonNode parameter = PublicParameters.find(Json.MAPPER.valueToTree(view.get("parameters")), "id", key);
        if (parameter == null) {
            throw ApiException.badRequest("Dashboard does not have a parameter with the ID \"" + key + "\"");
        }
        if (ParameterValues.isStaticList(parameter)) {
            return ParameterValues.staticList(parameter, query);
        }
        Set<Long> fieldIds = new LinkedHashSet<>();
        JsonNode dashcards = Json.MAPPER.valueToTree(view.get("dashcards"));
        for (JsonNode dc : dashcards) {
            for (JsonNode mapping : dc.path("parameter_mappings")) {
                if (!key.equals(mapping.path("parameter_id").asText())) {
                    continue;
                }
                JsonNode card = dc.path("card");
                for (JsonNode s : dc.path("series")) {
                    if (mapping.path("card_id").asLong() == s.path("id").asLong()) {
                        card = s;
                    }
                }
                Long fieldId = ParameterValues.fieldOf(mapping.path("target"), card.path("dataset_query"));
                if (fieldId != null) {
                    fieldIds.add(fieldId);
                }
            }
        }
        if (fieldIds.isEmpty()) {
            throw ApiException.badRequest("Parameter \"" + key + "\" does not have any Fields associated with it");
        }
        return values.ofFieldsOfSharedObject(fieldIds, query);
    }

    /** JSON text from a query string or form; blank is null. */
    public static JsonNode jsonParam(String name, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Json.read(text);
        } catch (Exception e) {
            throw ApiException.invalidField(name, "value must be a valid JSON string.");
        }
    }
}
