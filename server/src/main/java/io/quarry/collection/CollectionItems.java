package io.quarry.collection;

import io.quarry.web.param.Paging;
import io.quarry.appdb.Db;
import io.quarry.web.error.Checks;
import io.quarry.core.Caller;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code GET /api/collection/:id/items} and {@code /root/items}: one UNION ALL query over the selected models, sorted
 * and paged in the database with the total beside each row. Child collections are the caller's <em>effective</em>
 * children: readable collections whose nearest readable ancestor is this one (at the top, the ones with none).
 */
public final class CollectionItems {
    /** Every model, in Metabase's order. */
    static final List<String> MODELS = List.of("collection", "dataset", "metric", "card", "dashboard", "pulse", "snippet", "timeline");
    static final List<String> PARAM_VALUES = List.of("card", "dataset", "metric", "collection", "dashboard", "pulse", "snippet",
            "no_models", "timeline");

    private final Db db;
    private final CollectionService collections;

    public CollectionItems(Db db, CollectionService collections) {
        this.db = db;
        this.collections = collections;
    }

    /** What was asked for; {@code models} empty = all. */
    public record Request(Set<String> models, boolean archived, String pinnedState, String sortColumn, String sortDirection,
                          Paging paging) {
    }

    public Map<String, Object> items(Caller caller, Long collectionId, String namespaceParam, Request request) {
        collections.ensurePersonalCollections();
        CollectionRow collection = null;
        String ns;
        CollectionService.Rights rights;
        boolean archived = request.archived();
        Set<String> wanted = request.models();
        boolean inTrash = false;
        if (collectionId != null) {
            collection = collections.require(collectionId);
            ns = collection.namespace;
            rights = collections.rights(caller, ns);
            Checks.permitted(rights.canRead(collection));
            inTrash = Trash.isTrash(collection);
            archived |= collection.archived || inTrash;
        } else {
            ns = CollectionService.normalizeNamespace(namespaceParam);
            rights = collections.rights(caller, ns);
            if (!rights.rootRead()) {
                // without Root rights only the collections that show at the top for this caller
                wanted = wanted.isEmpty() || wanted.contains("collection") ? Set.of("collection") : Set.of("no_models");
            }
        }
        List<String> valid = new ArrayList<>();
        for (String model : MODELS) {
            if ((wanted.isEmpty() || wanted.contains(model)) && allowedIn(model, ns)) {
                valid.add(model);
            }
        }
        List<String> modelsOut = new ArrayList<>(new TreeSet<>(valid));
        boolean snippetsNs = GraphCollectionAccess.SNIPPETS.equals(ns);
        Paging paging = snippetsNs ? Paging.NONE : request.paging();
        Map<String, Object> out = new LinkedHashMap<>();
        if (valid.isEmpty()) {
            out.put("total", 0);
            out.put("data", List.of());
            out.put("models", modelsOut);
            out.put("limit", paging.limit());
            out.put("offset", paging.offset());
            return out;
        }
        String childLocation = collection == null ? "/" : collection.childLocation();
        ItemQuery q = new ItemQuery();
        q.collectionId = collectionId;
        q.archived = archived;
        q.pinnedState = request.pinnedState() == null ? "all" : request.pinnedState();
        q.cards = valid.contains("card");
        q.datasets = valid.contains("dataset");
        q.metrics = valid.contains("metric");
        q.dashboards = valid.contains("dashboard");
        q.snippets = valid.contains("snippet");
        // pulses are no item of the Trash (they have no archived_directly)
        q.pulses = valid.contains("pulse") && !inTrash;
        q.timelines = valid.contains("timeline");
        q.orderBy = orderBy(request.sortColumn(), request.sortDirection());
        q.limit = paging.limit();
        q.offset = paging.offset();
        if (inTrash) {
            // Metabase shows in the Trash what the caller could restore: things from collections they may write
            q.trash = true;
            q.allCollections = rights.visible().all();
            q.writableIds = new ArrayList<>(rights.visible().writable());
            q.rootWritable = rights.rootWrite();
        }
        final boolean trash = inTrash;
        final boolean archivedItems = archived;
        final CollectionRow parent = collection;
        return db.tx(session -> {
            CollectionMapper m = session.getMapper(CollectionMapper.class);
            Map<Long, CollectionRow> children = new HashMap<>();
            if (valid.contains("collection")) {
                List<CollectionRow> found = trash ? trashedCollections(m, rights)
                        : effectiveChildren(m, caller, ns, childLocation, archivedItems, rights);
                for (CollectionRow c : found) {
                    children.put(c.id, c);
                }
                q.childIds = new ArrayList<>(children.keySet());
            }
            List<ItemRow> rows = q.anything() ? m.items(q) : List.of();
            long total;
            if (!rows.isEmpty()) {
                total = rows.get(0).totalCount;
            } else {
                total = q.anything() && paging.paged() && paging.offset() > 0 ? m.countItems(q) : 0;
            }
            ContentTypes types = null;
            Map<Long, String> listed = new LinkedHashMap<>();
            for (ItemRow row : rows) {
                if ("collection".equals(row.model)) {
                    CollectionRow c = children.get(row.id);
                    listed.put(row.id, c != null ? c.location : row.location);
                }
            }
            if (!listed.isEmpty() && !(paging.paged() && paging.limit() == 0)) {
                types = ContentTypes.forListed(m, ns, listed, rights.visible().all(),
                        trash || "/".equals(childLocation) ? null : childLocation, rights::canRead);
            }
            Map<Long, CollectionRow> related = related(m, rows, trash, children);
            List<Map<String, Object>> data = new ArrayList<>();
            if (!(paging.paged() && paging.limit() == 0)) {
                for (ItemRow row : rows) {
                    data.add(view(row, parent, children, rights, types, trash, related));
                }
            }
            out.put("total", total);
            out.put("data", data);
            out.put("models", modelsOut);
            if (!snippetsNs) {
                out.put("limit", paging.limit());
                out.put("offset", paging.offset());
            }
            return out;
        });
    }

