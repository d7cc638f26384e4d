package io.quarry.collection;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.ColumnLengths;
import io.quarry.appdb.Db;
import io.quarry.collection.CollectionAccess.Visible;
import io.quarry.core.Caller;
import io.quarry.core.EntityIds;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import io.quarry.web.param.Patch;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;

/**
 * Collections: creating, reading, renaming, moving (with the whole subtree, in one transaction), archiving and
 * unarchiving (the subtree and its cards and dashboards, as one archive operation), and users' personal collections.
 */
public final class CollectionService {
    public static final String ROOT_NAME = "Our analytics";
    public static final String SNIPPETS_ROOT_NAME = "Top folder";

    private final Db db;
    private final CollectionAccess access;
    private final Clock clock;
    private final Trash trash;
    private final List<CollectionContents> contents = new java.util.concurrent.CopyOnWriteArrayList<>();

    public CollectionService(Db db, CollectionAccess access, Clock clock) {
        this.db = db;
        this.access = access;
        this.clock = clock;
        this.trash = new Trash(db);
    }

    public Trash trash() {
        return trash;
    }

    /** A module whose content a deleted collection takes with it (registered once, at start-up). */
    public void registerContents(CollectionContents moduleContents) {
        contents.add(moduleContents);
    }

    /** What a caller may read and write in one namespace, Root included. */
    public record Rights(Visible visible, boolean rootRead, boolean rootWrite, Set<Long> personalIds) {
        public boolean canRead(Long id) {
            return id == null ? rootRead : visible.canRead(id);
        }

        /** Whether the collection may be seen: the Trash always, others by rights. */
        public boolean canRead(CollectionRow c) {
            return Trash.isTrash(c) || canRead(c.id);
        }

        public boolean canWrite(Long id) {
            return id == null ? rootWrite : visible.canWrite(id);
        }

        /** A personal collection or anything below one. */
        public boolean isPersonal(CollectionRow c) {
            if (c.personalOwnerId != null) {
                return true;
            }
            long[] ids = c.ancestorIds();
            return ids.length > 0 && personalIds.contains(ids[0]);
        }

        /** The location made of the ancestors the caller can read. */
        public String effectiveLocation(CollectionRow c) {
            long[] ids = c.ancestorIds();
            StringBuilder sb = new StringBuilder("/");
            for (long id : ids) {
                if (visible.canRead(id)) {
                    sb.append(id).append('/');
                }
            }
            return sb.toString();
        }
    }

    public Rights rights(Caller caller, String namespace) {
        String ns = normalizeNamespace(namespace);
        Visible visible = access.visible(caller);
        boolean rootRead;
        boolean rootWrite;
        if (ns == null) {
            rootRead = visible.root() || visible.all();
            rootWrite = visible.rootWritable() || visible.all();
        } else {
            CollectionAccess.Level level = access.rootLevel(caller, ns);
            rootRead = level != CollectionAccess.Level.NONE;
            rootWrite = level == CollectionAccess.Level.WRITE;
        }
        Set<Long> personal = new HashSet<>(db.with(CollectionMapper.class, CollectionMapper::personalCollectionIds));
        return new Rights(visible, rootRead, rootWrite, personal);
    }

    /** {@code null} for the default namespace; Metabase's {@code snippet} and {@code snippets} are one namespace. */
    public static String normalizeNamespace(String namespace) {
        return GraphCollectionAccess.normalizeNamespace(namespace);
    }

    public CollectionRow find(long id) {
        return db.with(CollectionMapper.class, m -> m.findCollection(id));
    }

    public CollectionRow require(long id) {
        return Checks.found(find(id));
    }

    // --- personal collections ------------------------------------------------------------------------------------

