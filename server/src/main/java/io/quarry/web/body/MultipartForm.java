package io.quarry.web.body;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code multipart/form-data} body read as it streams in: the one file part is copied to a temporary file (never held
 * in memory), the other parts are small text fields. Limits: the file at most {@code maxFileBytes} ({@link TooLarge}
 * as soon as it passes), each field {@link #MAX_FIELD_BYTES}, each part's headers {@link #MAX_HEADER_BYTES}, at most
 * {@link #MAX_PARTS} parts. Close it to delete the file.
 */
public final class MultipartForm implements AutoCloseable {
    static final int MAX_FIELD_BYTES = 64 * 1024;
    static final int MAX_HEADER_BYTES = 16 * 1024;
    static final int MAX_PARTS = 20;
    /** What a form may hold besides its file: fields, part headers, boundaries. */
    public static final long OVERHEAD_BYTES = MAX_PARTS * (long) (MAX_FIELD_BYTES + MAX_HEADER_BYTES);
    private static final Pattern BOUNDARY = Pattern.compile("(?i)(?:^|;)\\s*boundary=(?:\"([^\"]{1,70})\"|([^;\\s]{1,70}))");
    private static final Pattern PARAM = Pattern.compile("(?i);\\s*(name|filename)=(?:\"((?:[^\"\\\\]|\\\\.)*)\"|([^;\\s]*))");

    /** The body passed a limit. */
    public static final class TooLarge extends IOException {
        TooLarge() {
            super("The form is too large");
        }
    }

    /** The body is not a form this reader understands. */
    public static final class Malformed extends IOException {
        Malformed(String message) {
            super(message);
        }
    }

    private final Map<String, String> fields = new LinkedHashMap<>();
    private Path file;
    private String filename;
    private long fileSize;

    private MultipartForm() {
    }

    /**
     * Reads the whole form; the part named {@code fileField} goes to a temporary file. Any failure deletes that file.
     * The stream as a whole is limited to the file's limit plus {@link #OVERHEAD_BYTES}.
     */
    public static MultipartForm read(InputStream body, String contentType, String fileField, long maxFileBytes) throws IOException {
        Matcher m = BOUNDARY.matcher(contentType == null ? "" : contentType);
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data") || !m.find()) {
            throw new Malformed("Not a multipart form");
        }
        String boundary = m.group(1) != null ? m.group(1) : m.group(2);
        MultipartForm form = new MultipartForm();
        try {
            form.parse(new Scanner(new LimitedInputStream(body, maxFileBytes + OVERHEAD_BYTES)),
                    ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1), fileField, maxFileBytes);
            return form;
        } catch (LimitedInputStream.TooLarge e) {
            form.close();
            throw new TooLarge();
        } catch (IOException | RuntimeException e) {
            form.close();
            throw e;
        }
    }

    private void parse(Scanner in, byte[] delimiter, String fileField, long maxFileBytes) throws IOException {
        if (!in.copyUntil(delimiter, OutputStream.nullOutputStream(), Long.MAX_VALUE)) {
            throw new Malformed("No part in the form");
        }
        for (int parts = 0; ; parts++) {
            byte[] after = in.take(2);
            if (after[0] == '-' && after[1] == '-') {
                return;
            }
            if (after[0] != '\r' || after[1] != '\n') {
                throw new Malformed("Bad boundary line");
            }
            if (parts >= MAX_PARTS) {
                throw new TooLarge();
            }
            String name = null;
            String submitted = null;
            int headerBytes = 0;
            while (true) {
                ByteArrayOutputStream line = new ByteArrayOutputStream();
                if (!in.copyUntil(CRLF, line, MAX_HEADER_BYTES)) {
                    throw new Malformed("The form ends inside a part's headers");
                }
                headerBytes += line.size() + 2;
                if (headerBytes > MAX_HEADER_BYTES) {
                    throw new TooLarge();
                }
                if (line.size() == 0) {
                    break;
                }
                String header = line.toString(StandardCharsets.UTF_8);
                int colon = header.indexOf(':');
                if (colon > 0 && header.substring(0, colon).trim().equalsIgnoreCase("Content-Disposition")) {
                    Matcher p = PARAM.matcher(header.substring(colon + 1));
                    while (p.find()) {
                        String value = p.group(2) != null ? p.group(2).replaceAll("\\\\(.)", "$1") : p.group(3);
                        if (p.group(1).equalsIgnoreCase("name")) {
                            name = value;
                        } else {
                            submitted = value;
                        }
                    }
                }
            }
            if (fileField.equals(name) && file == null) {
                file = Files.createTempFile("quarry-upload-", ".part");
                filename = submitted;
                try (OutputStream out = Files.newOutputStream(file)) {
                    CountingOutputStream counted = new CountingOutputStream(out);
                    if (!in.copyUntil(delimiter, counted, maxFileBytes)) {
                        throw new Malformed("The form ends inside its file");
                    }
                    fileSize = counted.count;
                }
            } else {
                ByteArrayOutputStream value = new ByteArrayOutputStream();
                if (!in.copyUntil(delimiter, value, MAX_FIELD_BYTES)) {
                    throw new Malformed("The form ends inside a field");
                }
                if (name != null && !fields.containsKey(name)) {
                    fields.put(name, value.toString(StandardCharsets.UTF_8));
                }
            }
        }
    }

    private static final byte[] CRLF = {'\r', '\n'};

    /** The text field's value, or null when the form has no such field. */
    public String field(String name) {
        return fields.get(name);
    }

    /** The file part's content, or null when the form has none. */
    public Path file() {
        return file;
    }

    /** The file name the client gave, or null. */
    public String filename() {
        return filename;
    }

    public long fileSize() {
        return fileSize;
    }

    @Override
    public void close() {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                file.toFile().deleteOnExit();
            }
        }
    }

    private static final class CountingOutputStream extends OutputStream {
        private final OutputStream out;
        long count;

        CountingOutputStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }

    /**
     * A buffer over the body that copies bytes up to a delimiter. The body is read as if preceded by CRLF, so the first
     * boundary line matches the same delimiter as every later one.
     */
    static final class Scanner {
        private final InputStream in;
        private final byte[] buf = new byte[64 * 1024];
        private int pos;
        private int lim;
        private boolean eof;

        Scanner(InputStream in) {
            this.in = in;
            buf[0] = '\r';
            buf[1] = '\n';
            lim = 2;
        }

        /** Reads until at least {@code n} bytes are buffered or the body ends; false when fewer are left. */
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

        byte[] take(int n) throws IOException {
            if (!fill(n)) {
                throw new Malformed("The form ends too early");
            }
            byte[] out = new byte[n];
            System.arraycopy(buf, pos, out, 0, n);
            pos += n;
            return out;
        }

        /**
         * Copies the bytes before the next {@code delimiter} to {@code out} and steps past the delimiter; false when
         * the body ends first. {@link TooLarge} once more than {@code max} bytes would be copied.
         */
        boolean copyUntil(byte[] delimiter, OutputStream out, long max) throws IOException {
            long copied = 0;
            while (true) {
                // fill as much as the buffer holds, at least one delimiter's worth
                fill(Math.max(delimiter.length, Math.min(buf.length, lim - pos + 8192)));
                int found = indexOf(delimiter);
                int end = found >= 0 ? found : eof ? lim : Math.max(pos, lim - delimiter.length + 1);
                copied += end - pos;
                if (copied > max) {
                    throw new TooLarge();
                }
                out.write(buf, pos, end - pos);
                if (found >= 0) {
                    pos = found + delimiter.length;
                    return true;
                }
                pos = end;
                if (eof) {
                    return false;
                }
            }
        }

        private int indexOf(byte[] delimiter) {
            byte first = delimiter[0];
            for (int i = pos, last = lim - delimiter.length; i <= last; i++) {
                if (buf[i] != first) {
                    continue;
                }
                int j = 1;
                while (j < delimiter.length && buf[i + j] == delimiter[j]) {
                    j++;
                }
                if (j == delimiter.length) {
                    return i;
                }
            }
            return -1;
        }
    }
}
