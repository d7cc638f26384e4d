package io.quarry.publicsharing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.card.Card;
import io.quarry.core.Json;
import io.quarry.qp.export.ExportFormat;
import io.quarry.qp.run.QueryContext;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Body;
import io.quarry.web.param.Validation;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/public}: what a public link shows to anyone, signed in or not, while {@code enable-public-sharing} is on.
 * As Metabase's {@code public-exceptions}: a missing (unknown, revoked, archived) object is 404 {@code Not found.}, any
 * other failure — sharing turned off included — 400 {@code An error occurred.}, the real message never shown.
 */
@Path("public")
@Access(Access.Level.PUBLIC)
public final class PublicResource {
    private static final Logger log = LoggerFactory.getLogger(PublicResource.class);

    private final PublicSharing sharing;

    @Inject
    public PublicResource(PublicSharing sharing) {
        this.sharing = sharing;
    }

    /**
     * oEmbed for a public link ({@code GET /api/public/oembed?url=&maxwidth=&maxheight=}): the iframe code of
     * {@code url}, 1024 × 800 unless the caller asks for other positive sizes, as Metabase answers it.
     */
    @GET
    @Path("oembed")
    public Response oembed(@QueryParam("url") String url, @QueryParam("maxwidth") String maxWidth,
                           @QueryParam("maxheight") String maxHeight) {
        return guarded(() -> {
            if (url == null || url.isBlank()) {
                throw ApiException.invalidField("url", "value must be a non-blank string.");
            }
            long width = maxWidth == null ? 1024 : Validation.requirePosInt("maxwidth", maxWidth);
            long height = maxHeight == null ? 800 : Validation.requirePosInt("maxheight", maxHeight);
            Map<String, Object> body = new java.util.LinkedHashMap<>();
            body.put("version", "1.0");
            body.put("type", "rich");
            body.put("width", width);
            body.put("height", height);
            body.put("html", "<iframe src=\"" + attribute(url) + "\" width=\"" + width + "\" height=\"" + height
                    + "\" frameborder=\"0\" allowtransparency></iframe>");
            return json(body);
        });
    }

    private static String attribute(String text) {
        return text.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;");
    }

    @GET
    @Path("card/{uuid}")
    public Response card(@PathParam("uuid") String uuid) {
        return guarded(() -> json(sharing.cardView(sharing.publicCard(uuid))));
    }

    @GET
    @Path("card/{uuid}/query")
    public Response cardQuery(@PathParam("uuid") String uuid, @QueryParam("parameters") String parameters) {
        return cardQuery(uuid, parameters, false);
    }

    /** The card's query as a pivot table (Metabase's {@code /api/public/pivot/card/:uuid/query}). */
    @GET
    @Path("pivot/card/{uuid}/query")
    public Response pivotCardQuery(@PathParam("uuid") String uuid, @QueryParam("parameters") String parameters) {
        return cardQuery(uuid, parameters, true);
    }

    private Response cardQuery(String uuid, String parameters, boolean pivot) {
        return guarded(() -> {
            Card card = sharing.publicCard(uuid);
            JsonNode bound = PublicParameters.byId(PublicViews.parameters(card), PublicSharing.jsonParam("parameters", parameters));
            return sharing.runCard(QueryContext.PUBLIC, card, bound, pivot);
        });
    }

    @GET
    @Path("card/{uuid}/query/{export-format: " + ExportFormat.PATH_PATTERN + "}")
    public Response cardExport(@PathParam("uuid") String uuid, @PathParam("export-format") String format,
                               @QueryParam("parameters") String parameters, @QueryParam("format_rows") String formatRows,
                               @QueryParam("pivot_results") String pivotResults) {
        return guarded(() -> {
            Card card = sharing.publicCard(uuid);
            JsonNode bound = PublicParameters.byId(PublicViews.parameters(card), PublicSharing.jsonParam("parameters", parameters));
            ObjectNode options = Json.object();
            putIfSet(options, "format_rows", formatRows);
            putIfSet(options, "pivot_results", pivotResults);
            return sharing.exportCard(QueryContext.PUBLIC, card, bound, ExportFormat.of(format), options);
        });
    }

    @GET
    @Path("card/{uuid}/params/{key}/values")
    public Response cardValues(@PathParam("uuid") String uuid, @PathParam("key") String key) {
        return guarded(() -> json(sharing.cardValues(sharing.publicCard(uuid), key, null)));
    }

    @GET
    @Path("card/{uuid}/params/{key}/search/{query}")
    public Response cardSearch(@PathParam("uuid") String uuid, @PathParam("key") String key, @PathParam("query") String query) {
        return guarded(() -> json(sharing.cardValues(sharing.publicCard(uuid), key, query)));
    }

    @GET
    @Path("dashboard/{uuid}/params/{key}/values")
    public Response dashboardValues(@PathParam("uuid") String uuid, @PathParam("key") String key) {
        return guarded(() -> json(sharing.dashboardValues(sharing.dashboardView(sharing.publicDashboard(uuid)), key, null)));
    }