    /** Creates the personal collection of every user who has none yet (lazily, as Metabase does). */
    public void ensurePersonalCollections() {
        List<CollectionMapper.Owner> missing = db.with(CollectionMapper.class, CollectionMapper::usersWithoutPersonalCollection);
        for (CollectionMapper.Owner owner : missing) {
            CollectionRow row = new CollectionRow();
            row.entityId = EntityIds.next();
            row.name = ColumnLengths.cut("collection", "name", personalName(owner.firstName(), owner.lastName(), owner.email()));
            row.slug = Locations.slug(row.name);
            row.location = "/";
            row.personalOwnerId = owner.id();
            row.createdAt = now();
            try {
                db.run(session -> session.getMapper(CollectionMapper.class).insertCollection(row));
            } catch (PersistenceException e) {
                // a concurrent request created it first (unique personal_owner_id); anything else is a real failure
                if (db.with(CollectionMapper.class, m -> m.personalCollectionId(owner.id())) == null) {
                    throw e;
                }
            }
        }
    }

    /** The user's personal collection id, creating it when missing. */
    public Long personalCollectionId(long userId) {
        Long id = db.with(CollectionMapper.class, m -> m.personalCollectionId(userId));
        if (id == null) {
            ensurePersonalCollections();
            id = db.with(CollectionMapper.class, m -> m.personalCollectionId(userId));
        }
        return id;
    }

    /** "First Last's Personal Collection"; the email stands in when both names are missing. */
    public static String personalName(String first, String last, String email) {
        String common = ((first == null ? "" : first) + " " + (last == null ? "" : last)).trim();
        if (common.isEmpty()) {
            common = email;
        }
        return common + "'s Personal Collection";
    }

    static String displayName(CollectionRow c) {
        return c.personalOwnerId != null && (c.ownerEmail != null)
                ? personalName(c.ownerFirstName, c.ownerLastName, c.ownerEmail) : c.name;
    }

    // --- views ----------------------------------------------------------------------------------------------------

