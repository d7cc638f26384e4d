package io.quarry.warehouse;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.RecordsView;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import io.quarry.web.param.BoolStr;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/** {@code /api/table}: the tables sync found, as clients browse them, and what people edit on them. */
@Path("table")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class TableMetadataResource {
    private static final String IDS_MESSAGE = "sequence of value must be an integer greater than zero.";

    private final DatabaseService databases;
    private final MetadataService metadata;
    private final Caller caller;
    /** Data permissions: who may see which database. */
    private final io.quarry.permission.DataPermissions dataPermissions;
    private final TableQueryMetadata tableQueryMetadata;

    @Inject
    public TableMetadataResource(DatabaseService databases, MetadataService metadata, Caller caller,
                                 io.quarry.permission.DataPermissions dataPermissions, TableQueryMetadata tableQueryMetadata) {
        this.databases = databases;
        this.metadata = metadata;
        this.caller = caller;
        this.dataPermissions = dataPermissions;
        this.tableQueryMetadata = tableQueryMetadata;
    }

    /** Every active table, by name, each with its database. */
    @GET
    @Access(Access.Level.USER)
    public List<Map<String, Object>> list() {
        Map<Long, Map<String, Object>> dbViews = new HashMap<>();
        for (Database d : databases.list()) {
            dbViews.put(d.id, DatabaseViews.view(d, databases.driverOf(d), caller));
        }
        List<Table> tables = new ArrayList<>(metadata.tables(null, true));
        java.util.Set<Long> readable = dataPermissions.readableDatabases(caller);
        tables.removeIf(t -> readable != null && !readable.contains(t.dbId));
        tables.sort(Comparator.comparing((Table t) -> t.name).thenComparing(t -> t.id));
        List<Map<String, Object>> result = new ArrayList<>();
        for (Table t : tables) {
            Map<String, Object> view = MetadataViews.table(t, true);
            view.put("db", dbViews.get(t.dbId));
            result.add(view);
        }
        return result;
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    @RecordsView("table")
    public Map<String, Object> get(@PathParam("id") PosInt id,
                                   @QueryParam("include_editable_data_model") BoolStr includeEditableDataModel) {
        Table table = metadata.requireTable(id.value());
        dataPermissions.requireRead(caller, table.dbId);
        if (BoolStr.orDefault(includeEditableDataModel, false)) {
            Checks.permitted(caller.superuser());
        }
        Map<String, Object> view = MetadataViews.table(table, true);
        view.put("db", dbView(table.dbId, true));
        Long pk = null;
        for (Field f : metadata.fieldsByTable(List.of(table.id)).get(table.id)) {
            if (Types.isa(f.semanticType, "type/PK") && !"sensitive".equals(f.visibilityType) && !"retired".equals(f.visibilityType)) {
                pk = f.id;
                break;
            }
        }
        view.put("pk_field", pk);
        return view;
    }

    /** What the query builder needs about a table: the table, its database, its fields with FK targets. */
    @GET
    @Path("{id}/query_metadata")
    @Access(Access.Level.USER)
    public Map<String, Object> queryMetadata(@PathParam("id") PosInt id,
                                             @QueryParam("include_sensitive_fields") BoolStr includeSensitiveFields,
                                             @QueryParam("include_hidden_fields") BoolStr includeHiddenFields,
                                             @QueryParam("include_editable_data_model") BoolStr includeEditableDataModel) {
        return tableQueryMetadata.of(id.value(), caller, BoolStr.orDefault(includeSensitiveFields, false),
                BoolStr.orDefault(includeHiddenFields, false), BoolStr.orDefault(includeEditableDataModel, false));
    }

    /**
     * The foreign keys pointing at the table: for every active field (of an active table) whose target is a field of
     * this one, Metabase's {@code {"relationship":"Mt1", origin_id, origin, destination_id, destination}}, the origin
     * with its table and database, the destination with its table. Read rights on the table's database (403).
     */
    @GET
    @Path("{id}/fks")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> fks(@PathParam("id") PosInt id) {
        Table table = metadata.requireTable(id.value());
        dataPermissions.requireRead(caller, table.dbId);
        List<Field> origins = metadata.fieldsReferencing(table.id);
        if (origins.isEmpty()) {
            return List.of();
        }
        Map<Long, Field> destinations = new HashMap<>();
        metadata.fieldsByTable(List.of(table.id)).get(table.id).forEach(f -> destinations.put(f.id, f));
        Map<Long, Table> tables = new HashMap<>();
        metadata.tablesByIds(origins.stream().map(f -> f.tableId).toList()).forEach(t -> tables.put(t.id, t));
        Map<Long, Map<String, Object>> dbViews = new HashMap<>();
        Map<String, Object> destinationTable = MetadataViews.table(table, true);
        List<Map<String, Object>> result = new ArrayList<>();
        for (Field origin : origins) {
            Field destination = destinations.get(origin.fkTargetFieldId);
            Table originTable = tables.get(origin.tableId);
            Map<String, Object> originTableView = MetadataViews.table(originTable, true);
            originTableView.put("db", dbViews.computeIfAbsent(originTable.dbId, dbId -> dbView(dbId, false)));
            Map<String, Object> originView = MetadataViews.field(origin, false);
            originView.put("table", originTableView);
            Map<String, Object> destinationView = MetadataViews.field(destination, false);
            destinationView.put("table", destinationTable);
            Map<String, Object> fk = new LinkedHashMap<>();
            fk.put("relationship", "Mt1");
            fk.put("origin_id", origin.id);
            fk.put("origin", originView);
            fk.put("destination_id", destination.id);
            fk.put("destination", destinationView);
            result.add(fk);
        }
        return result;
    }

    /**
     * Metabase's related entities of a table ({@code xrays/related}): the tables its foreign keys point to
     * ({@code linking-to}), the tables pointing at it ({@code linked-from}), and up to five other tables of its schema
     * ({@code tables}), only active, visible tables the caller may read; Quarry has no segments or metrics to relate.
     */
    @GET
    @Path("{id}/related")
    @Access(Access.Level.USER)
    public Map<String, Object> related(@PathParam("id") PosInt id) {
        Table table = metadata.requireTable(id.value());
        dataPermissions.requireRead(caller, table.dbId);
        Set<Long> linkingTo = new LinkedHashSet<>();
        List<Field> own = metadata.fieldsByTable(List.of(table.id)).get(table.id);
        List<Long> targets = own.stream().filter(f -> f.active && MetadataService.isFk(f) && f.fkTargetFieldId != null)
                .map(f -> f.fkTargetFieldId).toList();
        metadata.fieldsByIds(targets).forEach(f -> linkingTo.add(f.tableId));
        Set<Long> linkedFrom = new LinkedHashSet<>();
        metadata.fieldsReferencing(table.id).forEach(f -> linkedFrom.add(f.tableId));
        linkingTo.remove(table.id);
        linkedFrom.remove(table.id);
        Set<Long> readable = dataPermissions.readableDatabases(caller);
        Predicate<Table> shown = t -> t.active && t.visibilityType == null
                && (readable == null || readable.contains(t.dbId));
        List<Map<String, Object>> sameSchema = new ArrayList<>();
        for (Table other : metadata.tables(table.dbId, true)) {
            if (sameSchema.size() == 5) {
                break;
            }
            if (!other.id.equals(table.id) && Objects.equals(other.schemaName, table.schemaName)
                    && !linkingTo.contains(other.id) && !linkedFrom.contains(other.id) && shown.test(other)) {
                sameSchema.add(MetadataViews.table(other, true));
            }
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("segments", List.of());
        result.put("metrics", List.of());
        result.put("linking-to", tableViews(linkingTo, shown));
        result.put("linked-from", tableViews(linkedFrom, shown));
        result.put("tables", sameSchema);
        return result;
    }

    private List<Map<String, Object>> tableViews(Collection<Long> ids, Predicate<Table> shown) {
        return metadata.tablesByIds(ids).stream().filter(shown)
                .sorted(Comparator.comparing((Table t) -> t.displayName == null ? t.name : t.displayName).thenComparing(t -> t.id))
                .map(t -> MetadataViews.table(t, true)).toList();
    }

    /**
     * Sets a custom order of the table's fields: the body is the bare array of field ids or
     * {@code {"field_order": [ids]}}; answers {@code {"success": true}}. Administrators (a 404 for an unknown table
     * first); ids that are not the table's fields are a 400 naming {@code field_order}.
     */
    @PUT
    @Path("{id}/fields/order")
    @Access(Access.Level.USER)
    public Map<String, Object> fieldOrder(@PathParam("id") PosInt id, JsonNode json) {
        Table table = metadata.requireTable(id.value());
        Checks.permitted(caller.superuser());
        JsonNode wrapped = json;
        if (json != null && json.isArray()) {
            wrapped = Json.object().set("field_order", json);
        }
        Body body = Body.of(wrapped);
        List<Long> order = body.posInts("field_order");
        body.throwIfInvalid();
        metadata.customFieldOrder(table, order);
        return Map.of("success", true);
    }

    @PUT
    @Path("{id}")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        Body body = Body.of(json).storedIn("metabase_table");
        MetadataService.TableChanges changes = MetadataService.tableChanges(body, true);
        body.throwIfInvalid();
        return view(metadata.updateTables(List.of(id.value()), changes).get(0));
    }

    /** Changes several tables at once (all or nothing). */
    @PUT
    @Access(Access.Level.SUPERUSER)
    public List<Map<String, Object>> updateMany(JsonNode json) {
        Body body = Body.of(json).storedIn("metabase_table");
        List<Long> ids = new ArrayList<>();
        JsonNode idsNode = body.get("ids");
        if (idsNode.isNull() || idsNode.isMissingNode()) {
            body.addError("ids", IDS_MESSAGE, "missing required key, received: nil");
        } else if (!idsNode.isArray()) {
            body.addError("ids", IDS_MESSAGE, "invalid type, received: " + idsNode);
        } else {
            for (JsonNode element : idsNode) {
                if (!element.isIntegralNumber() || !element.canConvertToLong() || element.asLong() <= 0) {
                    body.addError("ids", IDS_MESSAGE, "should be a positive int, received: " + element);
                    break;
                }
                ids.add(element.asLong());
            }
        }
        MetadataService.TableChanges changes = MetadataService.tableChanges(body, false);
        body.throwIfInvalid();
        return metadata.updateTables(ids, changes).stream().map(this::view).toList();
    }

    private Map<String, Object> view(MetadataService.UpdatedTable updated) {
        Map<String, Object> view = MetadataViews.table(updated.table(), false);
        if (updated.fields() != null) {
            List<Field> listed = MetadataViews.listed(updated.fields());
            MetadataService.Hydrator hydrator = metadata.hydrator(updated.fields());
            view.put("fields", listed.stream().map(f -> hydrator.present(f, false)).toList());
        }
        return view;
    }

    private Map<String, Object> dbView(long dbId, boolean withDetails) {
        Database database = databases.require(dbId);
        Map<String, Object> view = DatabaseViews.view(database, databases.driverOf(database), caller);
        if (!withDetails) {
            view.remove("details");
        }
        return view;
    }
}
