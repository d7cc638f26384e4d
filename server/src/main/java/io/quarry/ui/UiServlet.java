package io.quarry.ui;

import io.quarry.web.security.SecurityHeadersFilter;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The web interface, mapped to {@code /} (so it replaces the container's default servlet and its directory listings).
 * Four kinds of answer:
 * <ul>
 *   <li>{@code static/<version>/...}: a file under the webapp's {@code /ui/} folder. The version is a digest of every
 *       file there, so these are cached for a year: a changed file gets a new URL.</li>
 *   <li>{@code webjars/<name>/<version>/...}: a file from a WebJar on the class path (versioned by its path, so cached
 *       for a year too).</li>
 *   <li>{@code app/fonts/...}: the Lato fonts Metabase's embedding SDK asks the server for, to any origin.</li>
 *   <li>Anything else: {@code index.html}, never cached, with the context path and asset version filled in. Client-side
 *       routes ({@code /question/1}, {@code /auth/reset_password/<token>}) thus load the application, which then
 *       reads its own URL. A path that looks like a file (has an extension) and is not found is a plain 404.</li>
 * </ul>
 * Nothing under {@code WEB-INF} or {@code META-INF} is reachable: only {@code /ui/}, {@code /app/fonts/} and
 * {@code webjars/} are read.
 */
public final class UiServlet extends HttpServlet {
    private static final String UI_ROOT = "/ui/";
    private static final String WEBJARS = "META-INF/resources/webjars/";
    /** The fonts Metabase's embedding SDK loads from the server it embeds (its own URLs, unversioned). */
    private static final String FONTS = "/app/fonts/";
    private static final String YEAR = "public, max-age=31536000, immutable";
    private static final Map<String, String> TYPES = Map.of(
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "html", "text/html; charset=utf-8",
            "svg", "image/svg+xml",
            "png", "image/png",
            "map", "application/json; charset=utf-8",
            "json", "application/json; charset=utf-8",
            "woff2", "font/woff2",
            "woff", "font/woff");

    private String version;
    private String indexTemplate;

    @Override
    public void init() {
        ServletContext context = getServletContext();
        version = digest(context);
        indexTemplate = new String(read(context, UI_ROOT + "index.html"), StandardCharsets.UTF_8);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = path(request);
        response.setHeader("X-Content-Type-Options", "nosniff");
        if (path.contains("..") || path.contains("\\")) {
            response.sendError(404);
            return;
        }
        if (path.startsWith("/static/")) {
            serveStatic(path.substring("/static/".length()), response);
        } else if (path.startsWith(FONTS)) {
            serveFont(path.substring(FONTS.length()), response);
        } else if (path.startsWith("/webjars/")) {
            serveWebjar(path.substring("/webjars/".length()), response);
        } else if (looksLikeFile(path)) {
            response.sendError(404);
        } else {
            serveIndex(request, response);
        }
    }

    @Override
    protected void doHead(HttpServletRequest request, HttpServletResponse response) throws IOException {
        doGet(request, response);
    }

    private void serveStatic(String rest, HttpServletResponse response) throws IOException {
        int slash = rest.indexOf('/');
        if (slash < 0) {
            response.sendError(404);
            return;
        }
        String file = rest.substring(slash + 1);
        URL url = getServletContext().getResource(UI_ROOT + file);
        if (url == null || file.isEmpty() || file.endsWith("/") || file.equals("index.html")) {
            response.sendError(404);
            return;
        }
        // an old version's URL still answers (the file as it is now), but only the current one may be cached long
        boolean current = rest.substring(0, slash).equals(version);
        send(url, type(file), current ? YEAR : "no-cache", response);
    }

    /**
     * A font under the webapp's {@code /app/fonts/}. Pages on other origins load these (the embedding SDK's
     * {@code @font-face}), and browsers fetch fonts with CORS: they are public files read without credentials, so any
     * origin may have them.
     */
    private void serveFont(String rest, HttpServletResponse response) throws IOException {
        String type = type(rest);
        URL url = rest.isEmpty() || !type.startsWith("font/") ? null : getServletContext().getResource(FONTS + rest);
        if (url == null) {
            response.sendError(404);
            return;
        }
        response.setHeader("Access-Control-Allow-Origin", "*");
        send(url, type, "public, max-age=86400", response);
    }

    private void serveWebjar(String rest, HttpServletResponse response) throws IOException {
        URL url = rest.isEmpty() || rest.endsWith("/") ? null : UiServlet.class.getClassLoader().getResource(WEBJARS + rest);
        if (url == null) {
            response.sendError(404);
            return;
        }
        send(url, type(rest), YEAR, response);
    }

    private void serveIndex(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String html = indexTemplate
                .replace("{{base}}", escape(request.getContextPath() + "/"))
                .replace("{{version}}", version);
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        response.setStatus(200);
        response.setContentType("text/html; charset=utf-8");
        response.setHeader("Cache-Control", "no-cache");
        // Everything comes from this server (no CDN); inline style attributes are the one allowance (grid positions).
        // Framing, referrer and the other security headers are SecurityHeadersFilter's, for pages as for the API: this
        // fuller policy replaces its CSP header, so it repeats the same framing rule.
        response.setHeader("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                + "img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'"
                + (SecurityHeadersFilter.framing(request) == null ? "" : "; " + SecurityHeadersFilter.framing(request)));
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    private static void send(URL url, String type, String cacheControl, HttpServletResponse response) throws IOException {
        try (InputStream in = url.openStream()) {
            response.setStatus(200);
            response.setContentType(type);
            response.setHeader("Cache-Control", cacheControl);
            OutputStream out = response.getOutputStream();
            in.transferTo(out);
        }
    }

    private static String path(HttpServletRequest request) {
        String servletPath = request.getServletPath() == null ? "" : request.getServletPath();
        String pathInfo = request.getPathInfo() == null ? "" : request.getPathInfo();
        String path = servletPath + pathInfo;
        return path.isEmpty() ? "/" : path;
    }

    private static boolean looksLikeFile(String path) {
        String last = path.substring(path.lastIndexOf('/') + 1);
        if (path.startsWith("/embed/") && last.chars().filter(c -> c == '.').count() == 2) {
            return false; // a signed embed's route ends in its token, a JWT (header.payload.signature)
        }
        return last.contains(".") || path.startsWith("/WEB-INF") || path.startsWith("/META-INF");
    }

    private static String type(String file) {
        String extension = file.substring(file.lastIndexOf('.') + 1);
        return TYPES.getOrDefault(extension, "application/octet-stream");
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** A digest of every file under /ui/ (names and contents), as the assets' version. */
    private static String digest(ServletContext context) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String file : files(context, UI_ROOT)) {
                sha.update(file.getBytes(StandardCharsets.UTF_8));
                sha.update(read(context, file));
            }
            return HexFormat.of().formatHex(sha.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> files(ServletContext context, String folder) {
        Set<String> out = new TreeSet<>();
        Set<String> entries = context.getResourcePaths(folder);
        if (entries != null) {
            for (String entry : entries) {
                if (entry.endsWith("/")) {
                    out.addAll(files(context, entry));
                } else {
                    out.add(entry);
                }
            }
        }
        return out;
    }

    private static byte[] read(ServletContext context, String file) {
        try (InputStream in = context.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("missing web interface file " + file);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
