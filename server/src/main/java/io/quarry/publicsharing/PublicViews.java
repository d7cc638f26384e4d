package io.quarry.publicsharing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.card.Card;
import io.quarry.core.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a stranger may see of a card or dashboard (Metabase's {@code public_sharing/api.clj}): a card cut down to its
 * name, display and parameters, its query to the template tags; a dashboard to its layout and cut-down cards. Signed
 * embeds show the same shapes.
 */
public final class PublicViews {
    private static final List<String> DASHBOARD_KEYS = List.of("id", "name", "description", "parameters", "auto_apply_filters",
            "width", "tabs", "param_fields", "dashcards");
    private static final List<String> DASHCARD_KEYS = List.of("id", "card", "card_id", "dashboard_id", "series", "col", "row",
            "size_x", "size_y", "dashboard_tab_id", "parameter_mappings", "visualization_settings", "action");

    private PublicViews() {
    }

    /** {@code id, name, description, display, visualization_settings, parameters, entity_id, dataset_query, param_fields}. */
    public static Map<String, Object> card(Card card) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", card.id);
        v.put("name", card.name);
        v.put("description", card.description);
        v.put("display", card.display);
        v.put("visualization_settings", orEmpty(parse(card.visualizationSettings)));
        v.put("parameters", parameters(card));
        v.put("entity_id", card.entityId);
        v.put("dataset_query", cutQuery(parse(card.datasetQuery)));
        v.put("param_fields", Map.of());
        return v;
    }

    /**
     * The fields a card's parameters filter, for its {@code param_fields}: those of field-filter template tags
     * ({@code dimension: ["field", id, ...]}) and of parameters targeting {@code ["dimension", ["field", id, ...]]}.
     */
    public static java.util.Set<Long> parameterFieldIds(Card card) {
        java.util.Set<Long> ids = new java.util.LinkedHashSet<>();
        JsonNode query = parse(card.datasetQuery);
        if (query != null) {
            for (JsonNode tag : query.path("native").path("template-tags")) {
                if ("dimension".equals(tag.path("type").asText())) {
                    addField(ids, tag.path("dimension"));
                }
            }
        }
        for (JsonNode p : parameters(card)) {
            JsonNode target = p.path("target");
            if ("dimension".equals(target.path(0).asText())) {
                addField(ids, target.path(1));
            }
        }
        return ids;
    }

    private static void addField(java.util.Set<Long> ids, JsonNode ref) {
        if ("field".equals(ref.path(0).asText()) && ref.path(1).canConvertToExactIntegral() && ref.path(1).asLong() > 0) {
            ids.add(ref.path(1).asLong());
        }
    }

    /** A card as the dashboard view has it (a map), cut down the same way. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> card(Map<String, Object> full) {
        if (full == null) {
            return null;
        }
        Map<String, Object> v = new LinkedHashMap<>();
        for (String key : List.of("id", "name", "description", "display", "visualization_settings")) {
            v.put(key, full.get(key));
        }
        JsonNode query = Json.MAPPER.valueToTree(full.get("dataset_query"));
        JsonNode declared = Json.MAPPER.valueToTree(full.get("parameters"));
        v.put("parameters", withTagParameters(declared, query));
        v.put("entity_id", full.get("entity_id"));
        v.put("dataset_query", cutQuery(query));
        v.put("param_fields", Map.of());
        return v;
    }

    /** The public dashboard: its own keys and each dashcard's, the cards and series cut down. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> dashboard(Map<String, Object> full) {
        Map<String, Object> v = new LinkedHashMap<>();
        for (String key : DASHBOARD_KEYS) {
            v.put(key, full.get(key));
        }
        List<Map<String, Object>> dashcards = new ArrayList<>();
        for (Object o : (List<Object>) full.getOrDefault("dashcards", List.of())) {
            Map<String, Object> dc = Json.MAPPER.convertValue(o, Map.class);
            Map<String, Object> cut = new LinkedHashMap<>();
            for (String key : DASHCARD_KEYS) {
                cut.put(key, dc.get(key));
            }
            cut.put("card", card((Map<String, Object>) dc.get("card")));
            List<Object> series = new ArrayList<>();
            for (Object s : (List<Object>) dc.getOrDefault("series", List.of())) {
                series.add(card(Json.MAPPER.convertValue(s, Map.class)));
            }
            cut.put("series", series);
            dashcards.add(cut);
        }
        v.put("dashcards", dashcards);
        return v;
    }

    /** The card's parameters merged with those made from its template tags (id, type, name, slug, target, required). */
    public static JsonNode parameters(Card card) {
        return withTagParameters(parse(card.parameters), parse(card.datasetQuery));
    }

    private static ArrayNode withTagParameters(JsonNode declared, JsonNode query) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        Set<String> ids = new HashSet<>();
        if (declared != null && declared.isArray()) {
            for (JsonNode p : declared) {
                out.add(p);
                ids.add(p.path("id").asText());
            }
        }
        JsonNode tags = query == null ? null : query.path("native").path("template-tags");
        if (tags != null && tags.isObject()) {
            tags.fields().forEachRemaining(e -> {
                JsonNode tag = e.getValue();
                String type = tag.path("type").asText();
                if (type.equals("snippet") || type.equals("card")) {
                    return;
                }
                String id = tag.hasNonNull("id") ? tag.get("id").asText() : e.getKey();
                if (ids.contains(id)) {
                    return;
                }
                String name = tag.hasNonNull("name") ? tag.get("name").asText() : e.getKey();
                ObjectNode p = Json.object();
                p.put("id", id);
                p.put("type", tagParameterType(tag));
                p.set("name", tag.hasNonNull("display-name") ? tag.get("display-name") : Json.MAPPER.getNodeFactory().textNode(name));
                p.put("slug", name);
                if (tag.has("default")) {
                    p.set("default", tag.get("default"));
                }
                ArrayNode ref = Json.MAPPER.createArrayNode().add("template-tag").add(name);
                p.set("target", Json.MAPPER.createArrayNode().add(type.equals("dimension") ? "dimension" : "variable").add(ref));
                p.put("required", tag.path("required").asBoolean(false));
                out.add(p);
            });
        }
        return out;
    }

    private static String tagParameterType(JsonNode tag) {
        if (tag.hasNonNull("widget-type") && !tag.get("widget-type").asText().equals("none")) {
            return tag.get("widget-type").asText();
        }
        return switch (tag.path("type").asText()) {
            case "date" -> "date/single";
            case "number" -> "number/=";
            case "dimension" -> "category";
            default -> "category";
        };
    }

    /** The query cut down to its {@code type} and {@code native.template-tags}. */
    private static Map<String, Object> cutQuery(JsonNode query) {
        Map<String, Object> cut = new LinkedHashMap<>();
        if (query == null || !query.isObject()) {
            return cut;
        }
        if (query.has("type")) {
            cut.put("type", query.get("type"));
        }
        JsonNode tags = query.path("native").path("template-tags");
        if (tags.isObject()) {
            cut.put("native", Map.of("template-tags", tags));
        }
        return cut;
    }

    private static Object orEmpty(JsonNode node) {
        return node == null || node.isNull() ? Map.of() : node;
    }

    static JsonNode parse(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Json.read(text);
        } catch (Exception e) {
            throw new IllegalStateException("A stored column is not valid JSON", e);
        }
    }
}
