package io.quarry.qp.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.qp.ApiResultWriter;
import io.quarry.qp.Column;
import io.quarry.qp.ResultWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.dhatim.fastexcel.reader.ReadableWorkbook;
import org.dhatim.fastexcel.reader.Row;
import org.junit.jupiter.api.Test;

/** Each writer's output, and proof that rows leave for the client while the result is still being read. */
class StreamingWritersTest {
    private static final List<Column> COLUMNS = List.of(Column.nativeColumn("ID", "type/BigInteger", "BIGINT"),
            Column.nativeColumn("Name", "type/Text", "VARCHAR"), Column.nativeColumn("At", "type/DateTime", "TIMESTAMP"));

    /** A sink that only counts. */
    private static final class Counting extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }

    private static String write(ResultWriter writer, ByteArrayOutputStream out, Object[]... rows) throws IOException {
        writer.begin(COLUMNS);
        for (Object[] row : rows) {
            writer.row(row);
        }
        writer.end(new ResultWriter.Summary(rows.length, false, 10, 1));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void csvQuotesOnlyWhatNeedsIt() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals("ID,Name,At\n1,plain,2024-01-02T10:00:00\n2,\"a,b\",\n3,\"say \"\"hi\"\"\",2024-01-02\n4,\"two\r\nlines\",\n5,,\n",
                write(new CsvResultWriter(out, false, false), out,
                        new Object[]{1L, "plain", LocalDateTime.of(2024, 1, 2, 10, 0)},
                        new Object[]{2L, "a,b", null},
                        new Object[]{3L, "say \"hi\"", LocalDateTime.of(2024, 1, 2, 0, 0)},
                        new Object[]{4L, "two\r\nlines", null},
                        new Object[]{5L, "", null}));
        assertTrue(CsvResultWriter.needsQuotes("a\nb"));
        assertTrue(!CsvResultWriter.needsQuotes("a;b 'c'"));
    }

    @Test
    void csvNumbersAsJavaWritesThem() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals("ID,Name,At\n0,-5,\n9223372036854775807,999999999999999999,\n1000000000000000000,-9223372036854775808,\n"
                + "42,0.10,\n",
                write(new CsvResultWriter(out, false, false), out,
                        new Object[]{0L, -5, null},
                        new Object[]{Long.MAX_VALUE, 999_999_999_999_999_999L, null},
                        new Object[]{1_000_000_000_000_000_000L, Long.MIN_VALUE, null},
                        new Object[]{42, new java.math.BigDecimal("0.10"), null}));
    }

    @Test
    void csvIsUtf8WhateverTheTextLength() throws IOException {
        String long1 = "x".repeat(150_000);
        String long2 = "é".repeat(70_000);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String csv = write(new CsvResultWriter(out, false, false), out,
                new Object[]{1L, "Zoë, 10 €, 😀", null},
                new Object[]{2L, long1, null},
                new Object[]{3L, long2, null},
                new Object[]{4L, "lone \uD800 surrogate", null});
        assertEquals("ID,Name,At\n1,\"Zoë, 10 €, 😀\",\n2," + long1 + ",\n3," + long2 + ",\n4,lone ? surrogate,\n", csv);
    }

    @Test
    void jsonRowsAreObjectsAndTheLastOfTwoEqualTitlesWins() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonRowsResultWriter writer = new JsonRowsResultWriter(out, false);
        writer.begin(List.of(Column.nativeColumn("X", "type/Integer", "INT"), Column.nativeColumn("X", "type/Text", "TEXT"),
                Column.nativeColumn("When", "type/DateTimeWithLocalTZ", "TIMESTAMPTZ")));
        writer.row(new Object[]{1, "one", OffsetDateTime.of(2024, 1, 2, 10, 0, 0, 0, ZoneOffset.ofHours(1))});
        writer.row(new Object[]{2, null, null});
        writer.end(new ResultWriter.Summary(2, false, 10, 1));
        assertEquals("[\n{\"X\":\"one\",\"When\":\"2024-01-02T09:00:00Z\"},\n{\"X\":null,\"When\":null}\n]",
                out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void rowsLeaveBeforeTheEnd() throws IOException {
        for (String format : List.of("csv", "json", "xlsx", "api")) {
            Counting sink = new Counting();
            ResultWriter writer = Exports.writer(ExportFormat.of(format), ExportRequest.Options.DEFAULT, sink,
                    new ApiResultWriter.Envelope(1, "api-download", OffsetDateTime.now(), Map.of(), "SELECT", List.of(), false));
            writer.begin(COLUMNS);
            Object[] row = new Object[3];
            long afterHalf = 0;
            for (int i = 0; i < 200_000; i++) {
                row[0] = (long) i;
                row[1] = "name number " + i;
                row[2] = LocalDateTime.of(2024, 1, 1, 0, 0).plusMinutes(i);
                writer.row(row);
                if (i == 100_000) {
                    afterHalf = sink.bytes;
                }
            }
            long beforeEnd = sink.bytes;
            writer.end(new ResultWriter.Summary(200_000, false, 1_048_575, 1));
            assertTrue(afterHalf > 0 && beforeEnd > afterHalf, format + ": " + afterHalf + " bytes sent halfway, " + beforeEnd
                    + " before the end");
            assertTrue(sink.bytes - beforeEnd < 200_000, format + ": " + (sink.bytes - beforeEnd) + " bytes were held back");
        }
    }

    @Test
    void xlsxReadsBack() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        XlsxResultWriter writer = new XlsxResultWriter(out, false);
        writer.begin(COLUMNS);
        for (int i = 0; i < 2500; i++) {
            writer.row(new Object[]{(long) i, i % 2 == 0 ? "even " + i : null, LocalDateTime.of(2024, 1, 1, 0, 0).plusHours(i)});
        }
        writer.end(new ResultWriter.Summary(2500, false, 10_000, 1));
        try (ReadableWorkbook workbook = new ReadableWorkbook(new java.io.ByteArrayInputStream(out.toByteArray()),
                new org.dhatim.fastexcel.reader.ReadingOptions(true, false))) {
            List<Row> rows = workbook.getFirstSheet().read();
            assertEquals(2501, rows.size());
            assertEquals("Name", rows.get(0).getCellText(1));
            Row last = rows.get(2500);
            assertEquals(2499, last.getCellAsNumber(0).orElseThrow().intValue());
            assertEquals(LocalDateTime.of(2024, 1, 1, 0, 0).plusHours(2499), last.getCellAsDate(2).orElseThrow());
            assertEquals("yyyy-mm-dd hh:mm:ss", last.getCell(2).getDataFormatString(), "styled in every batch");
            assertEquals("yyyy-mm-dd hh:mm:ss", rows.get(1001).getCell(2).getDataFormatString());
            assertEquals("even 2498", rows.get(2499).getCellText(1));
        }
    }
}
