package io.quarry.qp;

import java.io.IOException;
import java.util.List;

/**
 * Receives a query's result as it streams from the database: the columns first, then each row, then a summary. One
 * implementation per export format (the API's JSON, CSV, JSON rows, XLSX); none holds all rows in memory.
 */
public interface ResultWriter {
    void begin(List<Column> columns) throws IOException;

    /** One row; the array is reused by the caller after this returns. */
    void row(Object[] values) throws IOException;

    void end(Summary summary) throws IOException;

    /** What is known once the rows are through. */
    record Summary(long rowCount, boolean truncated, long rowLimit, long runningTimeMillis) {
    }
}
