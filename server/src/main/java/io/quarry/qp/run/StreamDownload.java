package io.quarry.qp.run;

import io.quarry.core.Json;
import io.quarry.qp.ApiResultWriter;
import io.quarry.qp.QueryExecutor;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.export.ExportFormat;
import io.quarry.qp.export.Exports;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams an opened download: the writer of the format, rows from the cursor straight into the answer, with
 * Metabase's headers ({@code Content-Disposition: attachment; filename="query_result_<timestamp>.csv"}, no caching,
 * {@code X-Accel-Buffering: no} so that proxies pass rows on as they come). The last step of a download.
 */
final class StreamDownload implements QueryStep {
    private static final Logger log = LoggerFactory.getLogger(StreamDownload.class);

    @Override
    public QueryOutcome apply(QueryRun run, Chain next) {
        QueryRequest.Download download = run.request().download();
        ExportFormat format = download.format();
        ApiResultWriter.Envelope envelope = run.envelope(Map.of());
        QueryExecutor.Cursor cursor = run.cursor();
        Object failureQuery = run.failureQuery();
        long databaseId = run.prepared().database().id;
        QueryOutcome.Body body = out -> {
            Watched watched = new Watched(out);
            try {
                cursor.stream(Exports.writer(format, download.options(), watched, envelope));
            } catch (QueryFailure failure) {
                if (!watched.written) {
                    // Nothing has reached the client: the failure still gets its own status and Metabase's body.
                    throw new QueryOutcome.FailedBeforeOutput(new QueryOutcome.Failed(failure, failureQuery, databaseId));
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
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Cache-Control", "max-age=0, no-cache, must-revalidate, proxy-revalidate");
        headers.put("Expires", "Tue, 03 Jul 2001 06:00:00 GMT");
        headers.put("X-Accel-Buffering", "no");
        if (format.isFile()) {
            headers.put("Content-Disposition", "attachment; filename=\""
                    + Exports.filename(download.filenamePrefix(), run.startedAt(), format) + "\"");
        }
        return new QueryOutcome.Streamed(format.status, format.contentType, headers, body);
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
}
