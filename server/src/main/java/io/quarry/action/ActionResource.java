package io.quarry.action;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Body;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
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
import java.util.List;
import java.util.Map;

/** {@code /api/action}: actions of models (list, read, create, change, archive, delete, share, run). */
@Path("action")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class ActionResource {
    private final ActionService actions;
    private final Caller caller;

    @Inject
    public ActionResource(ActionService actions, Caller caller) {
        this.actions = actions;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list(@QueryParam("model-id") PosInt modelId) {
        return actions.list(caller, modelId == null ? null : modelId.value());
    }

    @GET
    @Path("public")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> publicActions() {
        return actions.publicActions(caller);
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> get(@PathParam("id") PosInt id) {
        return actions.get(caller, id.value());
    }

    @POST
    @Access(Access.Level.USER)
    public Map<String, Object> create(JsonNode json) {
        return actions.create(caller, json);
    }

    @PUT
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        return actions.update(caller, id.value(), json);
    }

    @DELETE
    @Path("{id}")
    @Access(Access.Level.USER)
    public Response delete(@PathParam("id") PosInt id) {
        actions.delete(caller, id.value());
        return Response.noContent().build();
    }

    /** Values to pre-fill a row/update or row/delete form: {@code parameters} is JSON naming the primary key. */
    @GET
    @Path("{id}/execute")
    @Access(Access.Level.USER)
    public Map<String, Object> prefill(@PathParam("id") PosInt id, @QueryParam("parameters") String parameters) {
        return actions.prefill(caller, id.value(), jsonMap("parameters", parameters, true));
    }

    @POST
    @Path("{id}/execute")
    @Access(Access.Level.USER)
    public Response execute(@PathParam("id") PosInt id, JsonNode json) {
        return answer(actions.execute(caller, id.value(), parameters(json)));
    }

    /** 200 with the result, or 204 for an HTTP action without a response handle. */
    static Response answer(Object result) {
        return result == ActionService.NO_CONTENT ? Response.noContent().build()
                : Response.ok(result, MediaType.APPLICATION_JSON_TYPE).build();
    }

    @POST
    @Path("{id}/public_link")
    @Access(Access.Level.USER)
    public Map<String, Object> publicLink(@PathParam("id") PosInt id) {
        return Map.of("uuid", actions.publicLink(caller, id.value()));
    }

    @DELETE
    @Path("{id}/public_link")
    @Access(Access.Level.USER)
    public Response removePublicLink(@PathParam("id") PosInt id) {
        actions.removePublicLink(caller, id.value());
        return Response.noContent().build();
    }

    /**
     * The {@code parameters} of an execute body (absent or null: none): a map of parameter id to value, or, for the
     * bulk implicit kinds, a list of such maps (one per row); which one the action takes is checked when it runs.
     */
    static Object parameters(JsonNode json) {
        Body body = Body.of(json);
        if (json != null && json.isObject() && json.get("parameters") != null && json.get("parameters").isArray()) {
            return rowsOf(body, "parameters");
        }
        // Metabase's own bulk row endpoints (data editing) name the list "rows": taken as the same list
        if (json != null && json.isObject() && json.get("parameters") == null && json.get("rows") != null) {
            return rowsOf(body, "rows");
        }
        Map<String, Object> parameters = body.optMap("parameters");
        body.throwIfInvalid();
        return parameters == null ? Map.of() : parameters;
    }

    /**
     * A list of rows, each a map of parameter id to value; anything else is a 400 naming {@code parameters} (the
     * name the error carries for Metabase's {@code rows} too).
     */
    private static List<Object> rowsOf(Body body, String key) {
        JsonNode rows = body.get(key, Body.Kind.OBJECTS);
        List<Object> result = new java.util.ArrayList<>();
        for (JsonNode row : rows) {
            if (!row.isObject()) {
                body.addError("parameters", "nullable map or sequence of maps",
                        "invalid type, received: " + row);
                break;
            }
            result.add(Json.MAPPER.convertValue(row, Map.class));
        }
        if (!rows.isArray()) {
            body.addError("parameters", "nullable map or sequence of maps", "invalid type, received: " + rows);
        }
        body.throwIfInvalid();
        return result;
    }

    /** A query-string parameter holding a JSON object. */
    static Map<String, Object> jsonMap(String name, String text, boolean required) {
        if (text == null || text.isBlank()) {
            if (required) {
                throw ApiException.invalidField(name, "value must be a valid JSON string.");
            }
            return Map.of();
        }
        try {
            JsonNode node = Json.read(text);
            if (!node.isObject()) {
                throw ApiException.invalidField(name, "value must be a valid JSON string.");
            }
            return Json.MAPPER.convertValue(node, new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() { });
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw ApiException.invalidField(name, "value must be a valid JSON string.");
        }
    }
}
