package io.quarry.qp.export;

import io.quarry.qp.Column;
import io.quarry.qp.ResultWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * CSV downloads: a header row of column display names, then one line per row. Fields are quoted as RFC 4180 says
 * (when they hold a comma, a double quote, CR or LF; quotes doubled); lines end with LF as Metabase's do. Null is an
 * empty field. Text is encoded to UTF-8 straight into a 64 KiB buffer that goes out whenever it fills.
 */
public final class CsvResultWriter implements ResultWriter {
    private static final int BUFFER = 1 << 16;

    private final OutputStream out;
    private final boolean formatRows;
    private final boolean includeBom;
    private final byte[] buffer = new byte[BUFFER];
    private int position;
    private ExportValues.Renderer[] renderers;

    public CsvResultWriter(OutputStream out, boolean formatRows, boolean includeBom) {
        this.out = out;
        this.formatRows = formatRows;
        this.includeBom = includeBom;
    }

    @Override
    public void begin(List<Column> columns) throws IOException {
        if (includeBom) {
            text("\uFEFF", 0, 1);
        }
        renderers = new ExportValues.Renderer[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            renderers[i] = ExportValues.renderer(columns.get(i), formatRows);
            if (i > 0) {
                ascii(',');
            }
            field(columns.get(i).displayName());
        }
        ascii('\n');
    }

    @Override
    public void row(Object[] values) throws IOException {
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                ascii(',');
            }
            Object value = values[i];
            if (value == null) {
                continue;
            }
            if (!formatRows && (value instanceof Long || value instanceof Integer)) {
                digits(((Number) value).longValue());
            } else if (!formatRows && plain(value)) {
                asciiText(renderers[i].text(value));
            } else {
                field(renderers[i].text(value));
            }
        }
        ascii('\n');
    }

    @Override
    public void end(Summary summary) throws IOException {
        drain();
        out.flush();
    }

    private void field(String text) throws IOException {
        if (text == null) {
            return;
        }
        int length = text.length();
        boolean quote = false;
        boolean ascii = true;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c == ',' || c == '"' || c == '\n' || c == '\r') {
                quote = true;
            } else if (c >= 0x80) {
                ascii = false;
            }
        }
        if (!quote) {
            if (ascii) {
                asciiText(text);
            } else {
                text(text, 0, length);
            }
            return;
        }
        ascii('"');
        int start = 0;
        for (int i = 0; i < length; i++) {
            if (text.charAt(i) == '"') {
                text(text, start, i + 1);
                ascii('"');
                start = i + 1;
            }
        }
        text(text, start, length);
        ascii('"');
    }

    /** Values whose unformatted text is ASCII without separators, quotes or line breaks: nothing to scan for. */
    private static boolean plain(Object value) {
        return value instanceof java.math.BigDecimal || value instanceof Double || value instanceof java.time.LocalDateTime
                || value instanceof java.time.LocalDate || value instanceof Boolean;
    }

    private void digits(long value) throws IOException {
        if (value < 0 || value >= 1_000_000_000_000_000L) {
            asciiText(Long.toString(value));
            return;
        }
        if (BUFFER - position < 20) {
            drain();
        }
        int length = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            length++;
        }
        for (int at = position + length - 1; at >= position; at--) {
            buffer[at] = (byte) ('0' + value % 10);
            value /= 10;
        }
        position += length;
    }

    static boolean needsQuotes(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ',' || c == '"' || c == '\n' || c == '\r') {
                return true;
            }
        }
        return false;
    }

    /** Text known to be ASCII: its chars are its bytes, copied in one go (the JDK's own fast path for Latin-1). */
    @SuppressWarnings("deprecation")
    private void asciiText(String text) throws IOException {
        int length = text.length();
        if (length > BUFFER - position) {
            drain();
            if (length > BUFFER) {
                text(text, 0, length);
                return;
            }
        }
        text.getBytes(0, length, buffer, position);
        position += length;
    }

    private void ascii(char c) throws IOException {
        if (position == BUFFER) {
            drain();
        }
        buffer[position++] = (byte) c;
    }

    /** UTF-8 of {@code text[from, to)}; a lone surrogate becomes '?', as Java's encoder does. */
    private void text(String text, int from, int to) throws IOException {
        for (int i = from; i < to; i++) {
            if (position > BUFFER - 4) {
                drain();
            }
            char c = text.charAt(i);
            if (c < 0x80) {
                buffer[position++] = (byte) c;
            } else if (c < 0x800) {
                buffer[position++] = (byte) (0xC0 | c >> 6);
                buffer[position++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(text.charAt(i + 1))) {
                int code = Character.toCodePoint(c, text.charAt(++i));
                buffer[position++] = (byte) (0xF0 | code >> 18);
                buffer[position++] = (byte) (0x80 | code >> 12 & 0x3F);
                buffer[position++] = (byte) (0x80 | code >> 6 & 0x3F);
                buffer[position++] = (byte) (0x80 | code & 0x3F);
            } else if (Character.isSurrogate(c)) {
                buffer[position++] = '?';
            } else {
                buffer[position++] = (byte) (0xE0 | c >> 12);
                buffer[position++] = (byte) (0x80 | c >> 6 & 0x3F);
                buffer[position++] = (byte) (0x80 | c & 0x3F);
            }
        }
    }

    private void drain() throws IOException {
        if (position > 0) {
            out.write(buffer, 0, position);
            position = 0;
        }
    }
}
