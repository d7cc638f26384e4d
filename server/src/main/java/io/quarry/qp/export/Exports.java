package io.quarry.qp.export;

import io.quarry.qp.ApiResultWriter;
import io.quarry.qp.ResultWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * What downloads are made of: the streaming writer of each format and the file name. The query runner's last download
 * step ({@code io.quarry.qp.run.StreamDownload}) streams rows through them.
 */
public final class Exports {
    private static final DateTimeFormatter FILE_TIMESTAMP = DateTimeFormatter.ISO_OFFSET_DATE_TIME;

    private Exports() {
    }

    /** {@code query_result_2026-01-01T12:00:00.123Z.csv}: the prefix, when the query started (UTC), the extension. */
    public static String filename(String prefix, OffsetDateTime startedAt, ExportFormat format) {
        return prefix + "_" + FILE_TIMESTAMP.format(startedAt.withOffsetSameInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS))
                + "." + format.key;
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
