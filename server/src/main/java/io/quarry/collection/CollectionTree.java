package io.quarry.collection;

import io.quarry.appdb.Db;
import io.quarry.core.Caller;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/collection/tree}: the readable collections of a namespace as a tree. A readable collection below
 * one the caller cannot read hangs from its nearest readable ancestor (or the top). Three queries whatever the size:
 * the collections, the card types per collection, the collections holding dashboards (snippets).
 */
public final class CollectionTree {
    private final Db db;
    private final CollectionService collections;

    public CollectionTree(Db db, CollectionService collections) {
        this.db = db;
        this.collections = collections;
    }

    public List<Map<String, Object>> tree(Caller caller, boolean excludeArchived, boolean excludeOtherUsers, boolean shallow,
                                          String namespace, Long collectionId) {
        collections.ensurePersonalCollections();
        String ns = CollectionService.normalizeNamespace(namespace);
        CollectionService.Rights rights = collections.rights(caller, ns);
        return db.tx(session -> {
            CollectionMapper m = session.getMapper(CollectionMapper.class);
            List<CollectionRow> rows = m.listCollections(ns, excludeArchived ? Boolean.FALSE : null, false);
            java.util.function.Predicate<CollectionRow> othersPersonal = CollectionService.othersPersonal(caller, rows);
            Map<Long, CollectionRow> kept = new LinkedHashMap<>();
            for (CollectionRow c : rows) {
                if (!rights.canRead(c.id)) {
                    continue;
                }
                if (excludeOtherUsers && othersPersonal.test(c)) {
                    continue;
                }
                kept.put(c.id, c);
            }
            // children of each collection (null = top level), in the listing's order (official first, then by name)
            Map<Long, List<CollectionRow>> children = new LinkedHashMap<>();
            for (CollectionRow c : kept.values()) {
                children.computeIfAbsent(effectiveParent(c, kept), k -> new ArrayList<>()).add(c);
            }
            if (shallow) {
                List<Map<String, Object>> out = new ArrayList<>();
                for (CollectionRow c : children.getOrDefault(collectionId, List.of())) {
                    Map<String, Object> v = collections.view(c, rights);
                    v.put("children", children.containsKey(c.id));
                    out.add(v);
                }
                Map<String, Object> t = trashNode(m, ns, excludeArchived, collectionId, rights);
                if (t != null) {
                    t.put("children", false);
                    out.add(t);
                }
                return out;
            }
            // every collection of the namespace is in rows unless archived ones were left out: reuse them then
            ContentTypes types = excludeArchived ? ContentTypes.load(m, ns, null, kept::containsKey)
                    : ContentTypes.fromRows(m, ns, rows, kept::containsKey);
            List<Map<String, Object>> out = build(null, children, types, rights);
            Map<String, Object> t = trashNode(m, ns, excludeArchived, null, rights);
            if (t != null) {
                t.put("effective_location", "/");
                t.put("children", List.of());
                out.add(t);
            }
            return out;
        });
    }

    /**
     * Metabase's tree ends with the Trash (a top-level collection of the default namespace) unless archived things
     * are left out.
     */
    private Map<String, Object> trashNode(CollectionMapper m, String ns, boolean excludeArchived, Long under,
                                         CollectionService.Rights rights) {
        if (excludeArchived || ns != null || under != null) {
            return null;
        }
        CollectionRow t = m.findCollection(collections.trash().id());
        return t == null ? null : collections.view(t, rights);
    }

    private List<Map<String, Object>> build(Long parent, Map<Long, List<CollectionRow>> children, ContentTypes types,
                                            CollectionService.Rights rights) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (CollectionRow c : children.getOrDefault(parent, List.of())) {
            Map<String, Object> v = collections.view(c, rights);
            v.put("effective_location", rights.effectiveLocation(c));
            types.annotate(c.id, v);
            v.put("children", build(c.id, children, types, rights));
            out.add(v);
        }
        return out;
    }

    /** The nearest ancestor in {@code kept}, or null for the top. */
    static Long effectiveParent(CollectionRow c, Map<Long, CollectionRow> kept) {
        long[] ids = c.ancestorIds();
        for (int i = ids.length - 1; i >= 0; i--) {
            if (kept.containsKey(ids[i])) {
                return ids[i];
            }
        }
        return null;
    }
}
