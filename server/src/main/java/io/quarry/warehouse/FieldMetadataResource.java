package io.quarry.warehouse;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.permission.DataPermissions;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import io.quarry.web.param.BoolStr;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/** {@code /api/field/:id}: one field with its table and FK target, and what people edit on it. */
@Path("field")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class FieldMetadataResource {
    private final DatabaseService databases;
    private final MetadataService metadata;
    private final Caller caller;
    /** Data permissions: who may see which database. */
    private final DataPermissions dataPermissions;

    @Inject
    public FieldMetadataResource(DatabaseService databases, MetadataService metadata, Caller caller,
                                 DataPermissions dataPermissions) {
        this.databases = databases;
        this.metadata = metadata;
        this.caller = caller;
        this.dataPermissions = dataPermissions;
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> get(@PathParam("id") PosInt id,
                                   @QueryParam("include_editable_data_model") BoolStr includeEditableDataModel) {
        Field field = metadata.requireField(id.value());
        if (BoolStr.orDefault(includeEditableDataModel, false)) {
            Checks.permitted(caller.superuser());
        }
        Table table = metadata.requireTable(field.tableId);
        dataPermissions.requireRead(caller, table.dbId);
        List<Field> siblings = metadata.fieldsByTable(List.of(table.id)).get(table.id);
        Map<String, Object> view = metadata.hydrator(siblings).present(field, true);
        Map<String, Object> tableView = MetadataViews.table(table, false);
        Database database = databases.require(table.dbId);
        tableView.put("db", DatabaseViews.view(database, databases.driverOf(database), caller));
        view.put("table", tableView);
        return view;
    }

    @PUT
    @Path("{id}")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        Field updated = metadata.updateField(id.value(), Body.of(json).storedIn("metabase_field"));
        return metadata.hydrator(List.of(updated)).present(updated, false);
    }
}
