package io.quarry.action;

import io.quarry.testing.Api;
import java.util.LinkedHashMap;
import java.util.Map;

/** Request bodies the action ITs share: a model over a table, an implicit action, a native query action, parameters. */
final class ActionFixtures {
    private ActionFixtures() {
    }

    static long model(Api as, String name, long db, long table, long collection) {
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", name);
        card.put("type", "model");
        card.put("display", "table");
        card.put("visualization_settings", Map.of());
        card.put("collection_id", collection);
        card.put("dataset_query", Map.of("database", db, "type", "query", "query", Map.of("source-table", table)));
        return as.post(200, "card", card).json().get("id").asLong();
    }

    static long implicit(Api as, long modelId, String kind) {
        return as.post(200, "action", Map.of("name", kind, "type", "implicit", "kind", kind, "model_id", modelId))
                .json().get("id").asLong();
    }

    /** The body creating a native query action of {@code model} on {@code db}. */
    static Map<String, Object> queryAction(String name, long model, long db, String sql, Map<String, Object> templateTags) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("type", "query");
        body.put("model_id", model);
        body.put("database_id", db);
        body.put("dataset_query", Map.of("type", "native", "database", db, "native",
                Map.of("query", sql, "template-tags", templateTags)));
        return body;
    }

    /** A required template tag whose parameter id is {@code tag-<name>}. */
    static Map<String, Object> requiredTag(String name, String displayName, String type) {
        return Map.of("id", "tag-" + name, "name", name, "display-name", displayName, "type", type, "required", true);
    }

    /** An execute body: {@code {"parameters": {k: v, ...}}}. */
    static Map<String, Object> params(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return Map.of("parameters", map);
    }
}
