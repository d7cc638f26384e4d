package io.quarry.card;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A small RFC 4180 reader: quoted fields, doubled quotes, CRLF or LF, line breaks inside quotes; a detected separator.
 * Reads a row at a time from a {@link Reader}, so a file is never held whole; blank lines are skipped.
 */
final class Csv {
    private final Reader in;
    private final char separator;
    private final char[] buf = new char[16 * 1024];
    private int pos;
    private int lim;
    private boolean eof;

    Csv(Reader in) throws IOException {
        this.in = in;
        // the first line is looked at for its separator as far as the buffer holds
        fill(buf.length);
        if (lim > 0 && buf[0] == '\uFEFF') {
            pos = 1;
        }
        this.separator = separator();
    }

    /** Every row of a text (tests and small inputs). */
    static List<List<String>> parse(String text) {
        try {
            Csv csv = new Csv(new StringReader(text));
            List<List<String>> rows = new ArrayList<>();
            for (List<String> row; (row = csv.next()) != null; ) {
                rows.add(row);
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The next row, or null at the end. {@link IllegalArgumentException} for an unterminated quoted value. */
    List<String> next() throws IOException {
        while (true) {
            if (!has()) {
                return null;
            }
            List<String> row = new ArrayList<>();
            StringBuilder field = new StringBuilder();
            boolean quoted = false;
            boolean any = false;
            while (true) {
                if (!has()) {
                    if (quoted) {
                        throw new IllegalArgumentException("The CSV file has an unterminated quoted value.");
                    }
                    row.add(field.toString());
                    return any || row.size() > 1 || !row.get(0).isEmpty() ? row : null;
                }
                char c = buf[pos++];
                if (quoted) {
                    if (c == '"') {
                        if (has() && buf[pos] == '"') {
                            field.append('"');
                            pos++;
                        } else {
                            quoted = false;
                        }
                    } else {
                        field.append(c);
                    }
                } else if (c == '"') {
                    quoted = true;
                    any = true;
                } else if (c == separator) {
                    row.add(field.toString());
                    field.setLength(0);
                    any = true;
                } else if (c == '\n' || c == '\r') {
                    if (c == '\r' && has() && buf[pos] == '\n') {
                        pos++;
                    }
                    row.add(field.toString());
                    if (any || row.size() > 1 || !row.get(0).isEmpty()) {
                        return row;
                    }
                    break;
                } else {
                    field.append(c);
                    any = true;
                }
            }
        }
    }

    /** Whether a character is buffered (reading more when needed). */
    private boolean has() throws IOException {
        return pos < lim || fill(1);
    }

    /** Reads until at least {@code n} characters are buffered or the input ends; false when fewer are left. */
    private boolean fill(int n) throws IOException {
        if (lim - pos >= n) {
            return true;
        }
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
            lim -= pos;
            pos = 0;
        }
        while (lim < n && !eof) {
            int read = in.read(buf, lim, buf.length - lim);
            if (read < 0) {
                eof = true;
            } else {
                lim += read;
            }
        }
        return lim - pos >= n;
    }

    /** Comma, unless the first line has none and has semicolons or tabs. */
    private char separator() {
        int end = pos;
        while (end < lim && buf[end] != '\n') {
            end++;
        }
        String first = new String(buf, pos, end - pos);
        if (first.indexOf(',') >= 0) {
            return ',';
        }
        if (first.indexOf(';') >= 0) {
            return ';';
        }
        return first.indexOf('\t') >= 0 ? '\t' : ',';
    }
}
