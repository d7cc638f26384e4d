package io.quarry.web.body;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.core.AppConfig;
import io.quarry.core.Json;
import io.quarry.web.error.ErrorResponses;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads every request body once, before routing and authentication, with Metabase's rules (COMPAT-2 §G):
 * <ul>
 *   <li>a content type matching {@code ^application/(.+\+)?json} (any charset) is parsed as JSON; malformed JSON is a
 *       400 {@code Malformed JSON in request body.} in plain text before anything else happens;</li>
 *   <li>{@code application/x-www-form-urlencoded} fields become body parameters (string values, see {@link FormFields});</li>
 *   <li>a missing or empty body, of any content type or none, is read as {@code {}}; so is the body of any other
 *       content type, which Metabase ignores;</li>
 *   <li>multipart bodies (the CSV upload) are left to their endpoint, which streams them ({@link MultipartForm}).</li>
 * </ul>
 * The parsed tree is kept as a request property; {@link ParsedBodyReader} hands it to the resource method, whatever
 * type it takes. Bodies larger than {@link AppConfig#maxRequestBodyBytes} are refused with 413: by their
 * {@code Content-Length} before a byte is read, else as soon as the streamed bytes pass the limit, so a huge body is
 * never held in memory (an anonymous 64 MB {@code POST /api/session} is refused after the first 16 MB at most).
 * Runs before {@link io.quarry.web.security.AuthFilter}, as Metabase's JSON middleware runs before its session one.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public final class RequestBodies implements ContainerRequestFilter {
    static final String TREE = "quarry.body";
    public static final String MALFORMED = "Malformed JSON in request body.";
    /** Deeper than any dashboard or MBQL query we write, far below what would exhaust a thread's stack. */
    public static final int MAX_NESTING_DEPTH = 512;

    private static final Pattern JSON_TYPE = Pattern.compile("^application/(.+\\+)?json", Pattern.CASE_INSENSITIVE);
    private static final Set<String> BODY_METHODS = Set.of("POST", "PUT", "PATCH");
    /** Bodies up to this declared length are read whole before parsing (a declared length above the limit is refused first). */
    private static final int SMALL_BODY_BYTES = 8192;
    private static final ObjectMapper MAPPER = Json.MAPPER.copyWith(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
            .build());

    /**
     * Endpoints that read their body themselves, as bytes: the MCP server answers a malformed or empty JSON-RPC body
     * with JSON-RPC's own errors (-32700), not the API's 400. Only the size limit applies to them.
     */
    private static final Set<String> RAW_BODY_PATHS = Set.of("metabase-mcp", "mcp");

    private final long maxBytes;

    @Inject
    public RequestBodies(AppConfig config) {
        this.maxBytes = requireNonNull(config, "config is null").maxRequestBodyBytes;
    }

    @Override
    public void filter(ContainerRequestContext request) throws IOException {
        MediaType type = request.getMediaType();
        if (type != null && "multipart".equalsIgnoreCase(type.getType())) {
            return;
        }
        int length = request.getLength();
        if (length > maxBytes) {
            tooLarge(request);
            return;
        }
        if (BODY_METHODS.contains(request.getMethod()) && RAW_BODY_PATHS.contains(trimSlashes(request.getUriInfo().getPath()))) {
            try {
                byte[] bytes = new LimitedInputStream(request.getEntityStream(), maxBytes).readAllBytes();
                request.setEntityStream(new ByteArrayInputStream(bytes));
            } catch (LimitedInputStream.TooLarge e) {
                tooLarge(request);
            }
            return;
        }
        // A declared length answers whether there is a body; only a body of unknown length (chunked) is peeked at,
        // which costs Jersey a buffered copy of the stream (the container's stream cannot be reset)
        if (length == 0 || length < 0 && !request.hasEntity()) {
            if (BODY_METHODS.contains(request.getMethod()) || type != null) {
                useTree(request, Json.object());
            }
            return;
        }
        try {
            if (type != null && JSON_TYPE.matcher(type.getType() + "/" + type.getSubtype()).lookingAt()) {
                readJson(request, length);
            } else if (type != null && type.isCompatible(MediaType.APPLICATION_FORM_URLENCODED_TYPE)) {
                readForm(request, type);
            } else {
                // Metabase parses only JSON and forms; any other body is ignored, so not even read.
                useTree(request, Json.object());
            }
        } catch (LimitedInputStream.TooLarge e) {
            tooLarge(request);
        } catch (IOException e) {
            // The body stopped arriving: the client left, or sent it slower than the container's minimum data rate.
            // Not Quarry's fault, so no 500 and no error in the log.
            request.abortWith(ErrorResponses.text(408, "The request body did not arrive in time."));
        }
    }

    /**
     * {@code length}: the declared length, or -1. A small body of declared length (most are: {@code {}} for a card
     * query) is read in one call and parsed from its bytes, without the stream set-up a body of unknown size needs.
     */
    private void readJson(ContainerRequestContext request, int length) throws IOException {
        JsonNode tree;
        try (JsonParser parser = length > 0 && length <= SMALL_BODY_BYTES
                ? MAPPER.createParser(request.getEntityStream().readNBytes(length))
                : MAPPER.createParser(new LimitedInputStream(request.getEntityStream(), maxBytes))) {
            tree = MAPPER.readTree(parser);
            if (tree != null && parser.nextToken() != null) {
                throw new JsonProcessingException("Trailing content after the JSON value") { };
            }
        } catch (LimitedInputStream.TooLarge e) {
            throw e;
        } catch (JsonProcessingException e) {
            request.abortWith(ErrorResponses.text(400, MALFORMED));
            return;
        }
        // An empty JSON body parses to nothing; Metabase validates it as {}.
        useTree(request, tree == null || tree.isMissingNode() ? Json.object() : tree);
    }

    private void readForm(ContainerRequestContext request, MediaType type) throws IOException {
        byte[] bytes = new LimitedInputStream(request.getEntityStream(), maxBytes).readAllBytes();
        String charset = type.getParameters().getOrDefault(MediaType.CHARSET_PARAMETER, "UTF-8");
        FormFields fields = new FormFields();
        for (String pair : new String(bytes, StandardCharsets.ISO_8859_1).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq), charset);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), charset);
            fields.add(name, value);
        }
        if (fields.isEmpty()) {
            useTree(request, Json.object());
            return;
        }
        // Keep the form itself for the endpoints that take @FormParam (the export endpoints).
        request.setProperty(TREE, fields);
        request.setEntityStream(new ByteArrayInputStream(bytes));
    }

    private static String trimSlashes(String path) {
        int from = 0;
        int to = path.length();
        while (from < to && path.charAt(from) == '/') {
            from++;
        }
        while (to > from && path.charAt(to - 1) == '/') {
            to--;
        }
        return path.substring(from, to);
    }

    private static String decode(String raw, String charset) {
        try {
            return URLDecoder.decode(new String(raw.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.ISO_8859_1), charset);
        } catch (IllegalArgumentException | java.io.UnsupportedEncodingException e) {
            return raw;
        }
    }

    /** From here on the request is JSON, whatever it said, so every JSON endpoint routes and reads the tree. */
    private static void useTree(ContainerRequestContext request, JsonNode tree) {
        request.setProperty(TREE, tree);
        request.getHeaders().putSingle(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON);
        request.getHeaders().remove(HttpHeaders.CONTENT_LENGTH);
        request.setEntityStream(new TreeInputStream(tree));
    }

    private void tooLarge(ContainerRequestContext request) {
        request.abortWith(ErrorResponses.text(413, "Request body exceeds the maximum size of " + maxBytes + " bytes."));
    }

    /**
     * The parsed tree as a stream, serialised only if someone reads past its first byte (a String or InputStream
     * parameter). Jersey peeks at one byte to tell an empty entity from a present one; that peek is answered from the
     * tree's type, so the usual path (the tree handed over by {@link ParsedBodyReader}) never serialises it.
     */
    private static final class TreeInputStream extends InputStream {
        private final JsonNode tree;
        private byte[] bytes;
        private int position;
        private int mark;

        TreeInputStream(JsonNode tree) {
            this.tree = tree;
        }

        private byte[] bytes() {
            if (bytes == null) {
                bytes = Json.write(tree).getBytes(StandardCharsets.UTF_8);
            }
            return bytes;
        }

        @Override
        public int read() {
            if (bytes == null && position == 0 && tree.isContainerNode()) {
                position = 1;
                return tree.isObject() ? '{' : '[';
            }
            return position < bytes().length ? bytes[position++] & 0xff : -1;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            byte[] all = bytes();
            if (position >= all.length) {
                return length == 0 ? 0 : -1;
            }
            int n = Math.min(length, all.length - position);
            System.arraycopy(all, position, buffer, offset, n);
            position += n;
            return n;
        }

        @Override
        public boolean markSupported() {
            return true;
        }

        @Override
        public synchronized void mark(int readLimit) {
            mark = position;
        }

        @Override
        public synchronized void reset() {
            position = mark;
        }
    }
}
