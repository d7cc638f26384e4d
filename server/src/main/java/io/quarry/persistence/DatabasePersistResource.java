package io.quarry.persistence;

import io.quarry.core.Caller;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Objects;

/** The spec's {@code POST /api/database/:id/persist|unpersist} (v0.63 has them under {@code /api/persist/database}). */
@Path("database/{id}/{action: persist|unpersist}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class DatabasePersistResource {
    private final PersistenceService persistence;
    private final Caller caller;

    @Inject
    public DatabasePersistResource(PersistenceService persistence, Caller caller) {
        this.persistence = Objects.requireNonNull(persistence, "persistence is null");
        this.caller = Objects.requireNonNull(caller, "caller is null");
    }

    @POST
    @Access(Access.Level.SUPERUSER)
    public Response act(@PathParam("id") PosInt id, @PathParam("action") String action) {
        return act(persistence, caller, id.value(), action);
    }

    /** 204 whether or not the database was already in that state. */
    static Response act(PersistenceService persistence, Caller caller, long databaseId, String action) {
        switch (action) {
            case "persist" -> persistence.persistDatabase(databaseId, caller.userId());
            case "unpersist" -> persistence.unpersistDatabase(databaseId);
            default -> throw new IllegalArgumentException(action);
        }
        return Response.noContent().build();
    }
}
