package io.quarry.testing;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small HTTP client for tests that says who calls and what status it expects:
 * {@code api.as(session).get(403, "user/1")}. A status other than the expected one fails with the response body.
 */
public final class Api {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final URI base;
    private final Map<String, String> headers;

    public Api(URI base) {
        this(base, Map.of());
    }

    private Api(URI base, Map<String, String> headers) {
        this.base = base;
        this.headers = headers;
    }

    /** Calls with this session id in X-Metabase-Session. */
    public Api as(String sessionId) {
        return withHeader("X-Metabase-Session", sessionId);
    }

    /**
     * Calls with this session id in the {@code metabase.SESSION} cookie, as a browser does; its writes carry the
     * same-origin {@code Origin} a browser sends with them (Quarry refuses cookie writes from other origins).
     */
    public Api withSessionCookie(String sessionId) {
        return withHeader("Cookie", "metabase.SESSION=" + sessionId);
    }

    /** The origin ({@code scheme://host:port}) of the server this client calls, as a browser would send it. */
    public String origin() {
        return base.getScheme() + "://" + base.getHost() + (base.getPort() < 0 ? "" : ":" + base.getPort());
    }

    public Api withApiKey(String key) {
        return withHeader("X-Api-Key", key);
    }

    public Api withHeader(String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(headers);
        copy.put(name, value);
        return new Api(base, copy);
    }

    public Res get(int expected, String path, Object... query) {
        return expect(expected, call("GET", path + queryString(query), null));
    }

    public Res post(int expected, String path, Object body) {
        return expect(expected, call("POST", path, body));
    }

    public Res put(int expected, String path, Object body) {
        return expect(expected, call("PUT", path, body));
    }

    public Res delete(int expected, String path, Object... query) {
        return expect(expected, call("DELETE", path + queryString(query), null));
    }

    /** POSTs a form-encoded body ({@code key=value&...}, values URL-encoded here). */
    public Res postForm(int expected, String path, Map<String, String> form) {
        StringBuilder body = new StringBuilder();
        form.forEach((k, v) -> body.append(body.length() == 0 ? "" : "&").append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                .append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return expect(expected, send("POST", path, body.toString(), "application/x-www-form-urlencoded"));
    }

    /** Sends without asserting. {@code body} may be a String (sent as is) or anything Jackson writes. */
    public Res call(String method, String path, Object body) {
        return send(method, path, body == null ? null : body instanceof String s ? s : Json.write(body), "application/json");
    }

    private Res send(String method, String path, String body, String contentType) {
        String relative = path.startsWith("/") ? path.substring(1) : path;
        if (!relative.startsWith("api/")) {
            relative = "api/" + relative;
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(relative)).timeout(Duration.ofSeconds(60));
        headers.forEach(request::header);
        if (browserWrite(method)) {
            request.header("Origin", origin());
        }
        HttpRequest.BodyPublisher publisher = HttpRequest.BodyPublishers.noBody();
        if (body != null) {
            publisher = HttpRequest.BodyPublishers.ofString(body);
            request.header("Content-Type", contentType);
        }
        request.method(method, publisher);
        try {
            HttpResponse<String> response;
            try {
                response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException closed) {
                // The server may close a kept-alive connection after answering early (a 401 before reading the body);
                // the client then reuses a dead connection and gets no bytes: that request never reached Quarry.
                if (!String.valueOf(closed.getMessage()).contains("received no bytes")) {
                    throw closed;
                }
                response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            }
            return new Res(response.statusCode(), response.body(), response.headers().map());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + relative + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Whether this is a write a browser would send with its page's {@code Origin} and that gets none from the test: one
     * authenticated by the session cookie (the only credential a browser attaches by itself).
     */
    private boolean browserWrite(String method) {
        if (method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS")) {
            return false;
        }
        boolean cookie = false;
        for (String name : headers.keySet()) {
            if (name.equalsIgnoreCase("Origin")) {
                return false;
            }
            cookie |= name.equalsIgnoreCase("Cookie");
        }
        return cookie;
    }

    private static Res expect(int expected, Res res) {
        if (res.status() != expected) {
            fail("expected HTTP " + expected + " but got " + res.status() + ": " + res.body());
        }
        return res;
    }

    private static String queryString(Object... pairs) {
        if (pairs.length == 0) {
            return "";
        }
        StringBuilder q = new StringBuilder("?");
        for (int i = 0; i < pairs.length; i += 2) {
            if (i > 0) {
                q.append('&');
            }
            q.append(URLEncoder.encode(String.valueOf(pairs[i]), StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(String.valueOf(pairs[i + 1]), StandardCharsets.UTF_8));
        }
        return q.toString();
    }

    /** A response: status, body text, headers; {@link #json()} parses the body. */
    public record Res(int status, String body, Map<String, List<String>> headers) {
        public JsonNode json() {
            try {
                return Json.read(body);
            } catch (IOException e) {
                throw new AssertionError("Body is not JSON: " + body, e);
            }
        }

        public String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }

        public List<String> headerValues(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue();
                }
            }
            return List.of();
        }
    }
}
