package io.quarry.user;

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

/**
 * {@code /api/permissions/group}: permission groups. Reading is for superusers and for group managers (their own
 * groups, as Metabase allows); creating, renaming and deleting are for superusers.
 */
@Path("permissions/group")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class GroupResource {
    private final GroupService groups;
    private final Caller caller;

    @Inject
    public GroupResource(GroupService groups, Caller caller) {
        this.groups = groups;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list() {
        return groups.list(caller);
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> get(@PathParam("id") PosInt id) {
        return groups.get(caller, id.value());
    }

    @POST
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> create(JsonNode json) {
        Body body = Body.of(json);
        String name = body.nonBlank("name");
        body.throwIfInvalid();
        return groups.create(name);
    }

    @PUT
    @Path("{group-id}")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> rename(@PathParam("group-id") PosInt id, JsonNode json) {
        Body body = Body.of(json);
        String name = body.nonBlank("name");
        body.throwIfInvalid();
        return groups.rename(id.value(), name);
    }

    @DELETE
    @Path("{group-id}")
    @Access(Access.Level.SUPERUSER)
    public Response delete(@PathParam("group-id") PosInt id) {
        groups.delete(id.value());
        return Response.noContent().build();
    }
}
