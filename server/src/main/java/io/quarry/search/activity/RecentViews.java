package io.quarry.search.activity;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.collection.CollectionAccess;
import io.quarry.collection.Locations;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.permission.DataPermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What each user opened lately, as Metabase's {@code recent_views}: a view is recorded when a user opens a card,
 * dashboard, table or collection ({@link ViewRecording}), or picks one in a data picker ({@code POST /api/activity/recents},
 * context {@code selection}). Each (user, item, context) is kept once, at its newest view, and at most
 * {@value #KEPT_PER_KIND} items of each kind (question, model, metric, dashboard, table, collection) per user and
 * context, older ones pruned as each view is recorded. Lists show only items the caller may still read, never archived
 * ones.
 */
public final class RecentViews {
    /** Metabase's {@code *recent-views-stored-per-user-per-model*}. */
    static final int KEPT_PER_KIND = 20;
    static final String VIEW = "view";
    static final String SELECTION = "selection";
    /** The stored kinds of item ({@code card} holds questions, models and metrics). */
    static final Set<String> MODELS = Set.of("card", "dashboard", "table", "collection");

    private final Db db;
    private final CollectionAccess collections;
    private final DataPermissions dataPermissions;
    private final Clock clock;

    public RecentViews(Db db, CollectionAccess collections, DataPermissions dataPermissions, Clock clock) {
        this.db = db;
        this.collections = collections;
        this.dataPermissions = dataPermissions;
        this.clock = clock;
        // written on every view of an item: no cache holds recent views
        db.writesNothingCached(RecentViewMapper.class, "deleteView", "insertView", "deleteViews");
    }

    /** Records that the user opened (context {@code view}) or picked ({@code selection}) an item, and prunes. */
    public void record(long userId, String model, long modelId, String context) {
        OffsetDateTime now = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
        db.run(session -> {
            RecentViewMapper mapper = session.getMapper(RecentViewMapper.class);
            mapper.deleteView(userId, model, modelId, context);
            mapper.insertView(userId, model, modelId, context, now);
            List<RecentViewMapper.Row> rows = mapper.viewsOf(userId, model, context);
            if (rows.size() > KEPT_PER_KIND) {
                Map<String, Integer> kept = new HashMap<>();
                List<Long> pruned = new ArrayList<>();
                for (RecentViewMapper.Row row : rows) {
                    if (kept.merge(kindOf(row.model(), row.cardType()), 1, Integer::sum) > KEPT_PER_KIND) {
                        pruned.add(row.id());
                    }
                }
                if (!pruned.isEmpty()) {
                    mapper.deleteViews(pruned);
                }
            }
        });
    }

    /** The API's kind of a stored item: a card's by its type ({@code card}, {@code dataset}, {@code metric}). */
    static String kindOf(String model, String cardType) {
        if (!"card".equals(model)) {
            return model;
        }
        return "model".equals(cardType) ? "dataset" : "metric".equals(cardType) ? "metric" : "card";
    }

    /** 404 when the item does not exist, 403 when the caller may not read it. */
    void requireReadable(Caller caller, String model, long id) {
        ViewedItem item = load(List.of(new RecentViewMapper.Row(0, model, id, null, null))).get(model + "/" + id);
        if (item == null) {
            throw io.quarry.web.error.ApiException.notFound();
        }
        Readable readable = new Readable(caller);
        boolean may = switch (model) {
            case "table" -> readable.database(item.databaseId);
            case "collection" -> readable.visible.canRead(item.id);
            default -> readable.visible.canRead(item.collectionId);
        };
        if (!may) {
            throw io.quarry.web.error.ApiException.forbidden();
        }
    }

    /** The caller's recent items of a context, newest first, as Metabase's {@code Item}s. */
    public List<Map<String, Object>> recents(Caller caller, String context) {
        List<RecentViewMapper.Row> rows = db.with(RecentViewMapper.class, m -> m.allViewsOf(caller.id(), context));
        Map<String, ViewedItem> items = load(rows);
        Readable readable = new Readable(caller);
        List<Map<String, Object>> out = new ArrayList<>();
        for (RecentViewMapper.Row row : rows) {
            ViewedItem item = items.get(row.model() + "/" + row.modelId());
            Map<String, Object> view = item == null ? null : item(row.model(), item, row.viewedAt(), readable);
            if (view != null) {
                out.add(view);
            }
        }
        return out;
    }

    /** The dashboard the caller opened last within 24 hours, if they may still read it and it is not archived. */
    public Map<String, Object> mostRecentDashboard(Caller caller) {
        OffsetDateTime since = OffsetDateTime.now(clock).minus(Duration.ofDays(1));
        for (Map<String, Object> item : recents(caller, VIEW)) {
            if ("dashboard".equals(item.get("model")) && ((OffsetDateTime) item.get("viewed_at")).isAfter(since)) {
                return item;
            }
        }
        return null;
    }

    /**
     * Metabase's popular items, from the caller's own views: their last 8 dashboards and tables and last 8 cards,
     * scored by how often the item was opened (×4, relative to the most opened), how recently (×2, relative to the
     * newest) and official collections (+1); then ordered by kind (dashboard, card, dataset, metric, table) and score.
     * At most 5.
     */
    public List<Map<String, Object>> popular(Caller caller) {
        List<Map<String, Object>> recents = recents(caller, VIEW);
        List<Map<String, Object>> dashboardsAndTables = new ArrayList<>();
        List<Map<String, Object>> cards = new ArrayList<>();
        for (Map<String, Object> item : recents) {
            String model = (String) item.get("model");
            if (model.equals("dashboard") || model.equals("table")) {
                if (dashboardsAndTables.size() < 8) {
                    dashboardsAndTables.add(item);
                }
            } else if (!model.equals("collection") && cards.size() < 8) {
                cards.add(item);
            }
        }
        List<Map<String, Object>> candidates = new ArrayList<>(dashboardsAndTables);
        candidates.addAll(cards);
        if (candidates.isEmpty()) {
            return List.of();
        }
        long maxViews = 1;
        long newest = Long.MIN_VALUE;
        long oldest = Long.MAX_VALUE;
        for (Map<String, Object> item : candidates) {
            maxViews = Math.max(maxViews, (Long) item.get("view_count"));
            long at = ((OffsetDateTime) item.get("viewed_at")).toEpochSecond();
            newest = Math.max(newest, at);
            oldest = Math.min(oldest, at);
        }
        Map<Map<String, Object>, Double> scores = new LinkedHashMap<>();
        for (Map<String, Object> item : candidates) {
            double views = (Long) item.get("view_count") / (double) maxViews;
            long at = ((OffsetDateTime) item.get("viewed_at")).toEpochSecond();
            double recency = newest == oldest ? 1 : (at - oldest) / (double) (newest - oldest);
            Object parent = item.get("parent_collection");
            boolean official = parent instanceof Map<?, ?> p && "official".equals(p.get("authority_level"));
            scores.put(item, views * 4 + recency * 2 + (official ? 1 : 0));
        }
        List<String> order = List.of("dashboard", "card", "dataset", "metric", "table");
        List<Map<String, Object>> sorted = new ArrayList<>(candidates);
        sorted.sort(Comparator.comparing((Map<String, Object> i) -> order.indexOf((String) i.get("model")))
                .thenComparing(i -> -scores.get(i)));
        return new ArrayList<>(sorted.subList(0, Math.min(5, sorted.size())));
    }

    /** Every stored item the rows name, keyed {@code model/id}. */
    private Map<String, ViewedItem> load(List<RecentViewMapper.Row> rows) {
        Map<String, Set<Long>> ids = new HashMap<>();
        for (RecentViewMapper.Row row : rows) {
            ids.computeIfAbsent(row.model(), k -> new LinkedHashSet<>()).add(row.modelId());
        }
        Map<String, ViewedItem> out = new HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        db.run(session -> {
            RecentViewMapper mapper = session.getMapper(RecentViewMapper.class);
            ids.forEach((model, some) -> {
                List<ViewedItem> found = switch (model) {
                    case "card" -> mapper.cards(some);
                    case "dashboard" -> mapper.dashboards(some);
                    case "table" -> mapper.tables(some);
                    case "collection" -> mapper.collections(some);
                    default -> List.of();
                };
                for (ViewedItem item : found) {
                    out.put(model + "/" + item.id, item);
                }
            });
            // the parents of collections, for parent_collection
            Set<Long> parents = new LinkedHashSet<>();
            for (ViewedItem item : out.values()) {
                Long parent = item.location == null ? null : parentOf(item.location);
                if (parent != null) {
                    parents.add(parent);
                }
            }
            if (!parents.isEmpty()) {
                for (ViewedItem parent : mapper.collectionNames(parents)) {
                    out.put("parent/" + parent.id, parent);
                }
            }
        });
        for (ViewedItem item : new ArrayList<>(out.values())) {
            if (item.location != null) {
                Long parent = parentOf(item.location);
                ViewedItem found = parent == null ? null : out.get("parent/" + parent);
                item.collectionId = parent;
                item.collectionFound = found != null && !found.archived;
                item.collectionName = found == null ? null : found.name;
                item.collectionAuthorityLevel = found == null ? null : found.authorityLevel;
            }
        }
        return out;
    }

    private static Long parentOf(String location) {
        long[] ids = Locations.ids(location);
        return ids.length == 0 ? null : ids[ids.length - 1];
    }

    /** What the caller may read, worked out once per list. */
    private final class Readable {
        final Caller caller;
        final CollectionAccess.Visible visible;
        Set<Long> databases;
        boolean databasesRead;

        Readable(Caller caller) {
            this.caller = caller;
            this.visible = collections.visible(caller);
        }

        boolean database(long id) {
            if (!databasesRead) {
                databases = dataPermissions.readableDatabases(caller);
                databasesRead = true;
            }
            return databases == null || databases.contains(id);
        }
    }

    /** One item as Metabase's recent-views {@code Item}, or null when the caller may not see it (any more). */
    private Map<String, Object> item(String model, ViewedItem item, OffsetDateTime at, Readable readable) {
        Map<String, Object> v = new LinkedHashMap<>();
        switch (model) {
            case "card", "dashboard" -> {
                if (item.archived || (item.collectionId != null && !item.collectionFound) || !readable.visible.canRead(item.collectionId)) {
                    return null;
                }
                String kind = model.equals("dashboard") ? "dashboard" : kindOf(model, item.cardType);
                common(v, item, kind, readable.visible.canWrite(item.collectionId), at);
                if (!kind.equals("dashboard")) {
                    v.put("display", item.display);
                    v.put("database_id", item.databaseId);
                    v.put("dataset_query", json(item.datasetQuery));
                    v.put("result_metadata", json(item.resultMetadata));
                    v.put("visualization_settings", json(item.visualizationSettings));
                    v.put("entity_id", item.entityId);
                    v.put("dashboard", null);
                }
                v.put("moderated_status", null);
                v.put("parent_collection", parent(item));
            }
            case "collection" -> {
                if (item.archived || item.namespace != null || !readable.visible.canRead(item.id)
                        || (item.collectionId != null && !item.collectionFound)) {
                    return null;
                }
                common(v, item, "collection", readable.visible.canWrite(item.id), at);
                v.put("authority_level", item.authorityLevel);
                v.put("effective_location", effectiveLocation(item.location, readable.visible));
                v.put("parent_collection", parent(item));
            }
            case "table" -> {
                if (!item.active || item.visibilityType != null || !readable.database(item.databaseId)) {
                    return null;
                }
                common(v, item, "table", readable.caller.superuser(), at);
                v.put("display_name", item.displayName);
                v.put("table_schema", item.schemaName);
                Map<String, Object> database = new LinkedHashMap<>();
                database.put("id", item.databaseId);
                database.put("name", item.databaseName);
                database.put("initial_sync_status", item.initialSyncStatus);
                v.put("database", database);
            }
            default -> {
                return null;
            }
        }
        return v;
    }

    private static void common(Map<String, Object> v, ViewedItem item, String kind, boolean canWrite, OffsetDateTime at) {
        v.put("id", item.id);
        v.put("name", item.name);
        v.put("description", item.description);
        v.put("model", kind);
        v.put("can_write", canWrite);
        v.put("timestamp", at.withOffsetSameInstant(ZoneOffset.UTC).toString());
        // internal, removed before answering
        v.put("viewed_at", at);
        v.put("view_count", item.viewCount);
    }

    private static Map<String, Object> parent(ViewedItem item) {
        Map<String, Object> p = new LinkedHashMap<>();
        if (item.collectionId == null) {
            p.put("id", "root");
            p.put("name", io.quarry.collection.CollectionService.ROOT_NAME);
            p.put("authority_level", null);
        } else {
            p.put("id", item.collectionId);
            p.put("name", item.collectionName);
            p.put("authority_level", item.collectionAuthorityLevel);
        }
        return p;
    }

    /** The location through the collections the caller may read only ({@code /} when none). */
    private static String effectiveLocation(String location, CollectionAccess.Visible visible) {
        StringBuilder out = new StringBuilder("/");
        for (long id : Locations.ids(location)) {
            if (visible.canRead(id)) {
                out.append(id).append('/');
            }
        }
        return out.toString();
    }

    private static JsonNode json(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Json.MAPPER.readTree(text);
        } catch (java.io.IOException | RuntimeException unreadable) {
            return null;
        }
    }

    /** The item without the fields used only inside this class. */
    static Map<String, Object> wire(Map<String, Object> item) {
        Map<String, Object> out = new LinkedHashMap<>(item);
        out.remove("viewed_at");
        out.remove("view_count");
        return out;
    }
}