    @GET
    @Path("dashboard/{uuid}/params/{key}/search/{query}")
    public Response dashboardSearch(@PathParam("uuid") String uuid, @PathParam("key") String key,
                                    @PathParam("query") String query) {
        return guarded(() -> json(sharing.dashboardValues(sharing.dashboardView(sharing.publicDashboard(uuid)), key, query)));
    }

    @GET
    @Path("dashboard/{uuid}")
    public Response dashboard(@PathParam("uuid") String uuid) {
        return guarded(() -> json(PublicViews.dashboard(sharing.dashboardView(sharing.publicDashboard(uuid)))));
    }

    @GET
    @Path("dashboard/{uuid}/dashcard/{dashcard-id}/card/{card-id}")
    public Response dashcardQuery(@PathParam("uuid") String uuid, @PathParam("dashcard-id") String dashcardId,
                                  @PathParam("card-id") String cardId, @QueryParam("parameters") String parameters) {
        return dashcardQuery(uuid, dashcardId, cardId, parameters, false);
    }

    @GET
    @Path("pivot/dashboard/{uuid}/dashcard/{dashcard-id}/card/{card-id}")
    public Response pivotDashcardQuery(@PathParam("uuid") String uuid, @PathParam("dashcard-id") String dashcardId,
                                       @PathParam("card-id") String cardId, @QueryParam("parameters") String parameters) {
        return dashcardQuery(uuid, dashcardId, cardId, parameters, true);
    }

    private Response dashcardQuery(String uuid, String dashcardId, String cardId, String parameters, boolean pivot) {
        return guarded(() -> sharing.runDashcard(QueryContext.PUBLIC, sharing.publicDashboard(uuid), Validation.requirePosInt("dashcard-id", dashcardId),
                Validation.requirePosInt("card-id", cardId), idParameters(PublicSharing.jsonParam("parameters", parameters)), pivot));
    }

    @POST
    @Path("dashboard/{uuid}/dashcard/{dashcard-id}/card/{card-id}/{export-format: " + ExportFormat.PATH_PATTERN + "}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response dashcardExportJson(@PathParam("uuid") String uuid, @PathParam("dashcard-id") String dashcardId,
                                       @PathParam("card-id") String cardId, @PathParam("export-format") String format,
                                       JsonNode body) {
        Body.of(body); // anything but an object (or no body) is a 400 naming the body
        return guarded(() -> {
            ObjectNode options = body != null && body.isObject() ? ((ObjectNode) body).deepCopy() : Json.object();
            JsonNode parameters = options.remove("parameters");
            if (parameters != null && parameters.isTextual()) {
                parameters = PublicSharing.jsonParam("parameters", parameters.asText());
            }
            return sharing.exportDashcard(QueryContext.PUBLIC, sharing.publicDashboard(uuid), Validation.requirePosInt("dashcard-id", dashcardId),
                    Validation.requirePosInt("card-id", cardId), idParameters(parameters), ExportFormat.of(format), options);
        });
    }

    @POST
    @Path("dashboard/{uuid}/dashcard/{dashcard-id}/card/{card-id}/{export-format: " + ExportFormat.PATH_PATTERN + "}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response dashcardExportForm(@PathParam("uuid") String uuid, @PathParam("dashcard-id") String dashcardId,
                                       @PathParam("card-id") String cardId, @PathParam("export-format") String format,
                                       MultivaluedMap<String, String> form) {
        return guarded(() -> {
            ObjectNode options = Json.object();
            form.forEach((key, values) -> {
                if (!key.equals("parameters") && !values.isEmpty()) {
                    options.put(key, values.get(0));
                }
            });
            return sharing.exportDashcard(QueryContext.PUBLIC, sharing.publicDashboard(uuid), Validation.requirePosInt("dashcard-id", dashcardId),
                    Validation.requirePosInt("card-id", cardId), idParameters(PublicSharing.jsonParam("parameters", form.getFirst("parameters"))),
                    ExportFormat.of(format), options);
        });
    }

    /** Dashboard parameter values: {@code [{"id": ..., "value": ...}]}. */
    static JsonNode idParameters(JsonNode parameters) {
        if (parameters == null || parameters.isNull()) {
            return null;
        }
        if (!parameters.isArray()) {
            throw ApiException.invalidField("parameters", "value must be an array of parameter values.");
        }
        for (JsonNode p : parameters) {
            if (!p.isObject() || !p.path("id").isTextual()) {
                throw ApiException.invalidField("parameters", "value must be an array of maps with an 'id' key.");
            }
        }
        return parameters;
    }

    private static void putIfSet(ObjectNode options, String key, String value) {
        if (value != null) {
            options.put(key, value);
        }
    }

    private static Response json(Object body) {
        return Response.ok(body, MediaType.APPLICATION_JSON_TYPE).build();
    }

    /** Metabase's public-exceptions: 404 stays {@code Not found.}, everything else is 400 {@code An error occurred.}. */
    static Response guarded(Supplier<Response> action) {
        try {
            return action.get();
        } catch (ApiException e) {
            if (e.status() == 404) {
                throw ApiException.notFound();
            }
            log.debug("A public request failed: {}", e.getMessage());
            throw ApiException.badRequest("An error occurred.");
        } catch (RuntimeException e) {
            log.warn("A public request failed", e);
            throw ApiException.badRequest("An error occurred.");
        }
    }
}
