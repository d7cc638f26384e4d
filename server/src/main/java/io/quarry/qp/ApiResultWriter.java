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
import java.time.format.DateTimeFormatter;
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
    private static final DateTimeFormatter ISO = DateTimeFormatter.ISO_OFFSET_DATE_TIME;

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
            json.writeObject(column.toJson());
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
        json.writeObject(render(value, envelope.jsIntToString()));
    }

    /**
     * A value as this format shows it: date-times as UTC ISO strings, big integers as strings when asked. Also what the
     * result cache stores, so that a cached result reads exactly like a fresh one.
     */
    public static Object render(Object value, boolean jsIntToString) {
        if (value instanceof LocalDateTime t) {
            return ISO.format(t.atOffset(ZoneOffset.UTC));
        }
        if (value instanceof LocalDate d) {
            return ISO.format(d.atStartOfDay().atOffset(ZoneOffset.UTC));
        }
        if (value instanceof OffsetDateTime t) {
            return ISO.format(t.withOffsetSameInstant(ZoneOffset.UTC));
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
        json.writeObject(Map.of("query", envelope.nativeSql(), "params", envelope.nativeParams().isEmpty() ? List.of() :
                envelope.nativeParams().stream().map(String::valueOf).toList()));
        json.writeStringField("results_timezone", "UTC");
        json.writeFieldName("results_metadata");
        json.writeStartObject();
        json.writeFieldName("columns");
        json.writeStartArray();
        for (Column column : columns) {
            json.writeObject(column.toJson());
        }
        json.writeEndArray();
        json.writeEndObject();
        json.writeNullField("insights");
        if (summary.truncated()) {
            json.writeNumberField("rows_truncated", summary.rowLimit());
        }
        json.writeEndObject();
        json.writeNumberField("database_id", envelope.databaseId());
        json.writeStringField("started_at", ISO.format(envelope.startedAt().truncatedTo(ChronoUnit.MILLIS)));
        json.writeFieldName("json_query");
        json.writeObject(envelope.jsonQuery());
        json.writeNullField("average_execution_time");
        json.writeStringField("status", "completed");
        json.writeStringField("context", envelope.context());
        json.writeNumberField("row_count", summary.rowCount());
        json.writeNumberField("running_time", summary.runningTimeMillis());
        for (Map.Entry<String, Object> entry : envelope.extra().entrySet()) {
            json.writeObjectField(entry.getKey(), entry.getValue());
        }
        json.writeEndObject();
        json.flush();
    }
}
