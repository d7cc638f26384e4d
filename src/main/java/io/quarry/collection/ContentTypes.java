package io.quarry.collection;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The {@code here} and {@code below} sets of collections: which kinds of items live directly in each collection
 * ({@code card}, {@code dataset}, {@code metric}, {@code dashboard}, {@code snippet}, and {@code collection} when a
 * child collection is visible there) and anywhere in its subtree. Built from a few set-based queries, never one per
 * collection. Each set is a bit mask over the kinds in alphabetical order, so it is written out sorted.
 */
final class ContentTypes {
    /** The kinds, alphabetically: bit i stands for KINDS[i]. */
    private static final String[] KINDS = {"card", "collection", "dashboard", "dataset", "metric", "snippet"};
    private static final int CARD = 1;
    private static final int COLLECTION = 1 << 1;
    private static final int DASHBOARD = 1 << 2;
    private static final int DATASET = 1 << 3;
    private static final int METRIC = 1 << 4;
    private static final int SNIPPET = 1 << 5;
    /** The sorted list of kinds of every mask, built once. */
    private static final List<List<String>> LISTS = new ArrayList<>();

    static {
        for (int mask = 0; mask < 1 << KINDS.length; mask++) {
            List<String> kinds = new ArrayList<>();
            for (int i = 0; i < KINDS.length; i++) {
                if ((mask & 1 << i) != 0) {
                    kinds.add(KINDS[i]);
                }
            }
            LISTS.add(List.copyOf(kinds));
        }
    }

    private final Map<Long, Integer> here = new HashMap<>();
    private final Map<Long, Integer> below = new HashMap<>();

    private ContentTypes() {
    }

    /** id, location and archived flag of one collection. */
    private record Placed(Long id, String location, boolean archived) {
    }

    /**
     * @param prefix   only collections whose location starts with this (null = the whole namespace)
     * @param readable which collections the caller sees (decides where a child collection shows up)
     */
    static ContentTypes load(CollectionMapper m, String namespace, String prefix, Predicate<Long> readable) {
        List<Placed> placed = new ArrayList<>();
        for (CollectionMapper.Node n : m.nodes(namespace, prefix)) {
            placed.add(new Placed(n.id(), n.location(), n.archived()));
        }
        return load(m, namespace, placed, prefix == null || "/".equals(prefix), readable);
    }

    /** The same from every collection of a namespace, already read (archived ones included). */
    static ContentTypes fromRows(CollectionMapper m, String namespace, Collection<CollectionRow> wholeNamespace,
                                 Predicate<Long> readable) {
        List<Placed> placed = new ArrayList<>(wholeNamespace.size());
        for (CollectionRow c : wholeNamespace) {
            placed.add(new Placed(c.id, c.location, c.archived));
        }
        return load(m, namespace, placed, true, readable);
    }

    private static ContentTypes load(CollectionMapper m, String namespace, List<Placed> placed, boolean everything,
                                         Predicate<Long> readable) {
        ContentTypes t = new ContentTypes();
        Map<Long, Placed> nodes = new HashMap<>(placed.size() * 2);
        for (Placed n : placed) {
            nodes.put(n.id(), n);
        }
        if (nodes.isEmpty()) {
            return t;
        }
        // a subtree: look its collections up by id (index on collection_id) in chunks; everything: one scan each
        List<List<Long>> chunks = new ArrayList<>();
        if (everything) {
            chunks.add(null);
        } else {
            List<Long> ids = new ArrayList<>(nodes.keySet());
            for (int i = 0; i < ids.size(); i += 1000) {
                chunks.add(ids.subList(i, Math.min(ids.size(), i + 1000)));
            }
        }
        for (List<Long> chunk : chunks) {
            for (CollectionMapper.KindsRow row : m.cardKinds(namespace, chunk)) {
                if (nodes.containsKey(row.collectionId())) {
                    int kinds = row.kinds();
                    t.add(row.collectionId(), ((kinds & 1) != 0 ? CARD : 0) | ((kinds & 2) != 0 ? DATASET : 0)
                            | ((kinds & 4) != 0 ? METRIC : 0));
                }
            }
            for (Long id : m.dashboardCollections(chunk)) {
                if (nodes.containsKey(id)) {
                    t.add(id, DASHBOARD);
                }
            }
            for (Long id : m.snippetCollections(chunk)) {
                if (nodes.containsKey(id)) {
                    t.add(id, SNIPPET);
                }
            }
        }
        // a visible, unarchived child collection counts where the caller sees it: under its nearest readable ancestor
        for (Placed n : nodes.values()) {
            if (n.archived() || !readable.test(n.id())) {
                continue;
            }
            long[] ids = Locations.ids(n.location());
            for (int i = ids.length - 1; i >= 0; i--) {
                if (readable.test(ids[i])) {
                    t.add(ids[i], COLLECTION);
                    break;
                }
            }
        }
        for (Map.Entry<Long, Integer> e : t.here.entrySet()) {
            Placed n = nodes.get(e.getKey());
            if (n == null) {
                continue;
            }
            int kinds = e.getValue();
            for (long ancestor : Locations.ids(n.location())) {
                t.below.merge(ancestor, kinds, (a, b) -> a | b);
            }
        }
        return t;
    }

    private void add(Long id, int kind) {
        here.merge(id, kind, (a, b) -> a | b);
    }

    /** The kinds directly in a collection, sorted; empty when none. */
    List<String> here(Long id) {
        return LISTS.get(here.getOrDefault(id, 0));
    }

    /** The kinds anywhere below a collection, sorted; empty when none. */
    List<String> below(Long id) {
        return LISTS.get(below.getOrDefault(id, 0));
    }

    /** Puts {@code here} and {@code below} on a collection's map, each only when not empty (as Metabase does). */
    void annotate(Long id, Map<String, Object> view) {
        List<String> h = here(id);
        if (!h.isEmpty()) {
            view.put("here", h);
        }
        List<String> b = below(id);
        if (!b.isEmpty()) {
            view.put("below", b);
        }
    }
}
