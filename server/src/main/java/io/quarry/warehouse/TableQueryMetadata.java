package io.quarry.warehouse;

import io.quarry.core.Caller;
import io.quarry.permission.DataPermissions;
import io.quarry.web.error.Checks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the query builder needs about a table — the table, its database, its fields with FK targets — shared by
 * {@code GET /api/table/:id/query_metadata} and the query metadata of ad-hoc queries and cards.
 */
public final class TableQueryMetadata {
    private final DatabaseService databases;
    private final MetadataService metadata;
    private final DataPermissions dataPermissions;

    public TableQueryMetadata(DatabaseService databases, MetadataService metadata, DataPermissions dataPermissions) {
        this.databases = databases;
        this.metadata = metadata;
        this.dataPermissions = dataPermissions;
    }

    /**
     * The table's query metadata as {@code caller} may see it (403 without read rights on its database, 404 for a
     * missing table); {@code editableDataModel} is for superusers only.
     */
    public Map<String, Object> of(long tableId, Caller caller, boolean sensitive, boolean hidden, boolean editableDataModel) {
        Table table = metadata.requireTable(tableId);
        dataPermissions.requireRead(caller, table.dbId);
        if (editableDataModel) {
            Checks.permitted(caller.superuser());
        }
        List<Field> all = metadata.fieldsByTable(List.of(table.id)).get(table.id);
        MetadataService.Hydrator hydrator = metadata.hydrator(all);
        List<Map<String, Object>> fields = new ArrayList<>();
        for (Field f : MetadataViews.listed(all)) {
            if ("hidden".equals(f.visibilityType) && !hidden || "sensitive".equals(f.visibilityType) && !sensitive) {
                continue;
            }
            fields.add(hydrator.present(f, true));
        }
        Map<String, Object> view = MetadataViews.table(table, true);
        Database database = databases.require(table.dbId);
        Map<String, Object> db = DatabaseViews.view(database, databases.driverOf(database), caller);
        db.remove("details");
        view.put("db", db);
        view.put("fields", fields);
        view.put("segments", List.of());
        view.put("measures", List.of());
        view.put("metrics", List.of());
        return view;
    }
}
