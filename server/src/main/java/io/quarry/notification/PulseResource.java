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

/** {@code /api/pulse}: dashboard subscriptions — records, the form's choices, a test send, unsubscribing oneself. */
@Path("pulse")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class PulseResource {
    private final PulseService pulses;
    private final Delivery delivery;
    private final Caller caller;

    @Inject
    public PulseResource(PulseService pulses, Delivery delivery, Caller caller) {
        this.pulses = pulses;
        this.delivery = delivery;
        this.caller = caller;
    }

    /** {@code can_read} is the release name of {@code creator_or_recipient}. */
    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list(@QueryParam("archived") BoolStr archived, @QueryParam("dashboard_id") PosInt dashboardId,
                                          @QueryParam("creator_or_recipient") BoolStr creatorOrRecipient,
                                          @QueryParam("can_read") BoolStr canRead) {
        return pulses.list(caller, BoolStr.orDefault(archived, false), dashboardId == null ? null : dashboardId.value(),
                BoolStr.orDefault(creatorOrRecipient, false) || BoolStr.orDefault(canRead, false));
    }

    @GET
    @Path("form_input")
    @Access(Access.Level.USER)
    public Map<String, Object> formInput() {
        return pulses.formInput(delivery.emailConfigured());
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> get(@PathParam("id") PosInt id) {
        return pulses.get(caller, id.value());
    }

    @POST
    @Access(Access.Level.USER)
    public Map<String, Object> create(JsonNode json) {
        return pulses.create(caller, json);
    }

    /** Sends an unsaved subscription now, synchronously, and stores nothing: {@code {"ok": true}}. */
    @POST
    @Path("test")
    @Access(Access.Level.USER)
    public Map<String, Object> test(JsonNode json) {
        delivery.sendTest(pulses.testDraft(caller, json));
        return Map.of("ok", true);
    }

    @PUT
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        return pulses.update(caller, id.value(), json);
    }

    @DELETE
    @Path("{id}/subscription")
    @Access(Access.Level.USER)
    public Response unsubscribe(@PathParam("id") PosInt id) {
        pulses.unsubscribe(caller, id.value(), false);
        return Response.noContent().build();
    }
}
