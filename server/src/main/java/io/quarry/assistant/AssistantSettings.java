package io.quarry.assistant;

import io.quarry.setting.Setting;
import io.quarry.setting.Settings;
import io.quarry.warehouse.DetailsCodec;
import io.quarry.warehouse.EncryptedDetailsCodec;
import io.quarry.web.error.ApiException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The language model the assistant may use: any OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI,
 * Ollama, vLLM, llama.cpp). Named as v0.63's {@code llm-openai-*} settings, each also read from its {@code MB_*}
 * variable. With no base URL the assistant works offline. The API key is sensitive (never shown in clear) and, when
 * {@code MB_ENCRYPTION_SECRET_KEY} is set, stored encrypted with the same cipher as database connection details.
 */
final class AssistantSettings {
    static final String BASE_URL = "llm-openai-api-base-url";
    static final String API_KEY = "llm-openai-api-key";
    static final String MODEL = "llm-openai-model";
    static final String TIMEOUT_MS = "llm-request-timeout-ms";
    static final long DEFAULT_TIMEOUT_MS = 60_000;
    private static final String SECRET = "llm-api-key";

    private final Settings settings;
    private final DetailsCodec codec;

    private AssistantSettings(Settings settings, DetailsCodec codec) {
        this.settings = settings;
        this.codec = codec;
    }

    /** Registers the settings; {@code encryptionSecretKey} may be null (the key is then stored as given). */
    static AssistantSettings register(Settings settings, String encryptionSecretKey) {
        DetailsCodec codec = DetailsCodec.forKey(encryptionSecretKey);
        settings.register(
                Setting.of(BASE_URL, Setting.Type.STRING).normalize(AssistantSettings::baseUrl)
                        .description("Base URL of an OpenAI-compatible chat-completions API (…/v1/chat/completions is added). "
                                + "Unset: the assistant answers offline.").build(),
                Setting.of(API_KEY, Setting.Type.STRING).sensitive()
                        .normalize(value -> value == null || value.toString().isBlank() ? null
                                : codec instanceof EncryptedDetailsCodec ? codec.encode(Map.of(SECRET, value.toString())) : value)
                        .description("API key sent as a bearer token to the chat-completions API.").build(),
                Setting.of(MODEL, Setting.Type.STRING).defaultValue("gpt-4o-mini")
                        .description("Model name sent to the chat-completions API.").build(),
                Setting.of(TIMEOUT_MS, Setting.Type.POSITIVE_INTEGER).defaultValue(DEFAULT_TIMEOUT_MS)
                        .description("How long a chat-completions request may take, in milliseconds.").build());
        return new AssistantSettings(settings, codec);
    }

    private static Object baseUrl(Object value) {
        if (value == null || value.toString().isBlank()) {
            return null;
        }
        String text = value.toString().strip();
        try {
            URI uri = URI.create(text);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
            }
        } catch (IllegalArgumentException e) {
            // answered below
        }
        throw ApiException.badRequest("The base URL must be an http or https URL.");
    }

    /** The endpoint, or null when no model is configured. */
    Endpoint endpoint() {
        String base = settings.string(BASE_URL);
        if (base == null || base.isBlank()) {
            return null;
        }
        Long timeout = settings.integer(TIMEOUT_MS);
        return new Endpoint(base, apiKey(), Objects.requireNonNullElse(settings.string(MODEL), "gpt-4o-mini"),
                Duration.ofMillis(timeout == null ? DEFAULT_TIMEOUT_MS : timeout));
    }

    private String apiKey() {
        String stored = settings.string(API_KEY);
        if (stored == null || !stored.startsWith(EncryptedDetailsCodec.PREFIX)) {
            return stored;
        }
        if (!(codec instanceof EncryptedDetailsCodec)) {
            throw new ApiException(500, "The language model's API key is encrypted but MB_ENCRYPTION_SECRET_KEY is not set.");
        }
        Object key = codec.decode(stored).get(SECRET);
        return key == null ? null : key.toString();
    }

    /** Where and how to ask the model. The key may be null (local servers need none). */
    record Endpoint(String baseUrl, String apiKey, String model, Duration timeout) {
        @Override
        public String toString() {
            return "Endpoint[" + baseUrl + ", " + model + ", " + timeout + "]";
        }
    }
}
