package io.quarry.qp.export;

import io.quarry.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.StringJoiner;

/** Download requests as clients send them: a JSON body or a form-encoded one, answered as bytes. */
class Downloads {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final URI base;
    private final Map<String, String> headers;

    private Downloads(URI base, Map<String, String> headers) {
        this.base = base;
        this.headers = headers;
    }

    /**
     * Without credentials. The server answers 401 before reading the request body and may then close the connection;
     * each request gets a connection of its own so that no other request lands on a closed one.
     */
    static Downloads anonymous(URI base) {
        return new Downloads(base, Map.of()) {
            @Override
            HttpClient client() {
                return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            }
        };
    }

    HttpClient client() {
        return CLIENT;
    }

    static Downloads session(URI base, String session) {
        return new Downloads(base, Map.of("X-Metabase-Session", session));
    }

    static Downloads apiKey(URI base, String key) {
        return new Downloads(base, Map.of("X-Api-Key", key));
    }

    /** An HTTP response whose body is read whole. */
    record Download(int status, byte[] bytes, HttpResponse<?> response) {
        String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }
    }

    Download json(String format, Object body) {
        return send(format, "application/json", Json.write(body));
    }

    /** A form post: each value as is, or as JSON text when it is not a string. */
    Download form(String format, Map<String, Object> fields) {
        StringJoiner form = new StringJoiner("&");
        fields.forEach((key, value) -> form.add(URLEncoder.encode(key, StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(value instanceof String s ? s : Json.write(value), StandardCharsets.UTF_8)));
        return send(format, "application/x-www-form-urlencoded", form.toString());
    }

    Download send(String format, String contentType, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("api/dataset/" + format))
                .timeout(Duration.ofSeconds(120))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        try {
            HttpResponse<byte[]> response = client().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Download(response.statusCode(), response.body(), response);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The response as a stream, for downloads too large to hold. */
    HttpResponse<InputStream> stream(String format, Object body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("api/dataset/" + format))
                .timeout(Duration.ofSeconds(300))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body)));
        headers.forEach(request::header);
        return client().send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    }
}
