package io.quarry.qp.mbql;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.TestServer;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import io.quarry.warehouse.WarehouseMapper;
import java.util.ArrayList;
import java.util.List;

/** Ids of a connected database's tables and fields as a running Quarry's sync numbered them. */
record ServerIds(List<Table> tables, List<Field> fields) implements KeyQueries.Ids {
    static ServerIds of(TestServer server, long dbId) {
        return new ServerIds(server.quarry().db.with(WarehouseMapper.class, m -> m.listTables(dbId, true)),
                server.quarry().db.with(WarehouseMapper.class, m -> m.listFieldsOfDatabase(dbId)));
    }

    @Override
    public long table(String table) {
        return tables.stream().filter(t -> t.name.equalsIgnoreCase(table)).findFirst().orElseThrow().id;
    }

    @Override
    public long field(String table, String column) {
        long tableId = table(table);
        return fields.stream().filter(f -> f.tableId == tableId && f.name.equalsIgnoreCase(column)).findFirst().orElseThrow().id;
    }

    /** The rows of an API result, normalised as {@link KeyQueries#normalize} does. */
    static List<List<Object>> rows(JsonNode result) {
        List<List<Object>> rows = new ArrayList<>();
        for (JsonNode row : result.get("data").get("rows")) {
            List<Object> values = new ArrayList<>();
            for (JsonNode value : row) {
                if (value.isNumber()) {
                    values.add(KeyQueries.normalize(value.decimalValue()));
                } else if (value.isNull()) {
                    values.add(null);
                } else {
                    String text = value.asText();
                    if (text.matches("\\d{4}-\\d{2}-\\d{2}T.*")) {
                        values.add(KeyQueries.normalize(java.time.OffsetDateTime.parse(text).toLocalDateTime()));
                    } else {
                        values.add(text);
                    }
                }
            }
            rows.add(values);
        }
        return rows;
    }
}
