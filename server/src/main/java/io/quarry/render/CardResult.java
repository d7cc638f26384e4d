package io.quarry.render;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import io.quarry.qp.run.QueryOutcome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A card's query result, read whole from the runner's answer, for rendering: the rows and columns, or the failure.
 * The runner streams API answers; a rendering needs all of it (within the API's row limits) before it can draw.
 *
 * @param data     the result's columns and rows; null when the query failed
 * @param rowCount the result's {@code row_count}
 * @param error    the failure's message; null when the query ran
 * @param status   the HTTP status of the failure (403 without data rights, 4xx for bad queries); 202 when the query ran
 */
public record CardResult(Tabular data, long rowCount, String error, int status) {

    public boolean failed() {
        return data == null;
    }

    /** The runner's answer to a saved card's query (an API answer: JSON result object, or a failure). */
    public static CardResult of(QueryOutcome outcome) {
        if (outcome instanceof QueryOutcome.Failed failed) {
            return new CardResult(null, 0, failed.failure().getMessage(), failed.status());
        }
        QueryOutcome.Streamed streamed = (QueryOutcome.Streamed) outcome;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try {
            streamed.body().writeTo(buffer);
        } catch (QueryOutcome.FailedBeforeOutput e) {
            return new CardResult(null, 0, e.failed().failure().getMessage(), e.failed().status());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JsonNode result;
        try {
            // a slow query's answer starts with keep-alive newlines, which JSON allows
            result = Json.MAPPER.readTree(buffer.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if ("failed".equals(result.path("status").asText())) {
            // a failure after the answer started is written as its body (status 202, as Metabase)
            return new CardResult(null, 0, result.path("error").asText("Query failed"), 400);
        }
        Tabular data = Tabular.fromResultData(result.path("data"));
        long rowCount = result.path("row_count").canConvertToLong() ? result.path("row_count").asLong() : data.rows().size();
        return new CardResult(new Tabular(data.cols(), data.rows(), Math.max(rowCount, data.rows().size())), rowCount, null,
                streamed.status());
    }
}
