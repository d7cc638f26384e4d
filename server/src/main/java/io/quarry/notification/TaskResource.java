package io.quarry.notification;

import io.quarry.web.param.Paging;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * {@code /api/task}: Metabase's task history, for administrators — here every send of a subscription or alert
 * ({@code send-pulse}, {@code send-alert}) with its recipients, outcome and error.
 */
@Path("task")
@Produces(MediaType.APPLICATION_JSON)
public final class TaskResource {
    private final SendHistory history;

    @Inject
    public TaskResource(SendHistory history) {
        this.history = history;
    }

    @GET
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> list(@QueryParam("limit") String limit, @QueryParam("offset") String offset) {
        Paging paging = Paging.of(limit, offset);
        return history.page(paging.paged() ? paging.limit() : 50, paging.paged() ? paging.offset() : 0);
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> get(@PathParam("id") PosInt id) {
        return history.get(id.value());
    }
}