    static boolean allowedIn(String model, String namespace) {
        return switch (model) {
            case "collection" -> true;
            case "snippet" -> GraphCollectionAccess.SNIPPETS.equals(namespace);
            default -> namespace == null;
        };
    }

    /** Collections archived directly that the caller may write (all for superusers): the Trash's collections. */
    private static List<CollectionRow> trashedCollections(CollectionMapper m, CollectionService.Rights rights) {
        List<CollectionRow> out = new ArrayList<>();
        for (CollectionRow c : m.archivedDirectlyCollections()) {
            if (rights.canWrite(c.id)) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * In one query: the collections the Trash's cards and dashboards were archived from, and the parents of the
     * listed archived collections (their can_restore depends on them).
     */
    private static Map<Long, CollectionRow> related(CollectionMapper m, List<ItemRow> rows, boolean trash,
                                                    Map<Long, CollectionRow> children) {
        Set<Long> ids = new HashSet<>();
        for (ItemRow r : rows) {
            if (trash && r.originCollectionId != null) {
                ids.add(r.originCollectionId);
            }
            CollectionRow c = "collection".equals(r.model) ? children.get(r.id) : null;
            if (c != null && c.archived && c.parentId() != null) {
                ids.add(c.parentId());
            }
        }
        Map<Long, CollectionRow> out = new HashMap<>();
        if (!ids.isEmpty()) {
            for (CollectionRow c : m.collectionsByIds(new ArrayList<>(ids))) {
                out.put(c.id, c);
            }
        }
        return out;
    }

    /** The readable collections whose nearest readable ancestor is the one at {@code childLocation} (Root: "/"). */
    private static List<CollectionRow> effectiveChildren(CollectionMapper m, Caller caller, String ns, String childLocation,
                                                         boolean archived, CollectionService.Rights rights) {
        List<CollectionRow> out = new ArrayList<>();
        boolean all = rights.visible().all();
        int depth = Locations.ids(childLocation).length;
        for (CollectionRow c : m.collectionsUnder(ns, childLocation, all, archived)) {
            if (!rights.canRead(c.id)) {
                continue;
            }
            // at the top, other users' personal collections are not items (admins find them in their own list)
            if (c.personalOwnerId != null && !caller.is(c.personalOwnerId)) {
                continue;
            }
            long[] ids = c.ancestorIds();
            boolean hidden = false;
            for (int i = depth; i < ids.length; i++) {
                if (rights.canRead(ids[i])) {
                    hidden = true;
                    break;
                }
            }
            if (!hidden) {
                out.add(c);
            }
        }
        return out;
    }

    private static String orderBy(String column, String direction) {
        String dir = "desc".equals(direction) ? "DESC" : "ASC";
        String sort = switch (column == null ? "name" : column) {
            case "last_edited_at" -> "CASE WHEN last_edit_timestamp IS NULL THEN 1 ELSE 0 END, last_edit_timestamp " + dir
                    + ", LOWER(name) ASC";
            case "last_edited_by" -> "CASE WHEN last_edit_last_name IS NULL THEN 1 ELSE 0 END, last_edit_last_name " + dir
                    + ", last_edit_first_name " + dir + ", LOWER(name) ASC";
            case "model" -> "model_ranking " + dir + ", LOWER(name) ASC";
            default -> "LOWER(name) " + dir;
        };
        return "CASE WHEN authority_level = 'official' THEN 0 ELSE 1 END, " + sort + ", model_ranking ASC, id ASC";
    }

    private Map<String, Object> view(ItemRow r, CollectionRow parent, Map<Long, CollectionRow> children,
                                     CollectionService.Rights rights, ContentTypes types, boolean trash,
                                     Map<Long, CollectionRow> related) {
        Long parentId = parent == null ? null : parent.id;
        // rights on a card or dashboard are those of the collection it really sits in (for the Trash: its origin)
        Long home = trash ? r.originCollectionId : parentId;
        boolean canWriteHere = rights.canWrite(home);
        boolean archivedItem = Boolean.TRUE.equals(r.archived);
        // back to where it was: only what was archived directly (in the Trash), into a live collection
        CollectionRow origin = home == null ? null : trash ? related.get(home) : parent;
        boolean canRestore = trash && archivedItem && canWriteHere && (home == null || (origin != null && !origin.archived));
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", r.id);
        v.put("name", r.name);
        v.put("entity_id", r.entityId);
        v.put("model", r.model);
        v.put("collection_id", parentId);
        v.put("archived", Boolean.TRUE.equals(r.archived));
        switch (r.model) {
            case "card", "dataset", "metric" -> {
                v.put("description", r.description);
                v.put("collection_position", r.collectionPosition);
                v.put("collection_preview", r.collectionPreview);
                v.put("display", r.display);
                v.put("database_id", r.databaseId);
                v.put("moderated_status", null);
                v.put("last_used_at", r.lastUsedAt);
                v.put("fully_parameterized", true);
                v.put("can_write", canWriteHere);
                v.put("can_restore", canRestore);
                v.put("can_delete", canWriteHere && archivedItem);
                lastEdit(r, v);
            }
            case "dashboard" -> {
                v.put("description", r.description);
                v.put("collection_position", r.collectionPosition);
                v.put("location", parent == null ? "/" : parent.childLocation());
                v.put("moderated_status", null);
                v.put("last_used_at", r.lastUsedAt);
                v.put("can_write", canWriteHere);
                v.put("can_restore", canRestore);
                v.put("can_delete", canWriteHere && archivedItem);
                lastEdit(r, v);
            }
            case "collection" -> {
                CollectionRow c = children.get(r.id);
                if (c != null) {
                    v.put("name", CollectionService.displayName(c));
                    v.put("effective_location", trash ? collections.trash().path() : rights.effectiveLocation(c));
                }
                v.put("description", r.description);
                v.put("location", r.location);
                v.put("authority_level", r.authorityLevel);
                if (r.personalOwnerId != null) {
                    v.put("personal_owner_id", r.personalOwnerId);
                }
                boolean canWrite = rights.canWrite(r.id);
                v.put("can_write", canWrite);
                v.put("can_restore", c != null && CollectionService.canRestore(c, rights, related::get));
                v.put("can_delete", false);
                if (types != null) {
                    types.annotate(r.id, v);
                }
            }
            case "timeline" -> {
                v.put("description", r.description);
                v.put("icon", r.icon);
            }
            case "pulse" -> {
                v.put("collection_position", r.collectionPosition);
                v.put("can_write", canWriteHere);
            }
            default -> {
            }
        }
        return v;
    }

    private static void lastEdit(ItemRow r, Map<String, Object> v) {
        if (r.lastEditUser != null) {
            Map<String, Object> info = new LinkedHashMap<>();
            info.put("id", r.lastEditUser);
            info.put("last_name", r.lastEditLastName);
            info.put("first_name", r.lastEditFirstName);
            info.put("email", r.lastEditEmail);
            info.put("timestamp", r.lastEditTimestamp);
            v.put("last-edit-info", info);
        }
    }

}
