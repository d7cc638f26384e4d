package io.quarry.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A client of an OpenAI-compatible chat-completions API ({@code POST …/v1/chat/completions}). The endpoint is an
 * administrator's setting, so it is called wherever it points (no webhook address guard). A model that does not answer
 * in time is a 504; one that cannot be reached or answers an error is a 502. The API key never appears in an error.
 */
final class ChatClient {
    /** One message of a conversation. */
    record Message(String role, String content) {
    }

    /**
     * A client per call: on Java 17 a JDK HttpClient keeps a selector thread until the client is collected, which a
     * client held for the application's life would leave behind after an undeploy. Model calls are rare and slow, so
     * a new client costs nothing that matters.
     */
    private static HttpClient newHttpClient() {
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** The reply's text to the conversation. */
    String complete(AssistantSettings.Endpoint endpoint, List<Message> messages) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("model", endpoint.model());
        List<Map<String, String>> list = new ArrayList<>();
        messages.forEach(m -> list.add(Map.of("role", m.role(), "content", m.content())));
        body.put("messages", list);
        body.put("temperature", 0);
        HttpRequest.Builder request = HttpRequest.newBuilder(completionsUri(endpoint.baseUrl())).timeout(endpoint.timeout())
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8));
        if (endpoint.apiKey() != null && !endpoint.apiKey().isBlank()) {
            request.header("Authorization", "Bearer " + endpoint.apiKey());
            request.header("api-key", endpoint.apiKey()); // Azure OpenAI's header
        }
        HttpResponse<String> response;
        try {
            response = newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpTimeoutException e) {
            throw new ApiException(504, "The language model did not answer within " + endpoint.timeout().toMillis() + " ms.");
        } catch (IOException e) {
            throw new ApiException(502, "The language model could not be reached: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "Interrupted while waiting for the language model.");
        }
        if (response.statusCode() / 100 != 2) {
            String answer = response.body() == null ? "" : response.body();
            if (endpoint.apiKey() != null && !endpoint.apiKey().isBlank()) {
                answer = answer.replace(endpoint.apiKey(), "**********"); // a server may quote the key it refused
            }
            throw new ApiException(502, "The language model answered HTTP " + response.statusCode() + ": " + abbreviate(answer, 300));
        }
        try {
            JsonNode content = Json.read(response.body()).path("choices").path(0).path("message").path("content");
            if (!content.isTextual()) {
                throw new ApiException(502, "The language model's answer has no message content.");
            }
            return content.asText();
        } catch (IOException e) {
            throw new ApiException(502, "The language model's answer is not JSON.");
        }
    }

    /** {@code …/chat/completions} as given, {@code …/v1} + {@code /chat/completions}, else + {@code /v1/chat/completions}. */
    static URI completionsUri(String baseUrl) {
        if (baseUrl.contains("/chat/completions")) {
            return URI.create(baseUrl);
        }
        return URI.create(baseUrl + (baseUrl.endsWith("/v1") ? "/chat/completions" : "/v1/chat/completions"));
    }

    private static String abbreviate(String text, int max) {
        String t = text == null ? "" : text.strip();
        return t.length() <= max ? t : t.substring(0, max) + "…";
    }
}
