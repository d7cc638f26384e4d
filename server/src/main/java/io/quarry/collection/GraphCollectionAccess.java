package io.quarry.collection;

import io.quarry.appdb.Db;
import io.quarry.appdb.RevisionCache;
import io.quarry.collection.CollectionPermissionMapper.Grant;
import io.quarry.core.Caller;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.List;
import java.util.Set;

/**
 * Collection rights from the permission graph (table {@code collection_permission}): a user has the best right any of
 * their groups has on a collection; superusers write everything; a personal collection and its subtree belong to
 * its owner alone (superusers too). Rights are per collection — a child does not inherit them at read time, it gets a
 * copy of its parent's when created, as in Metabase.
 */
public final class GraphCollectionAccess implements CollectionAccess {
    /** Namespace of snippet folders; Metabase's spec calls it {@code snippet}, real clients send {@code snippets}. */
    public static final String SNIPPETS = "snippets";

    private final Db db;
    private final Trash trash;
    /** A user's level on a collection (or on the root of a namespace), until the permission graph or content changes. */
    private final RevisionCache<LevelKey, Level> levels;

    private record LevelKey(long userId, Long collectionId, String rootNamespace) {
    }

    public GraphCollectionAccess(Db db) {
        this.db = db;
        this.trash = new Trash(db);
        this.levels = db.cache(10_000);
    }

    @Override
    public Level level(Caller caller, Long collectionId) {
        if (trash.is(collectionId)) {
            // everyone may look into the Trash; nothing is ever put there by hand
            return caller.authenticated() ? Level.READ : Level.NONE;
        }
        if (!caller.authenticated()) {
            return Level.NONE;
        }
        if (caller.superuser()) {
            return Level.WRITE;
        }
        if (collectionId == null) {
            return rootLevel(caller, null);
        }
        // one collection: its own placement and grants (indexed look-ups), not visible()'s pass over every collection
        long userId = caller.id();
        return levels.get(new LevelKey(userId, collectionId, null), key -> levelOf(userId, collectionId));
    }

    private Level levelOf(long userId, long collectionId) {
        return db.tx(session -> {
            CollectionPermissionMapper mapper = session.getMapper(CollectionPermissionMapper.class);
            CollectionPermissionMapper.Placed c = mapper.placed(collectionId);
            Long owner = c == null ? null : c.personalOwnerId();
            if (c != null && owner == null) {
                long[] ancestors = Locations.ids(c.location());
                if (ancestors.length > 0) {
                    CollectionPermissionMapper.Placed top = mapper.placed(ancestors[0]);
                    owner = top == null ? null : top.personalOwnerId();
                }
            }
            if (owner != null) {
                // a personal collection and its subtree: the owner's alone, whatever a graph row says
                return owner == userId ? Level.WRITE : Level.NONE;
            }
            Level best = Level.NONE;
            for (String perm : mapper.permsOfUserOn(userId, collectionId)) {
                best = max(best, "write".equals(perm) ? Level.WRITE : Level.READ);
            }
            return best;
        });
    }

    @Override
    public Level rootLevel(Caller caller, String namespace) {
        if (!caller.authenticated()) {
            return Level.NONE;
        }
        if (caller.superuser()) {
            return Level.WRITE;
        }
        String wanted = normalizeNamespace(namespace);
        return levels.get(new LevelKey(caller.id(), null, wanted == null ? "" : "ns:" + wanted), key -> rootLevelOf(key.userId(), wanted));
    }

    private Level rootLevelOf(long userId, String wanted) {
        Level best = Level.NONE;
        for (Grant grant : db.with(CollectionPermissionMapper.class, m -> m.grantsOfUser(userId))) {
            if (grant.collectionId() == null && java.util.Objects.equals(normalizeNamespace(grant.namespace()), wanted)) {
                best = max(best, "write".equals(grant.perm()) ? Level.WRITE : Level.READ);
            }
        }
        return best;
    }

    @Override
    public Visible visible(Caller caller) {
        if (!caller.authenticated()) {
            return new Visible(false, false, false, Set.of(), Set.of());
        }
        if (caller.superuser()) {
            return new Visible(true, true, true, Set.of(), Set.of());
        }
        long userId = caller.id();
        return db.tx(session -> {
            CollectionPermissionMapper mapper = session.getMapper(CollectionPermissionMapper.class);
            List<Grant> grants = mapper.grantsOfUser(userId);
            Set<Long> readable = new HashSet<>();
            Set<Long> writable = new HashSet<>();
            boolean root = false;
            boolean rootWritable = false;
            for (Grant grant : grants) {
                boolean write = "write".equals(grant.perm());
                if (grant.collectionId() == null) {
                    if (grant.namespace() == null) {
                        root = true;
                        rootWritable |= write;
                    }
                    continue;
                }
                readable.add(grant.collectionId());
                if (write) {
                    writable.add(grant.collectionId());
                }
            }
            // personal collections: nobody else's, whatever a graph row says; one's own always. The subtrees are
            // found from the locations in one pass (a LIKE join per personal collection is quadratic).
            Map<Long, Long> ownerOf = new HashMap<>();
            for (CollectionPermissionMapper.Placed p : mapper.personalCollections()) {
                ownerOf.put(p.id(), p.personalOwnerId());
            }
            if (!ownerOf.isEmpty()) {
                Set<Long> own = new HashSet<>();
                Set<Long> others = new HashSet<>();
                ownerOf.forEach((id, owner) -> (owner == userId ? own : others).add(id));
                for (CollectionPermissionMapper.Placed p : mapper.nestedCollections()) {
                    long[] ids = Locations.ids(p.location());
                    Long owner = ids.length == 0 ? null : ownerOf.get(ids[0]);
                    if (owner != null) {
                        (owner == userId ? own : others).add(p.id());
                    }
                }
                readable.removeAll(others);
                writable.removeAll(others);
                readable.addAll(own);
                writable.addAll(own);
            }
            return new Visible(false, root, rootWritable, Set.copyOf(readable), Set.copyOf(writable));
        });
    }

    static String normalizeNamespace(String namespace) {
        return namespace == null || namespace.isEmpty() ? null : "snippet".equals(namespace) ? SNIPPETS : namespace;
    }

    private static Level max(Level a, Level b) {
        return a.ordinal() >= b.ordinal() ? a : b;
    }
}
