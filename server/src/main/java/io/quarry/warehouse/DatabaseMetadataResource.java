package io.quarry.warehouse;

import io.quarry.core.Caller;
import io.quarry.driver.ConnectionTester;
import io.quarry.driver.Feature;
import io.quarry.permission.DataPermissions;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.BoolStr;
import io.quarry.web.param.NonBlank;
import io.quarry.web.param.ParamRule;
import io.quarry.web.param.PosInt;
import io.quarry.web.param.Validation;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code /api/database}: everything a client reads to browse a database's metadata — the list and one database (with
 * tables and fields on request), schemas, tables of a schema, fields, SQL autocomplete, usage — and the "Saved
 * Questions" virtual database (id -1337). Adding, changing and deleting databases is {@link DatabaseResource}'s.
 */
@Path("database")
@Produces(MediaType.APPLICATION_JSON)
public final class DatabaseMetadataResource {
    private static final String VIRTUAL = "-1337";

    private final DatabaseService databases;
    private final MetadataService metadata;
    private final SavedQuestions savedQuestions;
    private final DatabaseUsage usage;
    private final Caller caller;
    /** Data permissions: who may see which database. */
    private final DataPermissions dataPermissions;

    @Inject
    public DatabaseMetadataResource(DatabaseService databases, MetadataService metadata, SavedQuestions savedQuestions,
                                    DatabaseUsage usage, Caller caller, DataPermissions dataPermissions) {
        this.dataPermissions = dataPermissions;
        this.databases = databases;
        this.metadata = metadata;
        this.savedQuestions = savedQuestions;
        this.usage = usage;
        this.caller = caller;
    }

