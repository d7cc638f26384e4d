package io.quarry.embed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.card.Card;
import io.quarry.core.Json;
import io.quarry.publicsharing.PublicParameters;
import io.quarry.publicsharing.PublicSharing;
import io.quarry.publicsharing.PublicViews;
import io.quarry.qp.export.ExportFormat;
import io.quarry.qp.run.QueryContext;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Validation;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Signed embedding and its admin preview, one code path: {@code /api/embed/...} and {@code /api/preview_embed/...}
 * (and the spec's {@code /api/preview-embed/...}) differ only in {@link #preview}. A preview needs a superuser (the
 * subclass's {@code @Access}), ignores the object's {@code enable_embedding} and reads the parameter rules from the
 * token's {@code _embedding_params}; its errors keep their status. Embeds answer every error as 400 with its message,
 * as Metabase's {@code message-only-exceptions}.
 */
public abstract class EmbedEndpoints {
    private static final Set<String> RESERVED = Set.of("parameters", "format_rows", "pivot_results");
    /** Previews show at most this many rows (Metabase's preview_embed {@code max-results}, issue #20938); downloads are not capped. */
    static final long PREVIEW_MAX_RESULTS = 2000;
    /** A NanoID {@code entity_id} (21 characters of {@code A-Za-z0-9_-}), which a token may give instead of the id. */
    private static final java.util.regex.Pattern ENTITY_ID = java.util.regex.Pattern.compile("[A-Za-z0-9_-]{21}");

    private final EmbedTokens tokens;
    private final PublicSharing sharing;
    private final boolean preview;

    protected EmbedEndpoints(EmbedTokens tokens, PublicSharing sharing, boolean preview) {
        this.tokens = tokens;
        this.sharing = sharing;
        this.preview = preview;
    }

    /** A token's card (or dashboard), the parameter rules that apply, and the token's own parameter values. */
    private record Target(long id, Card card, Map<String, Object> dashboard, JsonNode embeddingParams, JsonNode tokenParams) {
    }

    @GET
    @Path("card/{token}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response card(@PathParam("token") String token) {
        return guarded(() -> {
            Target t = target(token, "question");
            Map<String, Object> view = sharing.cardView(t.card());
            List<JsonNode> open = new ArrayList<>();
            for (JsonNode p : PublicViews.parameters(t.card())) {
                if (EmbedParams.openToUrl(t.embeddingParams(), t.tokenParams(), p.path("slug").asText())) {
                    open.add(p);
                }
            }
            view.put("parameters", open);
            view.put("embedding_params", t.embeddingParams());
            return Response.ok(view, MediaType.APPLICATION_JSON_TYPE).build();
        });
    }

    @GET
    @Path("card/{token}/query")
    public Response cardQuery(@PathParam("token") String token, @Context UriInfo uri) {
        return cardQuery(token, uri, false);
    }

    @GET
    @Path("pivot/card/{token}/query")
    public Response pivotCardQuery(@PathParam("token") String token, @Context UriInfo uri) {
        return cardQuery(token, uri, true);
    }

    private Response cardQuery(String token, UriInfo uri, boolean pivot) {
        return guarded(() -> {
            Target t = target(token, "question");
            return sharing.runCard(QueryContext.EMBED, t.card(), cardParameters(t, uri), pivot, previewCap());
        });
    }

    @GET
    @Path("card/{token}/query/{export-format: " + ExportFormat.PATH_PATTERN + "}")
    public Response cardExport(@PathParam("token") String token, @PathParam("export-format") String format,
                               @Context UriInfo uri) {
        return guarded(() -> {
            Target t = target(token, "question");
            return sharing.exportCard(QueryContext.EMBED, t.card(), cardParameters(t, uri), ExportFormat.of(format), options(uri));
        });
    }

    @GET
    @Path("dashboard/{token}")
    @Produces(MediaType.APPLICATION_JSON)
    @SuppressWarnings("unchecked")
    public Response dashboard(@PathParam("token") String token) {
        return guarded(() -> {
            Target t = target(token, "dashboard");
            Map<String, Object> view = PublicViews.dashboard(t.dashboard());
            List<Object> open = new ArrayList<>();
            List<String> openIds = new ArrayList<>();
            for (JsonNode p : dashboardParameters(t)) {
                if (EmbedParams.openToUrl(t.embeddingParams(), t.tokenParams(), p.path("slug").asText())) {
                    open.add(p);
                    openIds.add(p.path("id").asText());
                }
            }
            // the token's values go into the text cards before the mappings of parameters the embed hides are dropped
            TextCardTags.fill((List<Object>) view.get("dashcards"), dashboardParameters(t), t.tokenParams());
            view.put("parameters", open);
            keepMappingsOf(view, openIds);
            return Response.ok(view, MediaType.APPLICATION_JSON_TYPE).build();
        });
    }

    @GET
    @Path("dashboard/{token}/dashcard/{dashcard-id}/card/{card-id}")
    public Response dashcardQuery(@PathParam("token") String token, @PathParam("dashcard-id") String dashcardId,
                                  @PathParam("card-id") String cardId, @Context UriInfo uri) {
        return dashcardQuery(token, dashcardId, cardId, uri, false);
    }

    @GET
    @Path("pivot/dashboard/{token}/dashcard/{dashcard-id}/card/{card-id}")
    public Response pivotDashcardQuery(@PathParam("token") String token, @PathParam("dashcard-id") String dashcardId,
                                       @PathParam("card-id") String cardId, @Context UriInfo uri) {
        return dashcardQuery(token, dashcardId, cardId, uri, true);
    }

    private Response dashcardQuery(String token, String dashcardId, String cardId, UriInfo uri, boolean pivot) {
        return guarded(() -> {
            Target t = target(token, "dashboard");
            return sharing.runDashcard(QueryContext.EMBED, t.id(), Validation.requirePosInt("dashcard-id", dashcardId),
                    Validation.requirePosInt("card-id", cardId), dashcardParameters(t, uri), pivot, previewCap());
        });
    }

    @GET
    @Path("dashboard/{token}/dashcard/{dashcard-id}/card/{card-id}/{export-format: " + ExportFormat.PATH_PATTERN + "}")
    public Response dashcardExport(@PathParam("token") String token, @PathParam("dashcard-id") String dashcardId,
                                   @PathParam("card-id") String cardId, @PathParam("export-format") String format,
                                   @Context UriInfo uri) {
        return guarded(() -> {
            Target t = target(token, "dashboard");
            return sharing.exportDashcard(QueryContext.EMBED, t.id(), Validation.requirePosInt("dashcard-id", dashcardId),
                    Validation.requirePosInt("card-id", cardId), dashcardParameters(t, uri), ExportFormat.of(format), options(uri));
        });
    }

    @GET
    @Path("card/{token}/params/{key}/values")
    @Produces(MediaType.APPLICATION_JSON)
    public Response cardValues(@PathParam("token") String token, @PathParam("key") String key) {
        return cardValues(token, key, null);
    }

    @GET
    @Path("card/{token}/params/{key}/search/{query}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response cardSearch(@PathParam("token") String token, @PathParam("key") String key, @PathParam("query") String query) {
        return cardValues(token, key, query);
    }

    private Response cardValues(String token, String key, String query) {
        return guarded(() -> {
            Target t = target(token, "question");
            requireOpen(t, PublicViews.parameters(t.card()), key);
            return Response.ok(sharing.cardValues(t.card(), key, query), MediaType.APPLICATION_JSON_TYPE).build();
        });
    }

    @GET
    @Path("dashboard/{token}/params/{key}/values")
    @Produces(MediaType.APPLICATION_JSON)
    public Response dashboardValues(@PathParam("token") String token, @PathParam("key") String key) {
        return dashboardValues(token, key, null);
    }

    @GET
    @Path("dashboard/{token}/params/{key}/search/{query}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response dashboardSearch(@PathParam("token") String token, @PathParam("key") String key,
                                    @PathParam("query") String query) {
        return dashboardValues(token, key, query);
    }

    private Response dashboardValues(String token, String key, String query) {
        return guarded(() -> {
            Target t = target(token, "dashboard");
            requireOpen(t, dashboardParameters(t), key);
            return Response.ok(sharing.dashboardValues(t.dashboard(), key, query), MediaType.APPLICATION_JSON_TYPE).build();
        });
    }

    private Long previewCap() {
        return preview ? PREVIEW_MAX_RESULTS : null;
    }

    /** Values only of enabled parameters the token does not set ({@code key} is the parameter's id). */
    private static void requireOpen(Target t, JsonNode parameters, String key) {
        String slug = null;
        for (JsonNode p : parameters) {
            if (key.equals(p.path("id").asText())) {
                slug = p.path("slug").asText();
            }
        }
        if (slug == null || !EmbedParams.openToUrl(t.embeddingParams(), t.tokenParams(), slug)) {
            throw ApiException.badRequest("Cannot search for values: \"" + (slug == null ? key : slug) + "\" is not an enabled parameter.");
        }
    }

    /** The checks in Metabase's order: the token, its resource key, embedding on, the object, its own flag. */
    @SuppressWarnings("unchecked")
    private Target target(String token, String kind) {
        JsonNode claims = tokens.verify(token);
        JsonNode idNode = claims.path("resource").path(kind);
        if (idNode.isMissingNode() || idNode.isNull()) {
            throw ApiException.badRequest("Token is missing value for keypath [:resource :" + kind + "]");
        }
        String noun = kind.equals("question") ? "Card" : "Dashboard";
        boolean entityId = idNode.isTextual() && ENTITY_ID.matcher(idNode.asText()).matches();
        if (!entityId && (!idNode.canConvertToExactIntegral() || idNode.asLong() <= 0)) {
            throw ApiException.badRequest(noun + " id should be a positive integer.");
        }
        tokens.requireEnabled();
        long id = entityId ? sharing.idOfEntity(kind, idNode.asText()) : idNode.asLong();
        Card card = null;
        Map<String, Object> dashboard = null;
        boolean enabled;
        JsonNode stored;
        if (kind.equals("question")) {
            card = sharing.liveCard(id);
            enabled = card.enableEmbedding;
            stored = card.embeddingParams == null ? null : parse(card.embeddingParams);
        } else {
            dashboard = sharing.dashboardView(id);
            enabled = Boolean.TRUE.equals(dashboard.get("enable_embedding"));
            stored = Json.MAPPER.valueToTree(dashboard.get("embedding_params"));
        }
        JsonNode embeddingParams;
        if (preview) {
            if (!claims.has("_embedding_params")) {
                throw ApiException.badRequest("Token is missing value for keypath [:_embedding_params]");
            }
            embeddingParams = claims.get("_embedding_params");
        } else {
            if (!enabled) {
                throw ApiException.badRequest("Embedding is not enabled for this object.");
            }
            embeddingParams = stored;
        }
        return new Target(id, card, dashboard, embeddingParams, claims.get("params"));
    }

    private JsonNode cardParameters(Target t, UriInfo uri) {
        Map<String, JsonNode> merged = EmbedParams.merge(t.embeddingParams(), t.tokenParams(), urlParams(uri));
        return PublicParameters.bySlug(PublicViews.parameters(t.card()), merged);
    }

    /** The merged values as the dashboard's {@code [{id, value}]}. */
    private JsonNode dashcardParameters(Target t, UriInfo uri) {
        Map<String, JsonNode> merged = EmbedParams.merge(t.embeddingParams(), t.tokenParams(), urlParams(uri));
        var out = Json.MAPPER.createArrayNode();
        for (JsonNode p : dashboardParameters(t)) {
            JsonNode value = merged.get(p.path("slug").asText());
            if (value != null && !value.isNull()) {
                ObjectNode bound = out.addObject();
                bound.set("id", p.get("id"));
                bound.set("type", p.get("type"));
                bound.set("value", value);
            }
        }
        return out;
    }

    private static JsonNode dashboardParameters(Target t) {
        JsonNode declared = Json.MAPPER.valueToTree(t.dashboard().get("parameters"));
        return declared == null || !declared.isArray() ? Json.MAPPER.createArrayNode() : declared;
    }

    /** Mappings of parameters the embed does not show are dropped from each dashcard. */
    @SuppressWarnings("unchecked")
    private static void keepMappingsOf(Map<String, Object> view, List<String> openIds) {
        for (Object o : (List<Object>) view.get("dashcards")) {
            Map<String, Object> dc = (Map<String, Object>) o;
            JsonNode mappings = Json.MAPPER.valueToTree(dc.get("parameter_mappings"));
            List<JsonNode> kept = new ArrayList<>();
            if (mappings != null && mappings.isArray()) {
                for (JsonNode m : mappings) {
                    if (openIds.contains(m.path("parameter_id").asText())) {
                        kept.add(m);
                    }
                }
            }
            dc.put("parameter_mappings", kept);
        }
    }

    /** {@code ?parameters=<JSON object>} (v51+), or when it is missing or will not parse, plain {@code ?slug=value}. */
    private static Map<String, JsonNode> urlParams(UriInfo uri) {
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        String json = query.getFirst("parameters");
        Map<String, JsonNode> out = new LinkedHashMap<>();
        if (json != null && !json.isBlank()) {
            try {
                JsonNode parsed = Json.read(json);
                if (parsed.isObject()) {
                    parsed.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
                    return out;
                }
            } catch (Exception e) {
                // falls back to plain slug=value, as Metabase does
            }
        }
        query.forEach((key, values) -> {
            if (!RESERVED.contains(key) && !values.isEmpty()) {
                if (values.size() == 1) {
                    out.put(key, Json.MAPPER.getNodeFactory().textNode(values.get(0)));
                } else {
                    var array = Json.MAPPER.createArrayNode();
                    values.forEach(array::add);
                    out.put(key, array);
                }
            }
        });
        return out;
    }

    private static ObjectNode options(UriInfo uri) {
        ObjectNode options = Json.object();
        for (String key : List.of("format_rows", "pivot_results")) {
            String value = uri.getQueryParameters().getFirst(key);
            if (value != null) {
                options.put(key, value);
            }
        }
        return options;
    }

    private static JsonNode parse(String text) {
        try {
            return Json.read(text);
        } catch (Exception e) {
            throw new IllegalStateException("A stored column is not valid JSON", e);
        }
    }

    /** Embeds: every failure is 400 with its plain message. Previews keep the normal mapping. */
    private Response guarded(Supplier<Response> action) {
        if (preview) {
            return action.get();
        }
        try {
            return action.get();
        } catch (ApiException e) {
            if (e.status() == 400 && e.body() == null) {
                throw e;
            }
            throw ApiException.badRequest(e.getMessage() == null ? "An error occurred." : e.getMessage());
        }
    }
}
