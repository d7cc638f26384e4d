package io.quarry.collection;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
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
    /** Listed collections summarised per statement (see {@link #forListed}). */
    private static final int SUBTREE_BATCH = 10;
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

    /**
     * {@code here} and {@code below} of the listed collections only (an items page), without visiting every
     * collection of their subtrees: {@code here} from the listed ids, {@code below} from one EXISTS per kind and
     * subtree (stopping at the first hit). Where a child collection shows up depends on the caller's rights: when the
     * caller reads everything that is SQL too; otherwise the collections of {@code scope} (a location prefix, null =
     * the whole namespace, holding every listed subtree) are placed by the caller's rights as in {@link #load}.
     *
     * @param listed (id, location) of each listed collection
     */
    static ContentTypes forListed(CollectionMapper m, String namespace, Map<Long, String> listed, boolean readsAll,
                                  String scope, Predicate<Long> readable) {
        ContentTypes t = new ContentTypes();
        if (listed.isEmpty()) {
            return t;
        }
        List<Long> ids = new ArrayList<>(listed.keySet());
        for (int i = 0; i < ids.size(); i += 500) {
            List<Long> chunk = ids.subList(i, Math.min(ids.size(), i + 500));
            for (CollectionMapper.KindsRow row : m.cardKinds(namespace, chunk)) {
                t.add(row.collectionId(), fromSql(row.kinds()));
            }
            for (Long id : m.dashboardCollections(chunk)) {
                t.add(id, DASHBOARD);
            }
            for (Long id : m.snippetCollections(chunk)) {
                t.add(id, SNIPPET);
            }
            List<CollectionMapper.KindsRow> rows = new ArrayList<>();
            // batches of one fixed size (the last one padded with repeats): the statement text stays the same, so
            // the database's statement cache spares parsing a new UNION for every page size
            for (int j = 0; j < chunk.size(); j += SUBTREE_BATCH) {
                List<CollectionMapper.Subtree> subtrees = new ArrayList<>(SUBTREE_BATCH);
                for (int k = j; k < j + SUBTREE_BATCH; k++) {
                    Long id = chunk.get(Math.min(k, chunk.size() - 1));
                    subtrees.add(CollectionMapper.Subtree.of(id, listed.get(id) + id + "/"));
                }
                rows.addAll(m.subtreeKinds(namespace, subtrees));
            }
            for (CollectionMapper.KindsRow row : rows) {
                int k = row.kinds();
                int below = fromSql(k);
                if (readsAll) {
                    // every collection is readable: a child's nearest readable ancestor is its parent
                    below |= (k & 32) != 0 ? COLLECTION : 0;
                    if ((k & 64) != 0) {
                        t.add(row.collectionId(), COLLECTION);
                    }
                }
                if (below != 0) {
                    t.below.merge(row.collectionId(), below, (a, b) -> a | b);
                }
            }
        }
        if (!readsAll) {
            // a visible, unarchived collection counts under its nearest readable ancestor (here), and below that
            // ancestor's ancestors
            Map<Long, String> locations = new HashMap<>();
            List<Long> counted = new ArrayList<>();
            for (CollectionMapper.Node n : m.nodes(namespace, scope)) {
                locations.put(n.id(), n.location());
                if (n.archived() || !readable.test(n.id())) {
                    continue;
                }
                long[] path = Locations.ids(n.location());
                for (int i = path.length - 1; i >= 0; i--) {
                    if (readable.test(path[i])) {
                        counted.add(path[i]);
                        break;
                    }
                }
            }
            Set<Long> holding = new HashSet<>(counted);
            for (Long id : holding) {
                if (listed.containsKey(id)) {
                    t.add(id, COLLECTION);
                }
                String location = locations.get(id);
                if (location == null) {
                    continue;
                }
                for (long ancestor : Locations.ids(location)) {
                    if (listed.containsKey(ancestor)) {
                        t.below.merge(ancestor, COLLECTION, (a, b) -> a | b);
                    }
                }
            }
        }
        return t;
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
                    t.add(row.collectionId(), fromSql(row.kinds()));
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

    /**
     * The mapper's masks (1 question, 2 model, 4 metric, 8 dashboard, 16 snippet; higher bits are about collections)
     * as this class's bits.
     */
    private static int fromSql(int k) {
        return ((k & 1) != 0 ? CARD : 0) | ((k & 2) != 0 ? DATASET : 0) | ((k & 4) != 0 ? METRIC : 0)
                | ((k & 8) != 0 ? DASHBOARD : 0) | ((k & 16) != 0 ? SNIPPET : 0);
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
