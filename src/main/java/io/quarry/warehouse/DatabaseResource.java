package io.quarry.warehouse;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.driver.Driver;
import io.quarry.sync.SyncService;
import io.quarry.web.param.Body;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import io.quarry.web.security.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/** {@code /api/database}: connected databases (reading them is {@link DatabaseMetadataResource}'s). */
@Path("database")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class DatabaseResource {
    private final DatabaseService databases;
    private final SyncService sync;
    private final Caller caller;

    @Inject
    public DatabaseResource(DatabaseService databases, SyncService sync, Caller caller) {
        this.databases = databases;
        this.sync = sync;
        this.caller = caller;
    }

    @POST
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> create(JsonNode json) {
        Body body = Body.of(json);
        String engine = body.nonBlank("engine");
        String name = body.nonBlank("name");
        Map<String, Object> details = body.map("details");
        body.throwIfInvalid();
        Database database = new Database();
        database.engine = engine;
        database.name = name;
        database.details = details;
        database.creatorId = caller.id();
        Driver driver = databases.driverOf(database);
        driver.connectionSpec(details);
        Database created = databases.create(database);
        sync.syncInBackground(created.id);
        return DatabaseViews.view(created, driver, caller);
    }

    @DELETE
    @Path("{id}")
    @Access(Access.Level.SUPERUSER)
    public Response delete(@PathParam("id") PosInt id) {
        databases.delete(id.value());
        return Response.noContent().build();
    }
}