    /** The collection as lists show it: its columns, can_write, is_personal. */
    public Map<String, Object> view(CollectionRow c, Rights rights) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("authority_level", c.authorityLevel);
        v.put("description", c.description);
        v.put("archived", c.archived);
        v.put("slug", c.slug);
        v.put("archive_operation_id", c.archiveOperationId);
        v.put("archived_directly", c.archivedDirectly);
        v.put("name", displayName(c));
        v.put("personal_owner_id", c.personalOwnerId);
        v.put("type", c.collectionType);
        v.put("is_sample", c.isSample);
        v.put("id", c.id);
        v.put("entity_id", c.entityId);
        v.put("location", c.location);
        v.put("namespace", c.namespace);
        v.put("created_at", c.createdAt);
        boolean isTrash = Trash.isTrash(c);
        boolean canWrite = !isTrash && rights.canWrite(c.id);
        v.put("can_write", canWrite);
        v.put("is_personal", !isTrash && rights.isPersonal(c));
        v.put("can_restore", canWrite && c.archived && Boolean.TRUE.equals(c.archivedDirectly) && rights.canWrite(c.parentId()));
        v.put("can_delete", false);
        return v;
    }

    /** can_restore, knowing whether the collection it would go back to is archived itself. */
    boolean canRestore(CollectionRow c, Rights rights) {
        return canRestore(c, rights, this::find);
    }

    /** The same, finding the parent with {@code parents} (a map already read, in lists). */
    static boolean canRestore(CollectionRow c, Rights rights, java.util.function.Function<Long, CollectionRow> parents) {
        if (!c.archived || !Boolean.TRUE.equals(c.archivedDirectly) || !rights.canWrite(c.id) || !rights.canWrite(c.parentId())) {
            return false;
        }
        Long parentId = c.parentId();
        CollectionRow parent = parentId == null ? null : parents.apply(parentId);
        return parentId == null || (parent != null && !parent.archived);
    }

    /** The collection with Metabase's standard details: parent_id, effective_location, effective_ancestors. */
    public Map<String, Object> detail(CollectionRow c, Rights rights) {
        Map<String, Object> v = view(c, rights);
        v.put("can_restore", canRestore(c, rights));
        v.put("parent_id", c.parentId());
        // something archived directly seems to sit in the Trash (as in Metabase)
        v.put("effective_location", Boolean.TRUE.equals(c.archivedDirectly) && c.archived ? trash.path()
                : rights.effectiveLocation(c));
        List<Map<String, Object>> ancestors = new ArrayList<>();
        ancestors.add(rootAncestor(c.namespace, rights));
        long[] ids = c.ancestorIds();
        if (ids.length > 0) {
            List<Long> list = new ArrayList<>();
            for (long id : ids) {
                if (rights.visible().canRead(id)) {
                    list.add(id);
                }
            }
            if (!list.isEmpty()) {
                Map<Long, CollectionRow> byId = new LinkedHashMap<>();
                for (CollectionRow a : db.with(CollectionMapper.class, m -> m.collectionsByIds(list))) {
                    byId.put(a.id, a);
                }
                for (Long id : list) {
                    CollectionRow a = byId.get(id);
                    if (a != null) {
                        Map<String, Object> av = new LinkedHashMap<>();
                        av.put("id", a.id);
                        av.put("name", displayName(a));
                        av.put("personal_owner_id", a.personalOwnerId);
                        av.put("type", a.collectionType);
                        av.put("authority_level", a.authorityLevel);
                        av.put("can_write", rights.canWrite(a.id));
                        av.put("is_personal", rights.isPersonal(a));
                        ancestors.add(av);
                    }
                }
            }
        }
        v.put("effective_ancestors", ancestors);
        return v;
    }

    private static Map<String, Object> rootAncestor(String namespace, Rights rights) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("metabase.collections.models.collection.root/is-root?", true);
        root.put("authority_level", null);
        root.put("name", SNIPPETS_NAMESPACE.equals(namespace) ? SNIPPETS_ROOT_NAME : ROOT_NAME);
        root.put("is_personal", false);
        root.put("id", "root");
        root.put("can_write", rights.rootWrite());
        return root;
    }

    private static final String SNIPPETS_NAMESPACE = GraphCollectionAccess.SNIPPETS;

    /** The virtual Root collection of a namespace (COMPAT §8), with its details. */
    public Map<String, Object> root(String namespace, Rights rights) {
        String ns = normalizeNamespace(namespace);
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("authority_level", null);
        v.put("name", SNIPPETS_NAMESPACE.equals(ns) ? SNIPPETS_ROOT_NAME : ROOT_NAME);
        v.put("is_personal", false);
        v.put("id", "root");
        v.put("namespace", ns);
        v.put("can_write", rights.rootWrite());
        v.put("effective_location", null);
        v.put("effective_ancestors", List.of());
        v.put("parent_id", null);
        v.put("can_restore", false);
        v.put("can_delete", false);
        return v;
    }

    // --- list -------------------------------------------------------------------------------------------------------

    /** {@code GET /api/collection}: collections the caller can read, the Root first (when readable and listed). */
    public List<Map<String, Object>> list(Caller caller, boolean archived, boolean excludeOtherUsers, boolean personalOnly,
                                          String namespace) {
        ensurePersonalCollections();
        String ns = normalizeNamespace(namespace);
        Rights rights = rights(caller, ns);
        List<CollectionRow> rows = db.with(CollectionMapper.class, m -> m.listCollections(ns, archived, personalOnly));
        java.util.function.Predicate<CollectionRow> othersPersonal = othersPersonal(caller, rows);
        List<Map<String, Object>> out = new ArrayList<>();
        if (!archived && !personalOnly && rights.rootRead()) {
            Map<String, Object> root = root(ns, rights);
            root.remove("effective_location");
            root.remove("effective_ancestors");
            root.remove("parent_id");
            out.add(root);
        }
        for (CollectionRow c : rows) {
            if (!rights.canRead(c.id)) {
                continue;
            }
            if (excludeOtherUsers && othersPersonal.test(c)) {
                continue;
            }
            out.add(view(c, rights));
        }
        if (archived && !personalOnly && ns == null) {
            // Metabase lists the Trash with the archived collections, after them
            CollectionRow t = find(trash.id());
            if (t != null) {
                out.add(view(t, rights));
            }
        }
        return out;
    }

    /** Whether a collection of {@code rows} is another user's personal collection or lies below one of {@code rows}. */
    static java.util.function.Predicate<CollectionRow> othersPersonal(Caller caller, List<CollectionRow> rows) {
        Set<Long> others = new HashSet<>();
        for (CollectionRow c : rows) {
            if (c.personalOwnerId != null && !caller.is(c.personalOwnerId)) {
                others.add(c.id);
            }
        }
        return c -> {
            long[] ids = c.ancestorIds();
            return others.contains(c.id) || (ids.length > 0 && others.contains(ids[0]));
        };
    }

    /** {@code GET /api/collection/trash}: the Trash with the standard details. */
    public Map<String, Object> trashDetail(Caller caller) {
        return detail(require(trash.id()), rights(caller, null));
    }

    // --- create -------------------------------------------------------------------------------------------------------

    public Map<String, Object> create(Caller caller, JsonNode json) {
        Body body = Body.of(json).storedIn("collection");
        String name = body.nonBlank("name");
        String description = body.optNonBlank("description");
        Long parentId = body.optPosInt("parent_id");
        String namespace = body.optNonBlank("namespace");
        String authority = body.optEnum("authority_level", "official");
        body.throwIfInvalid();
        String ns = normalizeNamespace(namespace);
        CollectionRow parent = null;
        if (parentId != null) {
            parent = require(parentId);
            if (Trash.isTrash(parent)) {
                throw ApiException.badRequest(Trash.CANNOT_MODIFY);
            }
            if (!body.hasValue("namespace")) {
                ns = parent.namespace;
            } else if (!Objects.equals(ns, parent.namespace)) {
                throw ApiException.badRequest("Collection must be in the same namespace as its parent");
            }
        }
        Rights rights = rights(caller, ns);
        Checks.permitted(rights.canWrite(parentId));
        if (authority != null) {
            Checks.permitted(caller.superuser());
        }
        if (parent != null && parent.archived) {
            throw ApiException.badRequest("You cannot create a Collection inside an archived Collection.");
        }
        CollectionRow row = new CollectionRow();
        row.entityId = EntityIds.next();
        row.name = name;
        row.description = description;
        row.slug = Locations.slug(name);
        row.location = parent == null ? "/" : parent.childLocation();
        row.namespace = ns;
        row.authorityLevel = authority;
        row.createdAt = now();
        final CollectionRow parentRow = parent;
        final String namespaceOfRow = ns;
        db.run(session -> {
            CollectionMapper m = session.getMapper(CollectionMapper.class);
            m.insertCollection(row);
            // a new collection starts with its parent's rights (Root's for a top-level one), as in Metabase;
            // below a personal collection nobody but the owner has any
            if (parentRow == null) {
                m.copyRootPermissions(namespaceOfRow, row.id);
            } else if (!rights.isPersonal(parentRow)) {
                m.copyCollectionPermissions(parentRow.id, row.id);
            }
        });
        return detail(require(row.id), rights(caller, ns));
    }

    /** The name of the collection saved transient dashboards go to, as Metabase names it. */
    public static final String GENERATED_DASHBOARDS = "Automatically Generated Dashboards";

    /**
     * The caller's {@link #GENERATED_DASHBOARDS} collection: the live one of that name under Root (superusers) or under
     * the caller's personal collection (everyone else), created with the rights of {@code POST /api/collection} when missing.
     */
    public long generatedDashboardsCollection(Caller caller) {
        Long parentId = caller.superuser() ? null : personalCollectionId(caller.id());
        String location = parentId == null ? "/" : require(parentId).childLocation();
        for (CollectionRow c : db.with(CollectionMapper.class, m -> m.collectionsUnder(null, location, true, false))) {
            if (GENERATED_DASHBOARDS.equals(c.name)) {
                return c.id;
            }
        }
        com.fasterxml.jackson.databind.node.ObjectNode body = io.quarry.core.Json.object();
        body.put("name", GENERATED_DASHBOARDS);
        if (parentId != null) {
            body.put("parent_id", parentId);
        }
        return ((Number) create(caller, body).get("id")).longValue();
    }

    // --- update, move, archive -------------------------------------------------------------------------------------

    public Map<String, Object> update(Caller caller, long id, JsonNode json) {
        Body body = Body.of(json).storedIn("collection");
        String name = body.optNonBlank("name");
        Patch<String> description = Patch.of(body, "description", Body::optNonBlank);
        Boolean archived = body.optBool("archived");
        Patch<Long> parent = Patch.of(body, "parent_id", Body::optPosInt);
        Patch<String> authority = Patch.of(body, "authority_level", (b, key) -> b.optEnum(key, "official"));
        body.throwIfInvalid();
        CollectionRow before = require(id);
        if (Trash.isTrash(before)) {
            throw ApiException.badRequest(Trash.CANNOT_MODIFY);
        }
        Rights rights = rights(caller, before.namespace);
        Checks.permitted(rights.canWrite(id));
        if (authority.changes(before.authorityLevel)) {
            Checks.permitted(caller.superuser());
        }
        boolean personal = before.personalOwnerId != null;
        boolean archiving = archived != null && archived && !before.archived;
        boolean unarchiving = archived != null && !archived && before.archived;
        if (personal && archiving) {
            throw ApiException.badRequest("You cannot archive a Personal Collection.");
        }
        // a move: parent_id given (null = Root) and the location would change
        String newLocation = null;
        CollectionRow newParent = null;
        if (parent.present() && !archiving) {
            Long parentId = parent.value();
            if (parentId != null) {
                newParent = require(parentId);
                if (Trash.isTrash(newParent)) {
                    throw ApiException.badRequest(Trash.CANNOT_MODIFY);
                }
                if (parentId == id || newParent.location.contains("/" + id + "/")) {
                    throw ApiException.badRequest("You cannot move a Collection into itself or into one of its descendants.");
                }
            }
            String target = newParent == null ? "/" : newParent.childLocation();
            if (!target.equals(before.location)) {
                if (personal) {
                    throw ApiException.badRequest("You cannot move a Personal Collection.");
                }
                if (newParent != null && !Objects.equals(newParent.namespace, before.namespace)) {
                    throw ApiException.badRequest("Collection must be in the same namespace as its parent");
                }
                if (newParent != null && newParent.archived) {
                    throw ApiException.badRequest("You cannot move a Collection into an archived Collection.");
                }
                Checks.permitted(rights.canWrite(before.parentId()) && rights.canWrite(parentId));
                newLocation = target;
            }
        }
        if (unarchiving) {
            if (!Boolean.TRUE.equals(before.archivedDirectly) || before.archiveOperationId == null) {
                throw ApiException.badRequest("This Collection was archived with its parent: unarchive the parent instead.");
            }
            Long oldParent = before.parentId();
            if (newLocation == null && oldParent != null) {
                CollectionRow p = find(oldParent);
                if (p != null && p.archived) {
                    throw ApiException.badRequest("The parent Collection is archived: give a parent_id to restore into.");
                }
            }
        }
        final String moveTo = newLocation;
        final CollectionRow target = newParent;
        db.run(session -> {
            CollectionMapper m = session.getMapper(CollectionMapper.class);
            boolean setName = name != null;
            if (setName || description.present() || authority.present()) {
                m.updateCollection(id, setName, name, setName ? Locations.slug(name) : null, description.present(),
                        description.value(), authority.present(), authority.value());
            }
            if (archiving) {
                String op = UUID.randomUUID().toString();
                m.archiveCollections(id, before.childLocation(), op);
                m.archiveCards(op);
                m.archiveDashboards(op);
            } else if (unarchiving) {
                String op = before.archiveOperationId;
                m.unarchiveCards(op);
                m.unarchiveDashboards(op);
                m.unarchiveCollections(op);
            }
            if (moveTo != null) {
                move(session, before, moveTo, target, rights);
            }
        });
        return detail(require(id), rights(caller, before.namespace));
    }

    // --- delete -------------------------------------------------------------------------------------------------------

    /**
     * {@code DELETE /api/collection/:id}: deletes a trashed collection for good, with everything below it, in one
     * transaction; answers {@code 1}, the collection's row (as Metabase). As Metabase: superusers only (403), the collection archived (400
     * {@code Collection must be trashed before deletion.}), of the default namespace, not personal; descendants that were
     * trashed on their own ({@code archived_directly}) are first moved up to the deleted collection's parent, so they
     * stay in the Trash. Cards and dashboards below go through their modules ({@link CollectionContents}); an unknown
     * id is a 404 (Metabase answers the "must be trashed" 400).
     */
    public int delete(Caller caller, long id) {
        CollectionRow c = require(id);
        Checks.permitted(caller.superuser());
        if (!c.archived || Trash.isTrash(c)) {
            throw ApiException.badRequest("Collection must be trashed before deletion.");
        }
        if (c.namespace != null) {
            throw ApiException.badRequest("Collections in non-nil namespaces cannot be deleted.");
        }
        if (c.personalOwnerId != null) {
            throw ApiException.badRequest("Personal collections cannot be deleted.");
        }
        Rights rights = rights(caller, null);
        String prefix = c.childLocation();
        List<CollectionRow> below = db.with(CollectionMapper.class, m -> m.collectionsUnder(null, prefix, false, null));
        // the top-most descendants trashed on their own leave with their subtrees; the rest goes
        List<CollectionRow> leaving = new ArrayList<>();
        for (CollectionRow d : below) {
            if (Boolean.TRUE.equals(d.archivedDirectly) && leaving.stream().noneMatch(l -> d.location.startsWith(l.childLocation()))) {
                leaving.removeIf(l -> l.location.startsWith(d.childLocation()));
                leaving.add(d);
            }
        }
        List<Long> doomed = new ArrayList<>();
        doomed.add(id);
        for (CollectionRow d : below) {
            if (leaving.stream().noneMatch(l -> l.id.equals(d.id) || d.location.startsWith(l.childLocation()))) {
                doomed.add(d.id);
            }
        }
        CollectionRow parent = c.parentId() == null ? null : find(c.parentId());
        contents.forEach(module -> module.beforeDeletion(doomed));
        return db.tx(session -> {
            for (CollectionRow l : leaving) {
                move(session, l, c.location, parent, rights);
            }
            contents.forEach(module -> module.deleteIn(session, doomed));
            CollectionMapper m = session.getMapper(CollectionMapper.class);
            for (int from = 1; from < doomed.size(); from += 1000) {
                m.deleteCollections(doomed.subList(from, Math.min(doomed.size(), from + 1000)));
            }
            // Metabase answers the rows its one delete of the collection removed (its hooks remove the descendants)
            return m.deleteCollections(List.of(id));
        });
    }

    /** Moves a collection and its whole subtree (two set-based updates), fixing rights across personal borders. */
    private static void move(SqlSession session, CollectionRow c, String newLocation, CollectionRow newParent, Rights rights) {
        CollectionMapper m = session.getMapper(CollectionMapper.class);
        String oldPrefix = c.childLocation();
        String newPrefix = newLocation + c.id + "/";
        m.setLocation(c.id, newLocation);
        m.moveDescendants(oldPrefix, newPrefix);
        boolean wasPersonal = rights.isPersonal(c);
        boolean nowPersonal = newParent != null && rights.isPersonal(newParent);
        if (nowPersonal && !wasPersonal) {
            m.deletePermissionsOfSubtree(c.id, newPrefix);
        } else if (wasPersonal && !nowPersonal) {
            m.deletePermissionsOfSubtree(c.id, newPrefix);
            m.copyPermissionsToSubtree(newParent == null ? null : newParent.id, c.namespace, c.id, newPrefix);
        }
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }
}
