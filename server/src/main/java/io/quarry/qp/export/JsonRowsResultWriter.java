package io.quarry.qp.export;

import com.fasterxml.jackson.core.JsonGenerator;
import io.quarry.qp.Column;
import io.quarry.qp.ResultWriter;
import io.quarry.core.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * JSON downloads: an array with one object per row, keyed by column display name ({@code [{"ID": 1, "Name": "Ada"}]}).
 * Unformatted, numbers and booleans stay JSON numbers and booleans and every other value is its download text;
 * formatted ({@code format_rows}), every value is a string as the UI shows it. When two columns share a title the last
 * one is kept, as in Metabase (its rows are maps).
 */
public final class JsonRowsResultWriter implements ResultWriter {
    private final JsonGenerator json;
    private final boolean formatRows;
    private ExportValues.Renderer[] renderers;
    private String[] titles;
    private boolean[] shadowed;
    private boolean first = true;

    public JsonRowsResultWriter(OutputStream out, boolean formatRows) throws IOException {
        this.json = Json.MAPPER.getFactory().createGenerator(out);
        this.json.setRootValueSeparator(null);
        this.formatRows = formatRows;
    }

    @Override
    public void begin(List<Column> columns) throws IOException {
        int count = columns.size();
        renderers = new ExportValues.Renderer[count];
        titles = new String[count];
        shadowed = new boolean[count];
        Set<String> seen = new HashSet<>();
        for (int i = count - 1; i >= 0; i--) {
            Column column = columns.get(i);
            titles[i] = column.displayName() != null ? column.displayName() : column.name();
            shadowed[i] = !seen.add(titles[i]);
            renderers[i] = ExportValues.renderer(column, formatRows);
        }
        json.writeRaw("[\n");
    }

    @Override
    public void row(Object[] values) throws IOException {
        if (!first) {
            json.writeRaw(",\n");
        }
        first = false;
        json.writeStartObject();
        for (int i = 0; i < values.length; i++) {
            if (shadowed[i]) {
                continue;
            }
            json.writeFieldName(titles[i]);
            Object value = values[i];
            if (value == null) {
                json.writeNull();
            } else if (formatRows) {
                json.writeString(renderers[i].text(value));
            } else if (value instanceof Long l) {
                json.writeNumber(l);
            } else if (value instanceof Integer n) {
                json.writeNumber(n);
            } else if (value instanceof Double d) {
                json.writeNumber(d);
            } else if (value instanceof BigDecimal d) {
                json.writeNumber(d);
            } else if (value instanceof BigInteger n) {
                json.writeNumber(n);
            } else if (value instanceof Boolean b) {
                json.writeBoolean(b);
            } else if (value instanceof Float f) {
                json.writeNumber(f);
            } else if (value instanceof Short || value instanceof Byte) {
                json.writeNumber(((Number) value).intValue());
            } else {
                json.writeString(renderers[i].text(value));
            }
        }
        json.writeEndObject();
    }

    @Override
    public void end(Summary summary) throws IOException {
        json.writeRaw(first ? "]" : "\n]");
        json.flush();
    }
}
