package io.quarry.card;

import io.quarry.web.error.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Just enough of multipart/form-data (RFC 7578) for uploads: named parts, an optional file name, raw bytes. */
final class Multipart {
    private static final Pattern BOUNDARY = Pattern.compile("boundary=\"?([^\";]+)\"?", Pattern.CASE_INSENSITIVE);
    private static final Pattern NAME = Pattern.compile("[; ]name=\"([^\"]*)\"", Pattern.CASE_INSENSITIVE);
    private static final Pattern FILENAME = Pattern.compile("filename=\"([^\"]*)\"", Pattern.CASE_INSENSITIVE);

    record Part(String name, String filename, byte[] content) {
    }

    private Multipart() {
    }

    static Map<String, Part> parse(String contentType, byte[] body) {
        Matcher b = contentType == null ? null : BOUNDARY.matcher(contentType);
        if (b == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data") || !b.find()) {
            throw ApiException.badRequest("The request must be multipart/form-data with the CSV file in the \"file\" field.");
        }
        byte[] delimiter = ("--" + b.group(1)).getBytes(StandardCharsets.ISO_8859_1);
        Map<String, Part> parts = new LinkedHashMap<>();
        int at = indexOf(body, delimiter, 0);
        while (at >= 0) {
            int start = at + delimiter.length;
            if (start + 1 < body.length && body[start] == '-' && body[start + 1] == '-') {
                break;
            }
            start = skipLineBreak(body, start);
            int next = indexOf(body, delimiter, start);
            if (next < 0) {
                break;
            }
            int end = next;
            if (end >= 2 && body[end - 2] == '\r' && body[end - 1] == '\n') {
                end -= 2;
            } else if (end >= 1 && body[end - 1] == '\n') {
                end -= 1;
            }
            int headerEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), start);
            int skip = 4;
            if (headerEnd < 0 || headerEnd > end) {
                headerEnd = indexOf(body, "\n\n".getBytes(StandardCharsets.ISO_8859_1), start);
                skip = 2;
            }
            if (headerEnd >= 0 && headerEnd <= end) {
                String headers = new String(body, start, headerEnd - start, StandardCharsets.UTF_8);
                Matcher name = NAME.matcher(" " + headers);
                if (name.find()) {
                    Matcher filename = FILENAME.matcher(headers);
                    parts.putIfAbsent(name.group(1), new Part(name.group(1), filename.find() ? filename.group(1) : null,
                            Arrays.copyOfRange(body, headerEnd + skip, Math.max(headerEnd + skip, end))));
                }
            }
            at = next;
        }
        return parts;
    }

    private static int skipLineBreak(byte[] body, int i) {
        if (i < body.length && body[i] == '\r') {
            i++;
        }
        if (i < body.length && body[i] == '\n') {
            i++;
        }
        return i;
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = Math.max(0, from); i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
