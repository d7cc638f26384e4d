package io.quarry.setting;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.quarry.core.Json;
import io.quarry.web.param.Body;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /api/setting}: administrators list and write instance settings; every signed-in caller reads and writes their
 * own user-local settings. Keys are accepted in kebab-case or snake_case.
 */
@Path("setting")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class SettingResource {
    private final Settings settings;
    private final Caller caller;

    @Inject
    public SettingResource(Settings settings, Caller caller) {
        this.settings = settings;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.SUPERUSER)
    public List<Map<String, Object>> list() {
        return settings.describeAll(caller);
    }

    /** The bare value as JSON ({@code null} when unset, the default, or given by the environment). */
    @GET
    @Path("{key}")
    @Access(Access.Level.USER)
    public JsonNode read(@PathParam("key") String key) {
        Object value = settings.readAs(caller, key);
        return value == null ? NullNode.instance : Json.MAPPER.valueToTree(value);
    }

    /** Many settings at once, all or nothing: {@code {"site-name": "...", "report-timezone": null}}. */
    @PUT
    @Access(Access.Level.USER)
    public Response writeMany(JsonNode json) {
        Body body = Body.of(json);
        Map<String, JsonNode> values = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = body.raw().fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            values.put(entry.getKey(), entry.getValue());
        }
        settings.setAllAs(caller, values);
        return Response.noContent().build();
    }

    /** One setting: {@code {"value": ...}}; a null (or missing) value deletes it. */
    @PUT
    @Path("{key}")
    @Access(Access.Level.USER)
    public Response write(@PathParam("key") String key, JsonNode json) {
        Body body = Body.of(json);
        settings.setAs(caller, key, body.get("value"));
        return Response.noContent().build();
    }
}
