package io.quarry.sync;

import io.quarry.core.Caller;
import io.quarry.driver.ConnectionTester;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.Table;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * {@code /api/table/:id/...}: the sync actions of one table (the data model's buttons). Administrators only, with a 404
 * for an unknown table first, as Metabase checks the table before the rights; any body (none, an empty form, JSON) is
 * ignored, as Metabase's clients send each.
 */
@Path("table")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.WILDCARD)
public final class TableSyncResource {
    private final DatabaseService databases;
    private final MetadataService metadata;
    private final SyncService sync;
    private final Caller caller;

    @Inject
    public TableSyncResource(DatabaseService databases, MetadataService metadata, SyncService sync, Caller caller) {
        this.databases = databases;
        this.metadata = metadata;
        this.sync = sync;
        this.caller = caller;
    }

    private Table requireAdminTable(PosInt id) {
        Table table = metadata.requireTable(id.value());
        Checks.permitted(caller.superuser());
        return table;
    }

    /**
     * Syncs the table's schema in the background: {@code {"status":"ok"}} at once. Quarry's sync reads a database
     * whole, so the table's database is synced (and analyzed), which includes the table. As Metabase, a database that
     * cannot be reached answers 422 with the reason instead.
     */
    @POST
    @Path("{id}/sync_schema")
    @Access(Access.Level.USER)
    public Map<String, Object> syncSchema(@PathParam("id") PosInt id) {
        Table table = requireAdminTable(id);
        Database database = databases.require(table.dbId);
        ConnectionTester.Failure unreachable = databases.testConnection(database.engine, database.details);
        if (unreachable != null) {
            throw new ApiException(422, unreachable.message());
        }
        sync.request(database.id, SyncService.SCHEMA, false);
        return Map.of("status", "ok");
    }

    /** Refreshes the cached values of the table's fields in the background: {@code {"status":"success"}} at once. */
    @POST
    @Path("{id}/rescan_values")
    @Access(Access.Level.USER)
    public Map<String, Object> rescanValues(@PathParam("id") PosInt id) {
        Table table = requireAdminTable(id);
        sync.rescanTable(table.id);
        return Map.of("status", "success");
    }

    /** Drops the cached values of every field of the table: {@code {"status":"success"}}. */
    @POST
    @Path("{id}/discard_values")
    @Access(Access.Level.USER)
    public Map<String, Object> discardValues(@PathParam("id") PosInt id) {
        Table table = requireAdminTable(id);
        sync.discardTableValues(table.id);
        return Map.of("status", "success");
    }
}
