package io.quarry.timeline;

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

/** {@code GET /api/card/:id/timelines}: the timelines of the card's collection (merged with the card endpoints). */
@Path("card")
@Produces(MediaType.APPLICATION_JSON)
public final class CardTimelinesResource {
    private final TimelineService timelines;
    private final Caller caller;

    @Inject
    public CardTimelinesResource(TimelineService timelines, Caller caller) {
        this.timelines = timelines;
        this.caller = caller;
    }

    @GET
    @Path("{id}/timelines")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> timelines(@PathParam("id") PosInt id, @QueryParam("include") String include,
                                               @QueryParam("start") String start, @QueryParam("end") String end) {
        boolean events = TimelineParams.include(include);
        TimelineService.EventWindow window = new TimelineService.EventWindow(false, TimelineParams.date("start", start),
                TimelineParams.date("end", end));
        return timelines.ofCard(caller, id.value(), events, window);
    }
}
