package io.quarry.action;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/**
 * {@code /api/public/action}: a shared action, for anyone with its UUID while public sharing is on. Running one is
 * throttled per UUID ({@link PublicActionThrottle}): a burst over the limit answers 429 with {@code Retry-After}.
 */
@Path("public/action")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Access(Access.Level.PUBLIC)
public final class PublicActionResource {
    private final ActionService actions;
    private final PublicActionThrottle throttle;

    @Inject
    public PublicActionResource(ActionService actions, PublicActionThrottle throttle) {
        this.actions = actions;
        this.throttle = throttle;
    }

    @GET
    @Path("{uuid}")
    public Map<String, Object> get(@PathParam("uuid") String uuid) {
        return actions.publicAction(uuid);
    }

    @POST
    @Path("{uuid}/execute")
    public Response execute(@PathParam("uuid") String uuid, JsonNode json) {
        long waitSeconds = throttle.acquire(uuid);
        if (waitSeconds > 0) {
            return Response.status(429).header("Retry-After", waitSeconds).type(MediaType.TEXT_PLAIN)
                    .entity("Too many requests for this action: try again in " + waitSeconds + " seconds.").build();
        }
        return ActionResource.answer(actions.executePublic(uuid, ActionResource.parameters(json)));
    }
}
