package io.quarry.notification;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.web.param.BoolStr;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
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

/**
 * {@code /api/alert}: question alerts. v0.63 keeps only the reads and the unsubscribe; the spec's create and update
 * are served too.
 */
@Path("alert")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class AlertResource {
    private final PulseService pulses;
    private final Caller caller;

    @Inject
    public AlertResource(PulseService pulses, Caller caller) {
        this.pulses = pulses;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list(@QueryParam("archived") BoolStr archived, @QueryParam("user_id") PosInt userId) {
        return pulses.listAlerts(caller, BoolStr.orDefault(archived, false), userId == null ? null : userId.value(), null);
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> get(@PathParam("id") PosInt id) {
        return pulses.getAlert(caller, id.value());
    }

    @GET
    @Path("question/{id}")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> ofQuestion(@PathParam("id") PosInt id, @QueryParam("archived") BoolStr archived) {
        return pulses.listAlerts(caller, BoolStr.orDefault(archived, false), null, id.value());
    }

    @POST
    @Access(Access.Level.USER)
    public Map<String, Object> create(JsonNode json) {
        return pulses.createAlert(caller, json);
    }

    @PUT
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        return pulses.updateAlert(caller, id.value(), json);
    }

    @DELETE
    @Path("{id}/subscription")
    @Access(Access.Level.USER)
    public Response unsubscribe(@PathParam("id") PosInt id) {
        pulses.unsubscribe(caller, id.value(), true);
        return Response.noContent().build();
    }
}
