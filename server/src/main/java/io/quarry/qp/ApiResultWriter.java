package io.quarry.qp;

import com.fasterxml.jackson.core.JsonGenerator;
import io.quarry.core.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * The API's result format ({@code POST /api/dataset}, card queries): Metabase's JSON object, written as the rows arrive —
 * {@code data.cols} first, then {@code data.rows}, then everything known only at the end ({@code row_count},
 * {@code running_time}). Date-times are reported in UTC (the results time zone) as Metabase does; integers beyond
 * JavaScript's safe range become strings when the request asked for it ({@code js-int-to-string?}).
 */
public final class ApiResultWriter implements ResultWriter {
    private static final long JS_SAFE = 9_007_199_254_740_991L;

    /** What the response says about the query besides its rows. */
    public record Envelope(long databaseId, String context, OffsetDateTime startedAt, Object jsonQuery, String nativeSql,
                           List<Object> nativeParams, boolean jsIntToString, Map<String, Object> extra) {
        public Envelope(long databaseId, String context, OffsetDateTime startedAt, Object jsonQuery, String nativeSql,
                        List<Object> nativeParams, boolean jsIntToString) {
            this(databaseId, context, startedAt, jsonQuery, nativeSql, nativeParams, jsIntToString, Map.of());
        }
    }

    private final JsonGenerator json;
    private final Envelope envelope;
    private List<Column> columns;

    public ApiResultWriter(OutputStream out, Envelope envelope) throws IOException {
        this.json = Json.MAPPER.getFactory().createGenerator(out);
        // end() closes the generator so that its buffers go back to Jackson's per-thread pool (not the response stream)
        this.json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        this.envelope = envelope;
    }

    @Override
    public void begin(List<Column> columns) throws IOException {
        this.columns = columns;
        json.writeStartObject();
        json.writeFieldName("data");
        json.writeStartObject();
        json.writeFieldName("cols");
        json.writeStartArray();
        for (Column column : columns) {
            writeColumn(column);
        }
        json.writeEndArray();
        json.writeFieldName("rows");
        json.writeStartArray();
    }

    @Override
    public void row(Object[] values) throws IOException {
        json.writeStartArray();
        for (Object value : values) {
            writeValue(value);
        }
        json.writeEndArray();
    }

    private void writeValue(Object value) throws IOException {
        writeAny(render(value, envelope.jsIntToString()));
    }

    /** {@link Column#toJson()}, written field by field (the same keys in the same order) instead of as a new map. */
    private void writeColumn(Column column) throws IOException {
        for (String key : column.extra().keySet()) {
            if (Column.BASE_KEYS.contains(key)) { // an extra key that replaces a base one: the map's own order
                writeAny(column.toJson());
                return;
            }
        }
        json.writeStartObject();
        json.writeFieldName("name");
        json.writeString(column.name());
        json.writeFieldName("display_name");
        json.writeString(column.displayName());
        json.writeFieldName("base_type");
        json.writeString(column.baseType());
        json.writeFieldName("effective_type");
        json.writeString(column.effectiveType());
        json.writeFieldName("semantic_type");
        json.writeString(column.semanticType());
        json.writeFieldName("field_ref");
        writeAny(column.fieldRef());
        json.writeFieldName("source");
        json.writeString(column.source());
        if (column.id() != null) {
            json.writeNumberField("id", column.id());
        }
        if (column.tableId() != null) {
            json.writeNumberField("table_id", column.tableId());
        }
        json.writeFieldName("database_type");
        json.writeString(column.databaseType());
        for (Map.Entry<String, Object> entry : column.extra().entrySet()) {
            json.writeFieldName(entry.getKey());
            writeAny(entry.getValue());
        }
        json.writeEndObject();
    }

