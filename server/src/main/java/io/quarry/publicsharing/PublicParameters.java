package io.quarry.publicsharing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import java.util.Map;

/**
 * Parameter values sent to a public or embedded card: only the card's own parameters (declared or made from its
 * template tags) can filter it, so each value names one of them and takes its type and target from it.
 */
public final class PublicParameters {
    private PublicParameters() {
    }

    /**
     * Values sent as {@code [{"id": ..., "value": ...}, ...]} (type and target may be sent too, but the card's win);
     * a value for a parameter the card does not have is refused.
     */
    public static ArrayNode byId(JsonNode declared, JsonNode given) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        if (given == null || given.isNull() || given.isMissingNode()) {
            return out;
        }
        if (!given.isArray()) {
            throw ApiException.invalidField("parameters", "value must be an array of parameter values.");
        }
        for (JsonNode value : given) {
            String id = value.path("id").asText(null);
            JsonNode parameter = find(declared, "id", id);
            if (parameter == null) {
                throw ApiException.badRequest("Card does not have a parameter with ID \"" + id + "\".");
            }
            out.add(bound(parameter, value.get("value")));
        }
        return out;
    }

    /** Values keyed by parameter slug (signed embeds), each bound to the card's parameter of that slug. */
    public static ArrayNode bySlug(JsonNode declared, Map<String, JsonNode> values) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        values.forEach((slug, value) -> {
            JsonNode parameter = find(declared, "slug", slug);
            if (parameter != null && value != null && !value.isNull()) {
                out.add(bound(parameter, value));
            }
        });
        return out;
    }

    static JsonNode find(JsonNode declared, String key, String value) {
        if (declared == null || value == null) {
            return null;
        }
        for (JsonNode p : declared) {
            if (value.equals(p.path(key).asText(null))) {
                return p;
            }
        }
        return null;
    }

    private static ObjectNode bound(JsonNode parameter, JsonNode value) {
        ObjectNode p = Json.object();
        p.set("id", parameter.get("id"));
        p.set("type", parameter.get("type"));
        p.set("target", parameter.get("target"));
        if (parameter.has("slug")) {
            p.set("slug", parameter.get("slug"));
        }
        p.set("value", value == null ? Json.MAPPER.nullNode() : value);
        return p;
    }
}
