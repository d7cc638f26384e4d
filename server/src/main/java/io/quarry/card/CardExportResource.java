package io.quarry.card;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.qp.export.ExportFormat;
import io.quarry.qp.export.ExportRequest;
import io.quarry.core.Json;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.run.QueryRunner;
import io.quarry.qp.web.QueryResponder;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Body;
import io.quarry.web.param.ParamRule;
import io.quarry.web.param.PosInt;
import io.quarry.web.param.Validation;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.Locale;

/**
 * {@code POST /api/card/:id/query/:export-format}: a card's rows as a CSV, JSON or XLSX file (or the result object),
 * without the API's row limits. Parameters come as a JSON string — in the query string as the spec has it, or in the
 * form body as v0.63's downloads send it — or as a JSON array in a JSON body.
 */
@Path("card")
public final class CardExportResource {
    private final CardService cards;
    private final QueryRunner runner;
    private final Caller caller;

    @Inject
    public CardExportResource(CardService cards, QueryRunner runner, Caller caller) {
        this.cards = cards;
        this.runner = runner;
        this.caller = caller;
    }

    @POST
    @Path("{id}/query/{export-format: " + ExportFormat.PATH_PATTERN + "}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Access(Access.Level.USER)
    public Response exportForm(@PathParam("id") PosInt id, @PathParam("export-format") String format,
                               @QueryParam("parameters") String queryParameters, MultivaluedMap<String, String> form) {
        String parameters = form.getFirst("parameters") != null ? form.getFirst("parameters") : queryParameters;
        ObjectNode options = Json.object();
        form.forEach((key, values) -> {
            if (!key.equals("parameters") && !values.isEmpty()) {
                options.put(key, values.get(0));
            }
        });
        return export(id.value(), ExportFormat.of(format), parseParameters(parameters), options);
    }

    @POST
    @Path("{id}/query/{export-format: " + ExportFormat.PATH_PATTERN + "}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Access(Access.Level.USER)
    public Response exportJson(@PathParam("id") PosInt id, @PathParam("export-format") String format,
                               @QueryParam("parameters") String queryParameters, JsonNode body) {
        Body.of(body); // anything but an object (or no body) is a 400 naming the body
        JsonNode parameters = body != null && body.has("parameters") ? body.get("parameters") : null;
        if (parameters != null && parameters.isTextual()) {
            parameters = parseParameters(parameters.asText());
        } else if (parameters == null) {
            parameters = parseParameters(queryParameters);
        }
        ObjectNode options = body != null && body.isObject() ? ((ObjectNode) body).deepCopy() : Json.object();
        options.remove("parameters");
        return export(id.value(), ExportFormat.of(format), parameters, options);
    }

    private Response export(long id, ExportFormat format, JsonNode parameters, ObjectNode options) {
        Card card = cards.requireReadable(id, caller);
        ObjectNode request = CardService.queryRequest(card, parameters);
        ExportRequest export = ExportRequest.withQuery(options, request);
        QueryRequest.Download download = new QueryRequest.Download(format, export.options(), slug(card.name));
        return QueryResponder.respond(runner.run(QueryRequest.download(caller, export.query(),
                new QueryRequest.SavedCard(card.id, card.databaseId), download)));
    }

    private static JsonNode parseParameters(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            JsonNode parsed = Json.read(text);
            if (!parsed.isArray()) {
                throw Validation.invalid("parameters", ParamRule.JSON_STRING, true, text);
            }
            return parsed;
        } catch (ApiException e) {
            throw e;
        } catch (Exception e) {
            throw Validation.invalid("parameters", ParamRule.JSON_STRING, true, text);
        }
    }

    /** The card's name as a file name prefix: lower case, runs of other characters as one underscore. */
    static String slug(String name) {
        String slug = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        return slug.isEmpty() ? "query_result" : slug;
    }
}
