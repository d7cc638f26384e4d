package io.quarry.revision;

import io.quarry.web.Json;
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

    /** One phrase per changed key that Metabase describes ("renamed this Card from "A" to "B""), in key order. */
    public static List<String> describe(String model, Map<String, Object> before, Map<String, Object> after,
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
