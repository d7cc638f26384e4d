package io.quarry.notification;

import io.quarry.core.Json;
import io.quarry.outbound.OutboundHttp;
import io.quarry.outbound.RefusedHostException;
import io.quarry.web.error.ApiException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Calls a {@code channel/http} webhook through {@link OutboundHttp} (the one guard for user-given URLs): the method of
 * its details (POST by default) with a JSON body, {@code auth-info} placed per {@code auth-method} — as headers, query
 * parameters, or keys merged into the body — as Metabase's {@code channel/impl/http.clj} does.
 */
public final class Webhooks {
    private final OutboundHttp http;
    private final Duration timeout;

    public Webhooks(OutboundHttp http, Duration timeout) {
        this.http = http;
        this.timeout = timeout;
    }

    /** The webhook refused the payload or could not be reached; {@code retryable} for 5xx and connection failures. */
    public static final class Failed extends RuntimeException {
        private final boolean retryable;
        private final Integer status;
        private final String body;

        Failed(String message, boolean retryable, Integer status, String body) {
            super(message);
            this.retryable = retryable;
            this.status = status;
            this.body = body;
        }

        public boolean retryable() {
            return retryable;
        }
    }

    /** The URL's host is refused by the host strategy: no retry. */
    public static final class Refused extends RuntimeException {
        Refused() {
            super(RefusedHostException.MESSAGE);
        }
    }

    /** A 400 with Metabase's message unless the URL may be called (create/update/test of a channel). */
    public void check(String url) {
        try {
            http.check(URI.create(url));
        } catch (RefusedHostException e) {
            throw ApiException.withErrors(400, Map.of("details", RefusedHostException.MESSAGE), null);
        } catch (IllegalArgumentException e) {
            throw ApiException.withErrors(400, Map.of("details", "url: " + e.getMessage()), null);
        }
    }

    /** {@code POST /api/channel/test}: one call with a test payload; a 400 {@code {message, data}} when it fails. */
    public void test(Map<String, Object> details) {
        try {
            send(details, Map.of("type", "test", "message", "This is a test message from Quarry."));
        } catch (Refused e) {
            throw new ApiException(400, e.getMessage(), Map.of("message", e.getMessage()));
        } catch (Failed e) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("request-status", e.status);
            data.put("request-body", e.body);
            throw new ApiException(400, "Failed to connect to channel", Map.of("message", "Failed to connect to channel", "data", data));
        }
    }

    /** Sends one payload; a non-2xx answer or a connection failure is {@link Failed}, a refused host {@link Refused}. */
    public void send(Map<String, Object> details, Map<String, Object> payload) {
        String method = String.valueOf(details.getOrDefault("method", "post")).toUpperCase(Locale.ROOT);
        String authMethod = String.valueOf(details.getOrDefault("auth-method", "none"));
        Map<String, Object> authInfo = authInfo(details);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        Map<String, Object> body = new LinkedHashMap<>(payload);
        StringBuilder url = new StringBuilder(String.valueOf(details.get("url")));
        switch (authMethod) {
            case "header" -> authInfo.forEach((k, v) -> headers.put(k, String.valueOf(v)));
            case "query-param" -> authInfo.forEach((k, v) -> url.append(url.indexOf("?") < 0 ? '?' : '&')
                    .append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(String.valueOf(v), StandardCharsets.UTF_8)));
            case "request-body" -> body.putAll(authInfo);
            default -> { }
        }
        byte[] bytes = method.equals("GET") ? null : Json.write(body).getBytes(StandardCharsets.UTF_8);
        OutboundHttp.Response response;
        try {
            response = http.send(new OutboundHttp.Request(method, URI.create(url.toString()), headers, bytes, timeout));
        } catch (RefusedHostException e) {
            throw new Refused();
        } catch (IOException e) {
            throw new Failed("Failed to connect to channel: " + e.getMessage(), true, null, null);
        }
        if (response.status() < 200 || response.status() >= 300) {
            String text = response.bodyText();
            throw new Failed("The webhook answered " + response.status() + ": " + (text.length() > 500 ? text.substring(0, 500) : text),
                    response.status() >= 500, response.status(), text);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> authInfo(Map<String, Object> details) {
        Object info = details.get("auth-info");
        return info instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }
}
