package io.quarry.qp.export;

import io.quarry.qp.ApiResultWriter;
import io.quarry.qp.QueryExecutor;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.QueryProcessor;
import io.quarry.qp.QueryResponses;
import io.quarry.qp.ResultWriter;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an executed query into a download response: the writer of the format, streaming rows from the open cursor
 * straight into the response, with Metabase's headers ({@code Content-Disposition: attachment;
 * filename="query_result_<timestamp>.csv"}, no caching, {@code X-Accel-Buffering: no} so that proxies pass rows on as
 * they come). Ad-hoc downloads and card downloads both answer through here.
 */
public final class Exports {
    private static final Logger log = LoggerFactory.getLogger(Exports.class);
    private static final DateTimeFormatter FILE_TIMESTAMP = DateTimeFormatter.ISO_OFFSET_DATE_TIME;

    private Exports() {
    }

    /**
     * The response for an executed query. {@code jsonQuery} is echoed by the {@code api} format; {@code filenamePrefix}
     * is {@code query_result} for ad-hoc queries.
     */
    public static Response respond(ExportFormat format, ExportRequest.Options options, QueryProcessor.Prepared prepared,
                                   QueryExecutor.Cursor cursor, Object jsonQuery, OffsetDateTime startedAt,
                                   String filenamePrefix) {
        ApiResultWriter.Envelope envelope = new ApiResultWriter.Envelope(prepared.database().id, format.context(), startedAt,
                jsonQuery, prepared.compiled().sql(), prepared.compiled().params(), false);
        StreamingOutput body = out -> {
            Watched watched = new Watched(out);
            try {
                cursor.stream(writer(format, options, watched, envelope));
            } catch (QueryFailure failure) {
                if (!watched.written) {
                    // Nothing has reached the client: the failure still gets its own status and Metabase's body.
                    @SuppressWarnings("unchecked")
                    Map<String, Object> failureBody = (Map<String, Object>) QueryResponses.failure(failure,
                            format.isFile() ? null : jsonQuery, prepared.database().id).getEntity();
                    throw new ApiException(failure.type().status, failure.getMessage(), failureBody);
                }
                // The status is sent. As Metabase does, the failure follows the rows it cut short, so that the download
                // is visibly broken rather than a file that looks complete.
                log.info("A {} download failed after its first rows: {}", format.key, failure.getMessage());
                Map<String, Object> error = new LinkedHashMap<>();
                error.put("status", "failed");
                error.put("error", failure.getMessage());
                error.put("error_type", failure.type().key);
                out.write('\n');
                out.write(Json.write(error).getBytes(StandardCharsets.UTF_8));
            } catch (IOException clientGone) {
                // The query was cancelled when the write failed; nothing more to say to a client that is not there.
                log.info("The client of a {} download went away; its query was cancelled ({})", format.key, clientGone.toString());
            }
        };
        Response.ResponseBuilder response = Response.status(format.status).type(format.contentType).entity(body)
                .header("Cache-Control", "max-age=0, no-cache, must-revalidate, proxy-revalidate")
                .header("Expires", "Tue, 03 Jul 2001 06:00:00 GMT")
                .header("X-Accel-Buffering", "no");
        if (format.isFile()) {
            response.header("Content-Disposition", "attachment; filename=\"" + filename(filenamePrefix, startedAt, format) + "\"");
        }
        return response.build();
    }

    /** {@code query_result_2026-01-01T12:00:00.123Z.csv}: the prefix, when the query started (UTC), the extension. */
    public static String filename(String prefix, OffsetDateTime startedAt, ExportFormat format) {
        return prefix + "_" + FILE_TIMESTAMP.format(startedAt.withOffsetSameInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS))
                + "." + format.key;
    }

    /** The response stream, noting whether a byte has been written to it (and so possibly sent). */
    private static final class Watched extends FilterOutputStream {
        boolean written;

        Watched(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            written = true;
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            written = true;
            out.write(b, off, len);
        }
    }

    /** The streaming writer of a format. */
    public static ResultWriter writer(ExportFormat format, ExportRequest.Options options, OutputStream out,
                                      ApiResultWriter.Envelope envelope) throws IOException {
        return switch (format) {
            case CSV -> new CsvResultWriter(out, options.formatRows(), options.csvIncludeBom());
            case JSON -> new JsonRowsResultWriter(out, options.formatRows());
            case XLSX -> new XlsxResultWriter(out, options.formatRows());
            case API -> new ApiResultWriter(out, envelope);
        };
    }
}
