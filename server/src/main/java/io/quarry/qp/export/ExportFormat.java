package io.quarry.qp.export;

import java.util.Locale;

/**
 * The download formats of {@code POST /api/dataset/:export-format} (and card downloads): files (CSV, JSON rows, XLSX)
 * answer 200 with an attachment; {@code api} is the normal result object without the API's row limits and answers 202,
 * as every streaming Metabase response without a format-specific status does.
 */
public enum ExportFormat {
    CSV("csv", "text/csv", 200),
    JSON("json", "application/json; charset=utf-8", 200),
    XLSX("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", 200),
    API("api", "application/json; charset=utf-8", 202);

    /** The path segments that name a format, for the resource's path template. */
    public static final String PATH_PATTERN = "csv|json|xlsx|api";

    public final String key;
    public final String contentType;
    public final int status;

    ExportFormat(String key, String contentType, int status) {
        this.key = key;
        this.contentType = contentType;
        this.status = status;
    }

    /** Metabase's execution context for a download in this format: {@code csv-download}, {@code api-download}... */
    public String context() {
        return key + "-download";
    }

    public boolean isFile() {
        return this != API;
    }

    public static ExportFormat of(String key) {
        return valueOf(key.toUpperCase(Locale.ROOT));
    }
}
