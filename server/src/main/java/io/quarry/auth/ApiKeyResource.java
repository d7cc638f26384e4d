package io.quarry.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.param.Body;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

/** {@code /api/api-key}: administrators manage API keys. The secret is shown once, on create and on regenerate. */
@Path("api-key")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Access(Access.Level.SUPERUSER)
public final class ApiKeyResource {
    private final ApiKeyService apiKeys;
    private final Caller caller;

    @Inject
    public ApiKeyResource(ApiKeyService apiKeys, Caller caller) {
        this.apiKeys = apiKeys;
        this.caller = caller;
    }

    @GET
    public List<Map<String, Object>> list() {
        return apiKeys.list();
    }

    /** A bare number. */
    @GET
    @Path("count")
    public long count() {
        return apiKeys.count();
    }

    @POST
    public Map<String, Object> create(JsonNode json) {
        Body body = Body.of(json);
        Long groupId = body.posInt("group_id");
        String name = body.nonBlank("name");
        body.throwIfInvalid();
        return apiKeys.create(name, groupId, caller.id());
    }

    @PUT
    @Path("{id}")
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        Body body = Body.of(json);
        Long groupId = body.optPosInt("group_id");
        String name = body.optNonBlank("name");
        body.throwIfInvalid();
        return apiKeys.update(id.value(), name, groupId, caller.id());
    }

    @PUT
    @Path("{id}/regenerate")
    public Map<String, Object> regenerate(@PathParam("id") PosInt id) {
        return apiKeys.regenerate(id.value(), caller.id());
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") PosInt id) {
        apiKeys.delete(id.value(), caller.id());
        return Response.noContent().build();
    }
}
