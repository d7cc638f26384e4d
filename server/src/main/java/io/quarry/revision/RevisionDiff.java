package io.quarry.revision;

import io.quarry.core.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/** What changed between two stored objects: Metabase's {@code diff} map and its English change descriptions. */
public final class RevisionDiff {
    private RevisionDiff() {
    }

    /** {@code {"before": {changed keys: old}, "after": {changed keys: new}}}; a side is null when it has no values. */
    public static Map<String, Object> diffMap(Map<String, Object> before, Map<String, Object> after) {
        Map<String, Object> b = new LinkedHashMap<>();
        Map<String, Object> a = new LinkedHashMap<>();
        for (String key : changedKeys(before, after)) {
            Object old = before == null ? null : before.get(key);
            Object now = after == null ? null : after.get(key);
            if (old != null) {
                b.put(key, old);
            }
            if (now != null) {
                a.put(key, now);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("before", b.isEmpty() ? null : b);
        out.put("after", a.isEmpty() ? null : a);
        return out;
    }

    static Set<String> changedKeys(Map<String, Object> before, Map<String, Object> after) {
        Set<String> keys = new LinkedHashSet<>();
        if (after != null) {
            keys.addAll(after.keySet());
        }
        if (before != null) {
            keys.addAll(before.keySet());
        }
        keys.removeIf(k -> Revisions.sameJson(before == null ? null : before.get(k), after == null ? null : after.get(k)));
        return keys;
    }

    /**
     * The change phrases of one revision against the previous one. Dashboards follow Metabase's own rules: the field
     * phrases joined into one sentence part, then what happened to the cache ttl, the cards, the tabs, auto-apply
     * filters and each card's series.
     */
    public static List<String> describe(String model, Map<String, Object> before, Map<String, Object> after,
            LongFunction<String> collectionName) {
        if (Revisions.DASHBOARD.equals(model)) {
            return describeDashboard(before, after, collectionName);
        }
        return describeFields(model, before, after, collectionName);
    }

    static List<String> describeDashboard(Map<String, Object> before, Map<String, Object> after, LongFunction<String> collectionName) {
        List<String> out = new ArrayList<>();
        List<String> fields = describeFields(Revisions.DASHBOARD, before, after, collectionName);
        if (!fields.isEmpty()) {
            String sentence = sentence(fields);
            out.add(sentence.substring(0, sentence.length() - 1));
        }
        Set<String> changed = changedKeys(before, after);
        if (changed.contains("cache_ttl")) {
            Object v1 = before.get("cache_ttl");
            Object v2 = after.get("cache_ttl");
            out.add(v1 == null ? "added a cache ttl" : v2 == null ? "removed the cache ttl"
                    : "changed the cache ttl from \"" + v1 + "\" to \"" + v2 + "\"");
        }
        List<Map<String, Object>> cards1 = maps(before.get("cards"));
        List<Map<String, Object>> cards2 = maps(after.get("cards"));
        if (changed.contains("cards")) {
            Set<Object> ids1 = ids(cards1);
            Set<Object> ids2 = ids(cards2);
            Set<String> keys = new LinkedHashSet<>();
            for (int i = 0; i < Math.max(cards1.size(), cards2.size()); i++) {
                keys.addAll(changedKeys(i < cards1.size() ? cards1.get(i) : null, i < cards2.size() ? cards2.get(i) : null));
            }
            out.add(counted(ids1, ids2, "card", keys.stream().allMatch(k -> Set.of("row", "col", "size_x", "size_y").contains(k))
                    ? "rearranged the cards" : "modified the cards"));
        }
        if (changed.contains("tabs")) {
            List<Map<String, Object>> tabs1 = maps(before.get("tabs"));
            List<Map<String, Object>> tabs2 = maps(after.get("tabs"));
            out.add(counted(ids(tabs1), ids(tabs2), "tab", withoutPosition(tabs1).equals(withoutPosition(tabs2))
                    ? "rearranged the tabs" : "modified the tabs"));
        }
        if (Boolean.TRUE.equals(before.get("auto_apply_filters")) != Boolean.TRUE.equals(after.get("auto_apply_filters"))) {
            out.add("set auto apply filters to " + Boolean.TRUE.equals(after.get("auto_apply_filters")));
        }
        for (int i = 0; i < Math.min(cards1.size(), cards2.size()); i++) {
            Object s1 = cards1.get(i).get("series");
            Object s2 = cards2.get(i).get("series");
            Object cardId = cards1.get(i).get("card_id");
            if (cardId != null && !Revisions.sameJson(s1, s2)) {
                int n1 = s1 instanceof List<?> l ? l.size() : 0;
                int n2 = s2 instanceof List<?> l ? l.size() : 0;
                out.add(n1 < n2 ? "added some series to card " + cardId
                        : n1 > n2 ? "removed some series from card " + cardId : "modified the series on card " + cardId);
            }
        }
        return out;
    }

    /** "added a card" / "added 2 cards" / "removed a tab" when one id set contains the other, else {@code otherwise}. */
    private static String counted(Set<Object> ids1, Set<Object> ids2, String noun, String otherwise) {
        int diff = Math.abs(ids1.size() - ids2.size());
        String what = diff == 1 ? "a " + noun : diff + " " + noun + "s";
        if (ids2.containsAll(ids1) && ids1.size() < ids2.size()) {
            return "added " + what;
        }
        if (ids1.containsAll(ids2) && ids1.size() > ids2.size()) {
            return "removed " + what;
        }
        return otherwise;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> maps(Object value) {
        List<Map<String, Object>> out = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> m) {
                    out.add((Map<String, Object>) m);
                }
            }
        }
        return out;
    }

