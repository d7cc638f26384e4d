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
 * {@code /api/permissions/membership}: who is in which group. Superusers may change any group; a group manager the
 * groups they manage (the service checks).
 */
@Path("permissions/membership")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class MembershipResource {
    private final GroupService groups;
    private final Caller caller;

    @Inject
    public MembershipResource(GroupService groups, Caller caller) {
        this.groups = groups;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.USER)
    public Map<Long, List<Map<String, Object>>> list() {
        return groups.memberships(caller);
    }

    /** Adds a member and answers the group's member list, as Metabase does. */
    @POST
    @Access(Access.Level.USER)
    public List<Map<String, Object>> add(JsonNode json) {
        Body body = Body.of(json);
        Long groupId = body.posInt("group_id");
        Long userId = body.posInt("user_id");
        Boolean manager = body.optBool("is_group_manager");
        body.throwIfInvalid();
        return groups.addMember(caller, userId, groupId, Boolean.TRUE.equals(manager));
    }

    @PUT
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        Body body = Body.of(json);
        Boolean manager = body.bool("is_group_manager", false);
        body.throwIfInvalid();
        return groups.setManager(caller, id.value(), manager);
    }

    @PUT
    @Path("{group-id}/clear")
    @Access(Access.Level.USER)
    public Response clear(@PathParam("group-id") PosInt groupId) {
        groups.clear(caller, groupId.value());
        return Response.noContent().build();
    }

    @DELETE
    @Path("{id}")
    @Access(Access.Level.USER)
    public Response remove(@PathParam("id") PosInt id) {
        groups.removeMember(caller, id.value());
        return Response.noContent().build();
    }
}
