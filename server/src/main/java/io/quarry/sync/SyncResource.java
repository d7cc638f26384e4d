package io.quarry.sync;

import io.quarry.driver.Driver;
import io.quarry.driver.Drivers;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * {@code /api/database/:id/...}: the sync actions of a database (Metabase's admin buttons). Sync and scans run in the
 * background and answer at once; a database is never synced twice at once ({@link SyncService}).
 */
@Path("database")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class SyncResource {
    /** How long sync_schema waits to learn whether the database answers at all. */
    static final int CONNECT_CHECK_SECONDS = 10;
    private static final Map<String, Object> OK = Map.of("status", "ok");

    private final DatabaseService databases;
    private final SyncService sync;

    @Inject
    public SyncResource(DatabaseService databases, SyncService sync) {
        this.databases = databases;
        this.sync = sync;
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
        Driver driver = databases.driverOf(database);
        try (Connection ignored = Drivers.connect(driver.connectionSpec(database.details), CONNECT_CHECK_SECONDS)) {
            // reachable
        } catch (SQLException e) {
            Map<String, String> explained = driver.explainConnectionFailure(e, database.details);
            String message = explained.containsKey("message") ? explained.get("message") : explained.values().iterator().next();
            throw new ApiException(422, message);
        }
        sync.request(database.id, SyncService.SCHEMA, false);
        return OK;
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
