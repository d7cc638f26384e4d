package io.quarry.collection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The {@code here} and {@code below} sets of collections: which kinds of items live directly in each collection
 * ({@code card}, {@code dataset}, {@code metric}, {@code dashboard}, {@code snippet}, and {@code collection} when a
 * child collection is visible there) and anywhere in its subtree. Built from a few set-based queries, never one per
 * collection.
 */
final class ContentTypes {
    private final Map<Long, Set<String>> here = new HashMap<>();
    private final Map<Long, Set<String>> below = new HashMap<>();

    private ContentTypes() {
    }

    /**
     * @param prefix   only collections whose location starts with this (null = the whole namespace)
     * @param readable which collections the caller sees (decides where a child collection shows up)
     */
    static ContentTypes load(CollectionMapper m, String namespace, String prefix, Predicate<Long> readable) {
        ContentTypes t = new ContentTypes();
        Map<Long, CollectionMapper.Node> nodes = new HashMap<>();
        for (CollectionMapper.Node n : m.nodes(namespace, prefix)) {
            nodes.put(n.id(), n);
        }
        if (nodes.isEmpty()) {
            return t;
        }
        // a subtree: look its collections up by id (index on collection_id) in chunks; everything: one scan each
        List<List<Long>> chunks = new ArrayList<>();
        if (prefix == null || "/".equals(prefix)) {
            chunks.add(null);
        } else {
            List<Long> ids = new ArrayList<>(nodes.keySet());
            for (int i = 0; i < ids.size(); i += 1000) {
                chunks.add(ids.subList(i, Math.min(ids.size(), i + 1000)));
            }
        }
        for (List<Long> chunk : chunks) {
            for (CollectionMapper.TypeRow row : m.cardTypes(chunk)) {
                if (nodes.containsKey(row.collectionId())) {
                    t.add(row.collectionId(), switch (row.type()) {
                        case "model" -> "dataset";
                        case "metric" -> "metric";
                        default -> "card";
                    });
                }
            }
            for (Long id : m.dashboardCollections(chunk)) {
                if (nodes.containsKey(id)) {
                    t.add(id, "dashboard");
                }
            }
            for (Long id : m.snippetCollections(chunk)) {
                if (nodes.containsKey(id)) {
                    t.add(id, "snippet");
                }
            }
        }
        // a visible, unarchived child collection counts where the caller sees it: under its nearest readable ancestor
        for (CollectionMapper.Node n : nodes.values()) {
            if (n.archived() || !readable.test(n.id())) {
                continue;
            }
            long[] ids = Locations.ids(n.location());
            for (int i = ids.length - 1; i >= 0; i--) {
                if (readable.test(ids[i])) {
                    t.add(ids[i], "collection");
                    break;
                }
            }
        }
        for (Map.Entry<Long, Set<String>> e : Map.copyOf(t.here).entrySet()) {
            CollectionMapper.Node n = nodes.get(e.getKey());
            if (n == null) {
                continue;
            }
            for (long ancestor : Locations.ids(n.location())) {
                t.below.computeIfAbsent(ancestor, k -> new TreeSet<>()).addAll(e.getValue());
            }
        }
        return t;
    }

    private void add(Long id, String type) {
        here.computeIfAbsent(id, k -> new TreeSet<>()).add(type);
    }

    /** Puts {@code here} and {@code below} on a collection's map, each only when not empty (as Metabase does). */
    void annotate(Long id, Map<String, Object> view) {
        Set<String> h = here.get(id);
        if (h != null && !h.isEmpty()) {
            view.put("here", h);
        }
        Set<String> b = below.get(id);
        if (b != null && !b.isEmpty()) {
            view.put("below", b);
        }
    }
}