    /**
     * A value as {@code Json.MAPPER} writes it: the plain JSON types (maps with text keys, lists, text, numbers,
     * booleans, null) directly on the generator, anything else through the mapper. Asking the mapper for every value
     * costs a serializer lookup and a provider each time, which a result of many cells multiplies.
     */
    private void writeAny(Object value) throws IOException {
        if (value == null) {
            json.writeNull();
        } else if (value instanceof String text) {
            json.writeString(text);
        } else if (value instanceof Long n) {
            json.writeNumber(n);
        } else if (value instanceof Integer n) {
            json.writeNumber(n);
        } else if (value instanceof Boolean b) {
            json.writeBoolean(b);
        } else if (value instanceof Double n) {
            json.writeNumber(n);
        } else if (value instanceof BigDecimal n) {
            json.writeNumber(n);
        } else if (value instanceof List<?> list) {
            json.writeStartArray();
            for (Object item : list) {
                writeAny(item);
            }
            json.writeEndArray();
        } else if (value instanceof Map<?, ?> map && textKeys(map)) {
            json.writeStartObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                json.writeFieldName((String) entry.getKey());
                writeAny(entry.getValue());
            }
            json.writeEndObject();
        } else {
            json.writeObject(value);
        }
    }

    private static boolean textKeys(Map<?, ?> map) {
        for (Object key : map.keySet()) {
            if (!(key instanceof String)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A value as this format shows it: date-times as UTC ISO strings, big integers as strings when asked. Also what the
     * result cache stores, so that a cached result reads exactly like a fresh one.
     */
    public static Object render(Object value, boolean jsIntToString) {
        if (value instanceof LocalDateTime t) {
            return IsoTimes.format(t.atOffset(ZoneOffset.UTC));
        }
        if (value instanceof LocalDate d) {
            return IsoTimes.format(d.atStartOfDay().atOffset(ZoneOffset.UTC));
        }
        if (value instanceof OffsetDateTime t) {
            return IsoTimes.format(t.withOffsetSameInstant(ZoneOffset.UTC));
        }
        if (value instanceof java.time.LocalTime || value instanceof java.time.OffsetTime) {
            return value.toString();
        }
        if (jsIntToString && (value instanceof Long || value instanceof BigInteger || value instanceof BigDecimal)
                && beyondJavaScript((Number) value)) {
            return value.toString();
        }
        return value;
    }

    private static boolean beyondJavaScript(Number n) {
        if (n instanceof Long l) {
            return Math.abs(l) > JS_SAFE;
        }
        BigDecimal d = n instanceof BigInteger b ? new BigDecimal(b) : (BigDecimal) n;
        return d.scale() <= 0 && d.abs().compareTo(BigDecimal.valueOf(JS_SAFE)) > 0;
    }

    @Override
    public void end(Summary summary) throws IOException {
        json.writeEndArray();
        json.writeFieldName("native_form");
        json.writeStartObject();
        json.writeFieldName("query");
        json.writeString(envelope.nativeSql());
        json.writeFieldName("params");
        json.writeStartArray();
        for (Object param : envelope.nativeParams()) {
            json.writeString(String.valueOf(param));
        }
        json.writeEndArray();
        json.writeEndObject();
        json.writeStringField("results_timezone", "UTC");
        json.writeFieldName("results_metadata");
        json.writeStartObject();
        json.writeFieldName("columns");
        json.writeStartArray();
        for (Column column : columns) {
            writeColumn(column);
        }
        json.writeEndArray();
        json.writeEndObject();
        json.writeNullField("insights");
        if (summary.truncated()) {
            json.writeNumberField("rows_truncated", summary.rowLimit());
        }
        json.writeEndObject();
        json.writeNumberField("database_id", envelope.databaseId());
        json.writeStringField("started_at", IsoTimes.format(envelope.startedAt().truncatedTo(ChronoUnit.MILLIS)));
        // the table grid's answer has neither its query, its context nor an average time (Metabase drops them)
        boolean tableGrid = io.quarry.qp.run.QueryContext.TABLE_GRID.key.equals(envelope.context());
        if (!tableGrid) {
            json.writeFieldName("json_query");
            writeAny(envelope.jsonQuery());
            json.writeNullField("average_execution_time");
        }
        json.writeStringField("status", "completed");
        if (!tableGrid) {
            json.writeStringField("context", envelope.context());
        }
        json.writeNumberField("row_count", summary.rowCount());
        json.writeNumberField("running_time", summary.runningTimeMillis());
        for (Map.Entry<String, Object> entry : envelope.extra().entrySet()) {
            json.writeFieldName(entry.getKey());
            writeAny(entry.getValue());
        }
        json.writeEndObject();
        json.close();
    }
}
