package io.quarry.notification;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.web.param.BoolStr;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/** {@code /api/channel}: webhook channels for notifications. */
@Path("channel")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class ChannelResource {
    private final ChannelService channels;
    private final Caller caller;

    @Inject
    public ChannelResource(ChannelService channels, Caller caller) {
        this.channels = channels;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list(@QueryParam("include_inactive") BoolStr includeInactive) {
        return channels.list(caller, BoolStr.orDefault(includeInactive, false));
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> get(@PathParam("id") PosInt id) {
        return channels.get(caller, id.value());
    }

    @POST
    @Access(Access.Level.USER)
    public Map<String, Object> create(JsonNode json) {
        return channels.create(caller, json);
    }

    @POST
    @Path("test")
    @Access(Access.Level.USER)
    public Map<String, Object> test(JsonNode json) {
        return channels.test(caller, json);
    }

    @PUT
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        return channels.update(caller, id.value(), json);
    }
}