    private static Set<Object> ids(List<Map<String, Object>> items) {
        Set<Object> out = new java.util.HashSet<>();
        items.forEach(i -> out.add(Json.write(i.get("id"))));
        return out;
    }

    private static Set<Object> withoutPosition(List<Map<String, Object>> tabs) {
        Set<Object> out = new java.util.HashSet<>();
        for (Map<String, Object> t : tabs) {
            Map<String, Object> copy = new LinkedHashMap<>(t);
            copy.remove("position");
            out.add(Json.write(copy));
        }
        return out;
    }

    /** One phrase per changed key that Metabase describes ("renamed this Card from "A" to "B""), in key order. */
    static List<String> describeFields(String model, Map<String, Object> before, Map<String, Object> after,
            LongFunction<String> collectionName) {
        List<String> out = new ArrayList<>();
        for (String key : changedKeys(before, after)) {
            String identifier = out.isEmpty() ? "this " + model : "it";
            String phrase = phrase(key, before.get(key), after.get(key), identifier, collectionName);
            if (phrase != null) {
                out.add(phrase);
            }
        }
        return out;
    }

    private static String phrase(String key, Object v1, Object v2, String identifier, LongFunction<String> collectionName) {
        switch (key) {
            case "name":
                return "renamed " + identifier + " from \"" + v1 + "\" to \"" + v2 + "\"";
            case "description":
                return v1 == null ? "added a description" : "changed the description";
            case "public_uuid":
                return v2 == null ? "made " + identifier + " private" : v1 == null ? "made " + identifier + " public" : null;
            case "enable_embedding":
                return Boolean.TRUE.equals(v2) ? "enabled embedding" : "disabled embedding";
            case "parameters":
                return "changed the filters";
            case "embedding_params":
                return "changed the embedding parameters";
            case "archived":
                return Boolean.TRUE.equals(v2) ? "trashed " + identifier : "untrashed " + identifier;
            case "collection_position":
                return "changed pin position";
            case "collection_id": {
                String to = v2 instanceof Number n ? String.valueOf(collectionName.apply(n.longValue())) : "Our analytics";
                if (v1 instanceof Number n) {
                    return "moved " + identifier + " from " + collectionName.apply(n.longValue()) + " to " + to;
                }
                return "moved " + identifier + " to " + to;
            }
            case "visualization_settings":
                return "changed the visualization settings";
            case "parameter_mappings":
                return "changed the filter mapping";
            case "collection_preview":
                return Boolean.TRUE.equals(v2) ? "enabled collection review" : "disabled collection preview";
            case "dataset_query":
                return "modified the query";
            case "type":
                if ("question".equals(v1) && "model".equals(v2)) {
                    return "turned this to a model";
                }
                return "type changed from " + v1 + " to " + v2;
            case "display":
                return "changed the display from " + v1 + " to " + v2;
            case "result_metadata":
                return "edited the metadata";
            case "width":
                return v1 != null && v2 != null ? "changed the width setting from " + v1 + " to " + v2 : "changed the width setting";
            default:
                return null;
        }
    }

    /** "a." / "a and b." / "a, b and c." */
    public static String sentence(List<String> parts) {
        if (parts.size() == 1) {
            return parts.get(0) + ".";
        }
        if (parts.size() == 2) {
            return parts.get(0) + " and " + parts.get(1) + ".";
        }
        return parts.get(0) + ", " + sentence(parts.subList(1, parts.size()));
    }
}
