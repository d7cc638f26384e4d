package io.quarry.embed;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Metabase's {@code validate-and-merge-params}: each parameter slug is {@code disabled}, {@code enabled} (its value from
 * the URL) or {@code locked} (its value from the token only). Token values come from the JWT's {@code params}; URL
 * values from {@code ?parameters=<JSON object>} or, without it, from plain {@code ?slug=value}. An empty string is no
 * value. The merged values (the token's win) are keyed by slug.
 */
final class EmbedParams {
    private EmbedParams() {
    }

    static Map<String, JsonNode> merge(JsonNode embeddingParams, JsonNode tokenParams, Map<String, JsonNode> urlParams) {
        Map<String, JsonNode> token = present(tokenParams);
        Map<String, JsonNode> url = new LinkedHashMap<>();
        urlParams.forEach((slug, value) -> {
            if (hasValue(value)) {
                url.put(slug, value);
            }
        });
        Set<String> slugs = new LinkedHashSet<>(token.keySet());
        slugs.addAll(url.keySet());
        for (String slug : slugs) {
            String status = statusOf(embeddingParams, slug);
            if (status == null) {
                throw ApiException.badRequest("Unknown parameter " + slug + ".");
            }
            switch (status) {
                case "disabled" -> throw ApiException.badRequest("You're not allowed to specify a value for " + slug + ".");
                case "enabled" -> {
                    if (token.containsKey(slug) && url.containsKey(slug)) {
                        throw ApiException.badRequest("You can't specify a value for " + slug + " if it's already set in the JWT.");
                    }
                }
                case "locked" -> {
                    if (url.containsKey(slug)) {
                        throw ApiException.badRequest("You can only specify a value for " + slug + " in the JWT.");
                    }
                }
                default -> throw ApiException.badRequest("Unknown parameter " + slug + ".");
            }
        }
        if (embeddingParams != null && embeddingParams.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = embeddingParams.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if ("locked".equals(e.getValue().asText()) && !tokenParamsHas(tokenParams, e.getKey())) {
                    throw ApiException.badRequest("You must specify a value for " + e.getKey() + " in the JWT.");
                }
            }
        }
        Map<String, JsonNode> merged = new LinkedHashMap<>(url);
        merged.putAll(token);
        merged.replaceAll((slug, value) -> value.isArray() && value.isEmpty() ? Json.MAPPER.nullNode() : value);
        return merged;
    }

    /** The slugs whose values the URL may give: enabled ones the token does not set. */
    static boolean openToUrl(JsonNode embeddingParams, JsonNode tokenParams, String slug) {
        return "enabled".equals(statusOf(embeddingParams, slug)) && !present(tokenParams).containsKey(slug);
    }

    static String statusOf(JsonNode embeddingParams, String slug) {
        if (embeddingParams == null || !embeddingParams.isObject() || !embeddingParams.has(slug)) {
            return null;
        }
        return embeddingParams.get(slug).asText();
    }

    /** A locked parameter is given when the token has its key (Metabase accepts a null value there). */
    private static boolean tokenParamsHas(JsonNode tokenParams, String slug) {
        return tokenParams != null && tokenParams.isObject() && tokenParams.has(slug);
    }

    private static Map<String, JsonNode> present(JsonNode params) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        if (params != null && params.isObject()) {
            params.fields().forEachRemaining(e -> {
                if (hasValue(e.getValue())) {
                    out.put(e.getKey(), e.getValue());
                }
            });
        }
        return out;
    }

    private static boolean hasValue(JsonNode value) {
        return value != null && !value.isNull() && !value.isMissingNode() && !(value.isTextual() && value.asText().isBlank());
    }
}
