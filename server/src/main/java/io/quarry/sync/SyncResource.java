package io.quarry.sync;

import io.quarry.core.Caller;
import io.quarry.driver.ConnectionTester;
import io.quarry.driver.Driver;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * {@code /api/database/:id/...}: the sync actions of a database (Metabase's admin buttons). Sync and scans run in the
 * background and answer at once; a database is never synced twice at once ({@link SyncService}).
 */
@Path("database")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class SyncResource {
    private static final Map<String, Object> OK = Map.of("status", "ok");

    private final DatabaseService databases;
    private final SyncService sync;
    private final Caller caller;

    @Inject
    public SyncResource(DatabaseService databases, SyncService sync, Caller caller) {
        this.databases = databases;
        this.sync = sync;
        this.caller = caller;
    }

    /**
     * Syncs the schema and analyzes it, in the background. As Metabase, a database that cannot be reached answers
     * 422 with the reason instead.
     */
    @POST
    @Path("{id}/sync_schema")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> syncSchema(@PathParam("id") PosInt id) {
        Database database = databases.require(id.value());
        ConnectionTester.Failure unreachable = databases.testConnection(database.engine, database.details);
        if (unreachable != null) {
            throw new ApiException(422, unreachable.message());
        }
        sync.request(database.id, SyncService.SCHEMA, false);
        return OK;
    }

    /**
     * The schemas sync could read, asked of the database itself (system schemas left out), sorted; administrators
     * only (a 404 for an unknown database first, as for other users).
     */
    @GET
    @Path("{id}/syncable_schemas")
    @Access(Access.Level.USER)
    public List<String> syncableSchemas(@PathParam("id") PosInt id) {
        Database database = databases.require(id.value());
        Checks.permitted(caller.superuser());
        try {
            return sync.syncableSchemas(database);
        } catch (SQLException e) {
            Driver driver = databases.driverOf(database);
            Map<String, String> explained = driver.explainConnectionFailure(e, database.details);
            String message = explained.getOrDefault("message", explained.values().stream().findFirst().orElse(e.getMessage()));
            throw new ApiException(400, message);
        }
    }

    /** Refreshes the cached values of every list field, in the background. */
    @POST
    @Path("{id}/rescan_values")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> rescanValues(@PathParam("id") PosInt id) {
        Database database = databases.require(id.value());
        sync.request(database.id, SyncService.VALUES, false);
        return OK;
    }

    /** Drops every cached field value of the database. */
    @POST
    @Path("{id}/discard_values")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> discardValues(@PathParam("id") PosInt id) {
        Database database = databases.require(id.value());
        sync.fieldValues().discardDatabase(database.id);
        return OK;
    }

    /** Marks the initial sync of the database and its tables complete. */
    @POST
    @Path("{id}/dismiss_spinner")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> dismissSpinner(@PathParam("id") PosInt id) {
        Database database = databases.require(id.value());
        sync.dismissSpinner(database.id);
        return OK;
    }
}