    @GET
    @Access(Access.Level.USER)
    public Map<String, Object> list(@QueryParam("include") String include, @QueryParam("saved") BoolStr saved,
                                    @QueryParam("include_editable_data_model") BoolStr includeEditableDataModel,
                                    @QueryParam("exclude_uneditable_details") BoolStr excludeUneditableDetails,
                                    @QueryParam("include_only_uploadable") BoolStr includeOnlyUploadable,
                                    @QueryParam("include_analytics") BoolStr includeAnalytics) {
        if (include != null && !include.isEmpty() && !include.equals("tables")) {
            throw ApiException.withErrors(400, Map.of("include", "include must be either empty or the value 'tables'"),
                    Map.of("include", List.of("should be \"tables\", received: \"" + include + "\"")));
        }
        boolean withTables = "tables".equals(include);
        boolean onlyUploadable = BoolStr.orDefault(includeOnlyUploadable, false);
        boolean onlyEditable = onlyUploadable || BoolStr.orDefault(excludeUneditableDetails, false);
        List<Database> list = new ArrayList<>();
        boolean editableDataModel = BoolStr.orDefault(includeEditableDataModel, false);
        Map<Long, DataPermissions.Access> access = dataPermissions.accessAll(caller);
        for (Database d : databases.list()) {
            if (!caller.superuser() && !editableDataModel && !readable(access, d.id)) {
                continue; // Metabase lists the databases the caller may query
            }
            if (onlyEditable && !caller.superuser()) {
                continue; // only those whose details the caller may edit
            }
            if (onlyUploadable && !databases.driverOf(d).supports(Feature.UPLOADS)) {
                continue;
            }
            list.add(d);
        }
        Map<Long, List<Map<String, Object>>> tablesByDb = new HashMap<>();
        if (withTables && !list.isEmpty()) {
            for (Table t : metadata.tables(null, true)) {
                if (t.visibilityType == null) {
                    tablesByDb.computeIfAbsent(t.dbId, k -> new ArrayList<>()).add(MetadataViews.table(t, false));
                }
            }
        }
        List<Map<String, Object>> data = new ArrayList<>();
        for (Database d : list) {
            Map<String, Object> view = DatabaseViews.view(d, databases.driverOf(d), caller);
            if (withTables) {
                view.put("tables", tablesByDb.getOrDefault(d.id, List.of()));
            }
            if (!caller.superuser()) {
                if (!readable(access, d.id)) {
                    view = idNameTables(view); // include_editable_data_model: no data access, name and id only
                } else {
                    view.put("native_permissions", access.get(d.id).nativePermissions());
                }
            }
            data.add(view);
        }
        // saved=true adds the virtual database when the caller has a card that can be a source (Metabase's rule)
        if (BoolStr.orDefault(saved, false) && !onlyUploadable) {
            Map<String, Object> virtual = savedQuestions.listed(caller, withTables);
            if (virtual != null) {
                data.add(virtual);
            }
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("data", data);
        result.put("total", data.size());
        return result;
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> get(@PathParam("id") PosInt id, @QueryParam("include") String include,
                                   @QueryParam("include_editable_data_model") BoolStr includeEditableDataModel,
                                   @QueryParam("exclude_uneditable_details") BoolStr excludeUneditableDetails) {
        Validation.optEnum("include", include, "tables", "tables.fields");
        Database database = databases.require(id.value());
        if (BoolStr.orDefault(excludeUneditableDetails, false)) {
            Checks.permitted(caller.superuser()); // only those who may edit the details
        }
        DataPermissions.Access access = dataPermissions.access(caller, database.id);
        boolean reduced = !access.canRead() && BoolStr.orDefault(includeEditableDataModel, false);
        if (!reduced) {
            Checks.permitted(access.canRead());
        }
        Map<String, Object> view = DatabaseViews.view(database, databases.driverOf(database), caller);
        view.put("native_permissions", access.nativePermissions());
        if (include != null) {
            List<Table> tables = visibleTables(database.id);
            if (include.equals("tables")) {
                view.put("tables", tables.stream().map(t -> MetadataViews.table(t, true)).toList());
            } else {
                view.put("tables", tablesWithFields(tables, false, null));
            }
        }
        if (caller.superuser()) {
            view.put("can-manage", true);
        }
        return reduced ? idNameTables(view) : view;
    }

    private static boolean readable(Map<Long, DataPermissions.Access> access, long dbId) {
        DataPermissions.Access a = access.get(dbId);
        return a != null && a.canRead();
    }

    /** What a caller without data access sees of a database (Metabase: name, id and tables). */
    private static Map<String, Object> idNameTables(Map<String, Object> view) {
        Map<String, Object> reduced = new LinkedHashMap<>();
        reduced.put("id", view.get("id"));
        reduced.put("name", view.get("name"));
        if (view.containsKey("tables")) {
            reduced.put("tables", view.get("tables"));
        }
        return reduced;
    }

    /** The database, 404 when there is none, 403 when the caller may not see its data. */
    private Database readable(long id) {
        Database database = databases.require(id);
        dataPermissions.requireRead(caller, database.id);
        return database;
    }

    /** Active tables that are not hidden, by display name (what Metabase hydrates as a database's tables). */
    private List<Table> visibleTables(long dbId) {
        List<Table> tables = new ArrayList<>(metadata.tables(dbId, true).stream().filter(t -> t.visibilityType == null).toList());
        tables.sort(MetadataViews.TABLE_ORDER);
        return tables;
    }

    /**
     * Tables with their listed fields (sensitive ones left out unless asked), loaded with one query; with each field's
     * cached {@code values} when {@code values} is given.
     */
    private List<Map<String, Object>> tablesWithFields(List<Table> tables, boolean includeSensitive,
                                                       Map<Long, List<List<Object>>> values) {
        Map<Long, List<Field>> fields = metadata.fieldsByTable(tables.stream().map(t -> t.id).toList());
        List<Field> all = fields.values().stream().flatMap(List::stream).toList();
        MetadataService.Hydrator hydrator = metadata.hydrator(all);
        List<Map<String, Object>> result = new ArrayList<>();
        for (Table t : tables) {
            Map<String, Object> view = MetadataViews.table(t, true);
            List<Map<String, Object>> fieldViews = new ArrayList<>();
            for (Field f : MetadataViews.listed(fields.get(t.id))) {
                if (includeSensitive || !"sensitive".equals(f.visibilityType)) {
                    Map<String, Object> fieldView = hydrator.present(f, false);
                    if (values != null) {
                        fieldView.put("values", values.getOrDefault(f.id, List.of()));
                    }
                    fieldViews.add(fieldView);
                }
            }
            view.put("fields", fieldViews);
            result.add(view);
        }
        return result;
    }

    /**
     * Whether Quarry can reach the database now: always 200, {@code {"status":"ok"}} or {@code {"status":"error",
     * "message", "errors"?}} with the connection test's reason, as Metabase answers. A 404 for an unknown id first; then
     * read rights on the database (403), which Metabase does not ask but Quarry asks of every database endpoint.
     */
    @GET
    @Path("{id}/healthcheck")
    @Access(Access.Level.USER)
    public Map<String, Object> healthcheck(@PathParam("id") PosInt id) {
        Database database = databases.require(id.value());
        dataPermissions.requireRead(caller, database.id);
        ConnectionTester.Failure failure = databases.testConnection(database.engine, database.details);
        Map<String, Object> result = new LinkedHashMap<>();
        if (failure == null) {
            result.put("status", "ok");
            return result;
        }
        result.put("status", "error");
        result.put("message", failure.message());
        if (failure.errors() != null && !failure.errors().isEmpty()) {
            result.put("errors", failure.errors());
        }
        return result;
    }

    @GET
    @Path("{id}/metadata")
    @Access(Access.Level.USER)
    public Map<String, Object> metadata(@PathParam("id") PosInt id, @QueryParam("include_hidden") BoolStr includeHidden,
                                        @QueryParam("include_editable_data_model") BoolStr includeEditableDataModel,
                                        @QueryParam("remove_inactive") BoolStr removeInactive,
                                        @QueryParam("skip_fields") BoolStr skipFields) {
        Database database = readable(id.value());
        boolean hidden = BoolStr.orDefault(includeHidden, false);
        List<Table> tables = new ArrayList<>(metadata.tables(database.id, true));
        if (!hidden) {
            tables.removeIf(t -> t.visibilityType != null);
        }
        tables.sort(MetadataViews.TABLE_ORDER);
        List<Map<String, Object>> tableViews;
        if (BoolStr.orDefault(skipFields, false)) {
            tableViews = new ArrayList<>();
            for (Table t : tables) {
                Map<String, Object> view = MetadataViews.table(t, true);
                view.put("fields", List.of());
                tableViews.add(view);
            }
        } else {
            tableViews = tablesWithFields(tables, hidden, metadata.fieldValuesOfDatabase(database.id));
        }
        for (Map<String, Object> view : tableViews) {
            view.put("segments", List.of());
            view.put("metrics", List.of());
        }
        Map<String, Object> view = DatabaseViews.view(database, databases.driverOf(database), caller);
        view.put("native_permissions", dataPermissions.access(caller, database.id).nativePermissions());
        view.put("tables", tableViews);
        return view;
    }

    @GET
    @Path("{id}/autocomplete_suggestions")
    @Access(Access.Level.USER)
    public Response autocomplete(@PathParam("id") PosInt id, @QueryParam("prefix") NonBlank prefix,
                                 @QueryParam("substring") NonBlank substring) {
        readable(id.value());
        if (prefix == null && substring == null) {
            throw ApiException.badRequest("Must include prefix or search");
        }
        List<List<String>> suggestions = substring != null
                ? metadata.autocomplete(id.value(), substring.value(), true)
                : metadata.autocomplete(id.value(), prefix.value(), false);
        // Someone typing repeats the same prefixes: let the browser keep the answer for a minute (per user).
        return Response.ok(suggestions).header("Cache-Control", "public, max-age=60").header("Vary", "Cookie").build();
    }

    @GET
    @Path("{id}/card_autocomplete_suggestions")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> cardAutocomplete(@PathParam("id") PosInt id, @QueryParam("query") String query,
                                                      @QueryParam("include_dashboard_questions") BoolStr includeDashboardQuestions) {
        // a required parameter: its error does not say "nullable"
        Validation.required("query", query, ParamRule.NON_BLANK);
        if (query.isBlank()) {
            throw Validation.invalid("query", ParamRule.NON_BLANK, false, query);
        }
        readable(id.value());
        return savedQuestions.cardAutocomplete(caller, id.value(), query);
    }

    @GET
    @Path("{id}/fields")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> fields(@PathParam("id") PosInt id) {
        readable(id.value());
        Map<Long, Table> tables = new HashMap<>();
        metadata.tables(id.value(), false).forEach(t -> tables.put(t.id, t));
        List<Field> fields = new ArrayList<>(metadata.fieldsOfDatabase(id.value()));
        fields.sort(Comparator.comparing(f -> f.id));
        List<Map<String, Object>> result = new ArrayList<>();
        for (Field f : fields) {
            if ("sensitive".equals(f.visibilityType) || "retired".equals(f.visibilityType)) {
                continue;
            }
            Table t = tables.get(f.tableId);
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("id", f.id);
            v.put("name", f.name);
            v.put("display_name", f.displayName);
            v.put("base_type", f.baseType);
            v.put("semantic_type", f.semanticType);
            v.put("table_name", t.name);
            v.put("table_id", f.tableId);
            v.put("schema", t.schemaName);
            result.add(v);
        }
        return result;
    }

    @GET
    @Path("{id}/idfields")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> idFields(@PathParam("id") PosInt id,
                                              @QueryParam("include_editable_data_model") BoolStr includeEditableDataModel) {
        readable(id.value());
        if (BoolStr.orDefault(includeEditableDataModel, false) && !caller.superuser()) {
            return List.of(); // only the fields the caller may edit
        }
        List<Field> pks = metadata.pkFields(id.value());
        Map<Long, Table> tables = new HashMap<>();
        metadata.tablesByIds(pks.stream().map(f -> f.tableId).toList()).forEach(t -> tables.put(t.id, t));
        List<Field> sorted = new ArrayList<>(pks);
        sorted.sort(Comparator.comparing(f -> tables.get(f.tableId).name.toLowerCase(Locale.ROOT)));
        List<Map<String, Object>> result = new ArrayList<>();
        for (Field f : sorted) {
            Map<String, Object> v = MetadataViews.field(f, false);
            v.put("table", MetadataViews.table(tables.get(f.tableId), false));
            result.add(v);
        }
        return result;
    }

    @GET
    @Path("{id}/schemas")
    @Access(Access.Level.USER)
    public List<String> schemas(@PathParam("id") PosInt id, @QueryParam("include_editable_data_model") BoolStr includeEditableDataModel,
                                @QueryParam("include_hidden") BoolStr includeHidden) {
        readable(id.value());
        boolean hidden = BoolStr.orDefault(includeHidden, false);
        TreeSet<String> schemas = new TreeSet<>();
        for (Table t : metadata.tables(id.value(), true)) {
            if (hidden || t.visibilityType == null) {
                schemas.add(t.schemaName == null ? "" : t.schemaName);
            }
        }
        return new ArrayList<>(schemas);
    }

    /** Tables whose schema is null or empty ({@code GET /api/database/:id/schema/}); 404 when there are none. */
    @GET
    @Path("{id}/schema")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> schemalessTables(@PathParam("id") PosInt id, @QueryParam("include_hidden") BoolStr includeHidden,
                                                      @QueryParam("include_editable_data_model") BoolStr includeEditableDataModel) {
        return schemaTables(id, null, includeHidden);
    }

    @GET
    @Path("{id}/schema/{schema}")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> schemaTables(@PathParam("id") PosInt id, @PathParam("schema") String schema,
                                                  @QueryParam("include_hidden") BoolStr includeHidden,
                                                  @QueryParam("include_editable_data_model") BoolStr includeEditableDataModel) {
        return schemaTables(id, schema, includeHidden);
    }

    private List<Map<String, Object>> schemaTables(PosInt id, String schema, BoolStr includeHidden) {
        readable(id.value());
        boolean hidden = BoolStr.orDefault(includeHidden, false);
        List<Table> matched = new ArrayList<>();
        List<Table> emptySchema = new ArrayList<>();
        for (Table t : metadata.tables(id.value(), true)) {
            if (!hidden && t.visibilityType != null) {
                continue;
            }
            if (schema != null ? schema.equals(t.schemaName) : t.schemaName == null) {
                matched.add(t);
            } else if (schema == null && t.schemaName.isEmpty()) {
                emptySchema.add(t);
            }
        }
        Comparator<Table> byDisplayName = Comparator.comparing((Table t) -> t.displayName == null ? "" : t.displayName)
                .thenComparing(t -> t.id);
        matched.sort(byDisplayName);
        emptySchema.sort(byDisplayName);
        matched.addAll(emptySchema);
        List<Map<String, Object>> result = matched.stream().map(t -> MetadataViews.table(t, false)).toList();
        return Checks.found(result.isEmpty() ? null : result);
    }

    @GET
    @Path("{id}/usage_info")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Long> usageInfo(@PathParam("id") PosInt id) {
        readable(id.value());
        return usage.usage(id.value());
    }

    // --- the Saved Questions virtual database ---------------------------------------------------------------------------

    @GET
    @Path(VIRTUAL + "/metadata")
    @Access(Access.Level.USER)
    public Map<String, Object> virtualMetadata() {
        return savedQuestions.database(caller, true, true);
    }

    @GET
    @Path(VIRTUAL + "/schemas")
    @Access(Access.Level.USER)
    public List<String> virtualSchemas() {
        return savedQuestions.schemas(caller, "question");
    }

    // the spec's GET /api/database/:id/datasets (and /datasets/:schema): {id} matches the virtual database's id only
    @GET
    @Path("{id: " + VIRTUAL + "}/datasets")
    @Access(Access.Level.USER)
    public List<String> virtualDatasets(@PathParam("id") String virtualId) {
        return savedQuestions.schemas(caller, "model");
    }

    @GET
    @Path(VIRTUAL + "/schema/{schema}")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> virtualSchemaTables(@PathParam("schema") String schema) {
        return savedQuestions.tablesOfSchema(caller, "question", schema);
    }

    @GET
    @Path("{id: " + VIRTUAL + "}/datasets/{schema}")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> virtualDatasetTables(@PathParam("id") String virtualId, @PathParam("schema") String schema) {
        return savedQuestions.tablesOfSchema(caller, "model", schema);
    }
}
