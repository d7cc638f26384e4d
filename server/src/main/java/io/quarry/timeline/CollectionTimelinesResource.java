package io.quarry.timeline;

import io.quarry.web.param.BoolStr;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/** {@code GET /api/collection/:id/timelines} and {@code /api/collection/root/timelines} (Jersey merges this class with the collection endpoints). */
@Path("collection")
@Produces(MediaType.APPLICATION_JSON)
public final class CollectionTimelinesResource {
    private final TimelineService timelines;
    private final Caller caller;

    @Inject
    public CollectionTimelinesResource(TimelineService timelines, Caller caller) {
        this.timelines = timelines;
        this.caller = caller;
    }

    @GET
    @Path("root/timelines")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> root(@QueryParam("include") String include, @QueryParam("archived") BoolStr archived) {
        return timelines.ofCollection(caller, null, BoolStr.orDefault(archived, false), TimelineParams.include(include));
    }

    @GET
    @Path("{id}/timelines")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> ofCollection(@PathParam("id") PosInt id, @QueryParam("include") String include,
                                                  @QueryParam("archived") BoolStr archived) {
        return timelines.ofCollection(caller, id.value(), BoolStr.orDefault(archived, false), TimelineParams.include(include));
    }
}
