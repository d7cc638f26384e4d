package io.quarry.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.param.BoolStr;
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

/** {@code /api/timeline}: timelines of collections. */
@Path("timeline")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class TimelineResource {
    private final TimelineService timelines;
    private final Caller caller;

    @Inject
    public TimelineResource(TimelineService timelines, Caller caller) {
        this.timelines = timelines;
        this.caller = caller;
    }

    @POST
    @Access(Access.Level.USER)
    public Map<String, Object> create(JsonNode json) {
        return timelines.create(caller, json);
    }

    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list(@QueryParam("include") String include, @QueryParam("archived") BoolStr archived) {
        return timelines.list(caller, BoolStr.orDefault(archived, false), TimelineParams.include(include));
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> get(@PathParam("id") PosInt id, @QueryParam("include") String include,
                                   @QueryParam("archived") BoolStr archived, @QueryParam("start") String start,
                                   @QueryParam("end") String end) {
        boolean events = TimelineParams.include(include);
        TimelineService.EventWindow window = new TimelineService.EventWindow(BoolStr.orDefault(archived, false),
                TimelineParams.date("start", start), TimelineParams.date("end", end));
        return timelines.get(caller, id.value(), events, window);
    }

    @PUT
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        return timelines.update(caller, id.value(), json);
    }

    @DELETE
    @Path("{id}")
    @Access(Access.Level.USER)
    public Response delete(@PathParam("id") PosInt id) {
        timelines.delete(caller, id.value());
        return Response.noContent().build();
    }
}
