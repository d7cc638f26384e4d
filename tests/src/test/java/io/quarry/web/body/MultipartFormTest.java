package io.quarry.web.body;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The streamed form reader: parts split anywhere by the network, limits, and the temporary file gone after close. */
class MultipartFormTest {
    private static final String BOUNDARY = "----b0undary";

    private static byte[] form(byte[] file, String collection) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(("preamble to ignore\r\n--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a \\\"b\\\".csv\"\r\n"
                + "Content-Type: text/csv\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        out.write(file);
        out.write(("\r\n--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"collection_id\"\r\n\r\n" + collection
                + "\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** Hands out at most {@code chunk} bytes per read, as a slow network does. */
    private static InputStream trickle(byte[] body, int chunk) {
        return new FilterInputStream(new ByteArrayInputStream(body)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, chunk));
            }
        };
    }

    @Test
    void theFileGoesToATemporaryFileWhateverTheReadSizes() throws IOException {
        byte[] file = new byte[300_000];
        new Random(7).nextBytes(file);
        // the delimiter's own start inside the content, short of a boundary
        byte[] near = ("\r\n--" + BOUNDARY.substring(0, 6)).getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(near, 0, file, 65_530, near.length);
        // byte by byte on the small form below
        for (int chunk : new int[]{7, 4096, 1 << 20}) {
            Path kept;
            try (MultipartForm form = MultipartForm.read(trickle(form(file, "12"), chunk),
                    "multipart/form-data; boundary=\"" + BOUNDARY + "\"", "file", 1_000_000)) {
                kept = form.file();
                assertArrayEquals(file, Files.readAllBytes(kept), "chunk " + chunk);
                assertEquals(file.length, form.fileSize());
                assertEquals("a \"b\".csv", form.filename());
                assertEquals("12", form.field("collection_id"));
            }
            assertFalse(Files.exists(kept), "the temporary file is deleted on close");
        }
        try (MultipartForm form = MultipartForm.read(trickle(form("a,b\n1,2\n".getBytes(StandardCharsets.UTF_8), ""), 1),
                "multipart/form-data; charset=utf-8; boundary=" + BOUNDARY, "file", 100)) {
            assertEquals("a,b\n1,2\n", Files.readString(form.file()));
            assertEquals("", form.field("collection_id"));
        }
    }

    @Test
    void aFileOverTheLimitFailsAsItPassesIt() throws IOException {
        byte[] file = new byte[10_001];
        assertThrows(MultipartForm.TooLarge.class, () -> MultipartForm.read(new ByteArrayInputStream(form(file, "1")),
                "multipart/form-data; boundary=" + BOUNDARY, "file", 10_000));
        try (MultipartForm exact = MultipartForm.read(new ByteArrayInputStream(form(new byte[10_000], "1")),
                "multipart/form-data; boundary=" + BOUNDARY, "file", 10_000)) {
            assertEquals(10_000, exact.fileSize());
        }
        // a body that never ends stops at the file's limit plus the form's overhead, not at the end of the stream
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return 'x';
            }
        };
        assertThrows(MultipartForm.TooLarge.class, () -> MultipartForm.read(endless, "multipart/form-data; boundary=" + BOUNDARY, "file", 1000));
    }

    @Test
    void whatIsNotAFormIsMalformed() throws IOException {
        assertThrows(MultipartForm.Malformed.class, () -> MultipartForm.read(new ByteArrayInputStream(new byte[0]),
                "application/json", "file", 100));
        assertThrows(MultipartForm.Malformed.class, () -> MultipartForm.read(new ByteArrayInputStream(new byte[0]),
                "multipart/form-data", "file", 100));
        assertThrows(MultipartForm.Malformed.class, () -> MultipartForm.read(new ByteArrayInputStream("no parts".getBytes(StandardCharsets.UTF_8)),
                "multipart/form-data; boundary=" + BOUNDARY, "file", 100));
        byte[] cut = form("a\n1\n".getBytes(StandardCharsets.UTF_8), "1");
        byte[] truncated = java.util.Arrays.copyOf(cut, 90);
        assertThrows(MultipartForm.Malformed.class, () -> MultipartForm.read(new ByteArrayInputStream(truncated),
                "multipart/form-data; boundary=" + BOUNDARY, "file", 100));
        try (MultipartForm noFile = MultipartForm.read(new ByteArrayInputStream(("--" + BOUNDARY
                        + "\r\nContent-Disposition: form-data; name=\"collection_id\"\r\n\r\n3\r\n--" + BOUNDARY + "--").getBytes(StandardCharsets.UTF_8)),
                "multipart/form-data; boundary=" + BOUNDARY, "file", 100)) {
            assertNull(noFile.file());
            assertEquals("3", noFile.field("collection_id"));
        }
    }
}
