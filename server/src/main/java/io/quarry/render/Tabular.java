package io.quarry.render;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A query result as the renderer takes it: the API result's {@code data.cols} and {@code data.rows}. Values are plain
 * Java objects: {@link Number} ({@link Long} for integral JSON numbers, {@link BigDecimal} otherwise), {@link String},
 * {@link Boolean} or null; temporal values stay the ISO strings the API sends.
 *
 * @param rows     the rows; one shorter than {@code cols} is padded with nulls
 * @param rowCount how many rows the query returned; may exceed {@code rows.size()} when the rows were cut
 */
public record Tabular(List<Column> cols, List<List<Object>> rows, long rowCount) {
    public Tabular {
        cols = List.copyOf(Objects.requireNonNull(cols, "cols is null"));
        List<List<Object>> copied = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            List<Object> values = new ArrayList<>(row);
            // a short row is padded with nulls, so that every column has a value in every row
            while (values.size() < cols.size()) {
                values.add(null);
            }
            copied.add(Collections.unmodifiableList(values));
        }
        rows = Collections.unmodifiableList(copied);
    }

    /** A result column: its name, label and Metabase types (semantic type may be null). */
    public record Column(String name, String displayName, String baseType, String semanticType) {
        /** The column's label: its display name, else its name. */
        public String label() {
            return displayName != null && !displayName.isBlank() ? displayName : name;
        }

        public boolean numeric() {
            return ColumnTypes.numeric(this);
        }

        public boolean temporal() {
            return ColumnTypes.temporal(this);
        }
    }

    /** From the {@code data} object of a query result as the API returns it ({cols:[...], rows:[[...]]}). */
    public static Tabular fromResultData(JsonNode data) {
        List<Column> cols = new ArrayList<>();
        for (JsonNode col : data.path("cols")) {
            cols.add(new Column(text(col, "name"), text(col, "display_name"), text(col, "base_type"), text(col, "semantic_type")));
        }
        List<List<Object>> rows = new ArrayList<>();
        for (JsonNode row : data.path("rows")) {
            List<Object> values = new ArrayList<>(row.size());
            for (JsonNode value : row) {
                values.add(value(value));
            }
            rows.add(values);
        }
        return new Tabular(cols, rows, rows.size());
    }

    /** The index of the column with this name, or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < cols.size(); i++) {
            if (cols.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Object value(JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return null;
        }
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            return value.longValue();
        }
        if (value.isNumber()) {
            return value.decimalValue();
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        if (value.isTextual()) {
            return value.textValue();
        }
        // arrays and objects (JSON columns) are shown as their JSON text
        return value.toString();
    }
}
