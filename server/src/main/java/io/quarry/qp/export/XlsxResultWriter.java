package io.quarry.qp.export;

import io.quarry.qp.Column;
import io.quarry.qp.ResultWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.dhatim.fastexcel.Workbook;
import org.dhatim.fastexcel.Worksheet;

/**
 * XLSX downloads with fastexcel: one sheet, a bold header row of display names, then typed cells — numbers, booleans,
 * dates and date-times (as Excel dates with a date format), text as inline strings (no shared-string table, which
 * would grow with the rows). Rows are flushed into the zip stream every {@value #BATCH} rows, so memory does not grow
 * with the row count; cell styles are applied once per column and batch, not per cell.
 */
public final class XlsxResultWriter implements ResultWriter {
    static final int BATCH = 1000;
    /** Excel's limit on the text of one cell. */
    private static final int MAX_TEXT = 32_767;
    private static final int NONE = 0;
    private static final int DATE = 1;
    private static final int DATE_TIME = 2;
    private static final int WHOLE = 3;
    private static final int FRACTION = 4;

    private final Workbook workbook;
    private final Worksheet sheet;
    private final boolean formatRows;
    private boolean[] keys;
    /** What each column held in the current batch, to style it: NONE, DATE, DATE_TIME, WHOLE or FRACTION. */
    private int[] kinds;
    private int row;
    private int batchStart = 1;

    public XlsxResultWriter(OutputStream out, boolean formatRows) {
        this.workbook = new Workbook(out, "Quarry", "1.0");
        this.sheet = workbook.newWorksheet("Query result");
        this.formatRows = formatRows;
    }

    @Override
    public void begin(List<Column> columns) throws IOException {
        int count = columns.size();
        keys = new boolean[count];
        kinds = new int[count];
        for (int c = 0; c < count; c++) {
            Column column = columns.get(c);
            keys[c] = "type/PK".equals(column.semanticType()) || "type/FK".equals(column.semanticType());
            sheet.inlineString(0, c, column.displayName() != null ? column.displayName() : column.name());
            sheet.style(0, c).bold().set();
        }
        row = 1;
    }

    @Override
    public void row(Object[] values) throws IOException {
        for (int c = 0; c < values.length; c++) {
            Object value = values[c];
            if (value == null) {
                continue;
            }
            if (value instanceof Number n) {
                sheet.value(row, c, n);
                boolean whole = n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof BigInteger;
                note(c, whole ? WHOLE : FRACTION);
            } else if (value instanceof Boolean b) {
                sheet.value(row, c, b);
            } else if (value instanceof LocalDateTime t) {
                sheet.value(row, c, t);
                note(c, DATE_TIME);
            } else if (value instanceof OffsetDateTime t) {
                sheet.value(row, c, t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
                note(c, DATE_TIME);
            } else if (value instanceof LocalDate d) {
                sheet.value(row, c, d);
                note(c, DATE);
            } else {
                String text = ExportValues.unformatted(value);
                sheet.inlineString(row, c, text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) : text);
            }
        }
        row++;
        if (row - batchStart >= BATCH) {
            flushBatch();
        }
    }

    private void note(int column, int kind) {
        kinds[column] = Math.max(kinds[column], kind);
    }

    /** Styles the batch's date and number columns in one go, then writes its rows out and forgets them. */
    private void flushBatch() throws IOException {
        if (row > batchStart) {
            for (int c = 0; c < kinds.length; c++) {
                String format = format(kinds[c], keys[c]);
                if (format != null) {
                    sheet.range(batchStart, c, row - 1, c).style().format(format).set();
                }
                kinds[c] = NONE;
            }
        }
        sheet.flush();
        batchStart = row;
    }

    private String format(int kind, boolean key) {
        return switch (kind) {
            case DATE -> formatRows ? "mmmm d, yyyy" : "yyyy-mm-dd";
            case DATE_TIME -> formatRows ? "mmmm d, yyyy, h:mm AM/PM" : "yyyy-mm-dd hh:mm:ss";
            case WHOLE -> formatRows && !key ? "#,##0" : null;
            case FRACTION -> formatRows && !key ? "#,##0.##" : null;
            default -> null;
        };
    }

    @Override
    public void end(Summary summary) throws IOException {
        flushBatch();
        workbook.finish();
    }
}
