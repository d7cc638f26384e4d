package io.quarry.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.web.param.Body;
import io.quarry.web.param.Paging;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import java.util.Objects;

/**
 * {@code /api/persist}: model persistence. Administrators manage it (the switches, the schedule, the records); anyone
 * who may read a model may read its record by card. v0.63's card and database paths live here too
 * ({@code /api/persist/card/:id/persist}...), served by the same code as the spec's {@code /api/card/:id/persist} and
 * {@code /api/database/:id/persist} ({@link CardPersistResource}, {@link DatabasePersistResource}).
 */
@Path("persist")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class PersistResource {
    private final PersistenceService persistence;
    private final Caller caller;

    @Inject
    public PersistResource(PersistenceService persistence, Caller caller) {
        this.persistence = Objects.requireNonNull(persistence, "persistence is null");
        this.caller = Objects.requireNonNull(caller, "caller is null");
    }

    @GET
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> list(@QueryParam("limit") String limit, @QueryParam("offset") String offset) {
        Paging paging = Paging.of(limit, offset);
        return persistence.list(paging.limit(), paging.offset(), caller);
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> get(@PathParam("id") PosInt id) {
        return persistence.get(id.value(), caller);
    }

    @GET
    @Path("card/{card-id}")
    @Access(Access.Level.USER)
    public Map<String, Object> byCard(@PathParam("card-id") PosInt cardId) {
        return persistence.getByCard(cardId.value(), caller);
    }

    @POST
    @Path("enable")
    @Access(Access.Level.SUPERUSER)
    public Response enable() {
        persistence.enable();
        return Response.noContent().build();
    }

    @POST
    @Path("disable")
    @Access(Access.Level.SUPERUSER)
    public Response disable() {
        persistence.disable();
        return Response.noContent().build();
    }

    @POST
    @Path("set-refresh-schedule")
    @Access(Access.Level.SUPERUSER)
    public Response setRefreshSchedule(JsonNode json) {
        Body body = Body.of(json);
        String cron = body.nonBlank("cron");
        body.throwIfInvalid();
        persistence.setRefreshSchedule(cron);
        return Response.noContent().build();
    }

    /** v0.63's {@code POST /api/persist/card/:id/persist}. */
    @POST
    @Path("card/{id}/persist")
    @Access(Access.Level.SUPERUSER)
    public Response cardPersist(@PathParam("id") PosInt id) {
        return CardPersistResource.act(persistence, caller, id.value(), "persist");
    }

    /** v0.63's {@code POST /api/persist/card/:id/unpersist}. */
    @POST
    @Path("card/{id}/unpersist")
    @Access(Access.Level.SUPERUSER)
    public Response cardUnpersist(@PathParam("id") PosInt id) {
        return CardPersistResource.act(persistence, caller, id.value(), "unpersist");
    }

    /** v0.63's {@code POST /api/persist/card/:id/refresh}. */
    @POST
    @Path("card/{id}/refresh")
    @Access(Access.Level.SUPERUSER)
    public Response cardRefresh(@PathParam("id") PosInt id) {
        return CardPersistResource.act(persistence, caller, id.value(), "refresh");
    }

    /** v0.63's {@code POST /api/persist/database/:id/persist}. */
    @POST
    @Path("database/{id}/persist")
    @Access(Access.Level.SUPERUSER)
    public Response databasePersist(@PathParam("id") PosInt id) {
        return DatabasePersistResource.act(persistence, caller, id.value(), "persist");
    }

    /** v0.63's {@code POST /api/persist/database/:id/unpersist}. */
    @POST
    @Path("database/{id}/unpersist")
    @Access(Access.Level.SUPERUSER)
    public Response databaseUnpersist(@PathParam("id") PosInt id) {
        return DatabasePersistResource.act(persistence, caller, id.value(), "unpersist");
    }
}
