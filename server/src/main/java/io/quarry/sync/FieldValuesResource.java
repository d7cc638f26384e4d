package io.quarry.sync;

import io.quarry.core.Caller;
import io.quarry.permission.DataPermissions;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.MetadataService;
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
import java.util.Map;

/** {@code /api/field/:id/values}, {@code rescan_values}, {@code discard_values}: a field's cached values. */
@Path("field")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class FieldValuesResource {
    private static final Map<String, Object> SUCCESS = Map.of("status", "success");

    /** Fields and tables are the warehouse module's: read through its service. */
    private final MetadataService metadata;
    private final SyncService sync;
    /** Data permissions: values are data, shown to those who may see the database. */
    private final DataPermissions dataPermissions;
    private final Caller caller;

    @Inject
    public FieldValuesResource(MetadataService metadata, SyncService sync, DataPermissions dataPermissions, Caller caller) {
        this.metadata = metadata;
        this.sync = sync;
        this.dataPermissions = dataPermissions;
        this.caller = caller;
    }

    /**
     * {@code {"field_id", "values": [[v], ...], "has_more_values"}}; empty values for fields that keep none. A list
     * field without cached values gets them now.
     */
    @GET
    @Path("{id}/values")
    @Access(Access.Level.USER)
    public Map<String, Object> values(@PathParam("id") PosInt id) {
        Field field = field(id);
        io.quarry.warehouse.Table table = metadata.findTable(field.tableId);
        if (table != null) {
            dataPermissions.requireRead(caller, table.dbId);
        }
        return sync.fieldValues().valuesOf(field);
    }

    /** Reads the field's values again now (or drops them when the field should have none). */
    @POST
    @Path("{id}/rescan_values")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> rescanValues(@PathParam("id") PosInt id) {
        sync.fieldValues().refresh(field(id));
        return SUCCESS;
    }

    /** Drops the field's cached values (a scheduled scan recreates them for list fields). */
    @POST
    @Path("{id}/discard_values")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> discardValues(@PathParam("id") PosInt id) {
        sync.fieldValues().discard(field(id).id);
        return SUCCESS;
    }

    private Field field(PosInt id) {
        return metadata.requireField(id.value());
    }
}
