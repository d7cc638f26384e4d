package io.quarry.segment;

import com.fasterxml.jackson.databind.JsonNode;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

/** {@code /api/segment}: saved filters, their revisions, reverting and related entities. */
@Path("segment")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class SegmentResource {
    private final SegmentService segments;
    private final Caller caller;

    @Inject
    public SegmentResource(SegmentService segments, Caller caller) {
        this.segments = segments;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list() {
        return segments.list(caller);
    }

    @POST
    @Access(Access.Level.USER)
    public Map<String, Object> create(JsonNode json) {
        return segments.create(caller, json);
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> get(@PathParam("id") PosInt id) {
        return segments.get(caller, id.value());
    }

    @PUT
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        return segments.update(caller, id.value(), json);
    }

    /** Deprecated: archives (PUT {@code archived} instead). */
    @DELETE
    @Path("{id}")
    @Access(Access.Level.USER)
    public Response archive(@PathParam("id") PosInt id, @QueryParam("revision_message") String message) {
        segments.archive(caller, id.value(), message);
        return Response.noContent().build();
    }

    @GET
    @Path("{id}/revisions")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> revisions(@PathParam("id") PosInt id) {
        return segments.revisions(caller, id.value());
    }

    @POST
    @Path("{id}/revert")
    @Access(Access.Level.USER)
    public Map<String, Object> revert(@PathParam("id") PosInt id, JsonNode json) {
        return segments.revert(caller, id.value(), json);
    }

    @GET
    @Path("{id}/related")
    @Access(Access.Level.USER)
    public Map<String, Object> related(@PathParam("id") PosInt id) {
        return segments.related(caller, id.value());
    }
}
