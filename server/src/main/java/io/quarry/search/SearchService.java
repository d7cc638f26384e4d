package io.quarry.search;

import io.quarry.appdb.Db;
import io.quarry.collection.CollectionAccess;
import io.quarry.permission.DataPermissions;
import io.quarry.core.Caller;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/search} as Metabase's in-place engine answers it: every model read from its own table, matched by
 * name (every word of {@code q}, case-insensitive), filtered by what the caller may see (collections for content, data
 * permissions for tables, segments and databases), ranked — exact name, then name prefix, then word prefixes, then
 * substrings; ties by recency, then name — and paged.
 */
public final class SearchService {
    /** Metabase's models, in its ranking order for otherwise equal results. */
    public static final List<String> MODELS = List.of("dashboard", "metric", "segment", "measure", "indexed-entity", "card",
            "dataset", "collection", "table", "action", "document", "snippet", "transform", "database");
    static final String SNIPPETS = "snippets";

    private final Db db;
    private final CollectionAccess collections;
    private final DataPermissions dataPermissions;

    public SearchService(Db db, CollectionAccess collections, DataPermissions dataPermissions) {
        this.db = db;
        this.collections = collections;
        this.dataPermissions = dataPermissions;
    }

    /** What to search for; null filters are not applied. */
    public record Request(String q, Set<String> models, boolean archived, Long collection, Long tableDbId, Set<Long> createdBy,
                          Integer limit, Integer offset) {
    }

    private record Hit(SearchRow row, String model, String name, int tier, double score) {
    }

    public Map<String, Object> search(Caller caller, Request request) {
        String q = request.q() == null ? null : request.q().trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        if (q != null && q.isEmpty()) {
            q = null;
        }
        List<String> words = q == null ? List.of() : List.of(q.split(" "));
        List<String> patterns = words.stream().map(w -> "%" + w.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%").toList();
        Set<String> wanted = request.models() == null || request.models().isEmpty() ? Set.copyOf(MODELS) : request.models();
        CollectionAccess.Visible visible = collections.visible(caller);
        Map<Long, DataPermissions.Access> access = dataPermissions.accessAll(caller);
        boolean superuser = caller.superuser();
        // the snippets Root right, read once (not once per snippet found there)
        boolean snippetRoot = !superuser && wanted.contains("snippet")
                && collections.rootLevel(caller, SNIPPETS) != CollectionAccess.Level.NONE;

        List<SearchRow> rows = new ArrayList<>();
        Map<Long, SearchRow> allCollections = new HashMap<>();
        db.tx(session -> {
            SearchMapper mapper = session.getMapper(SearchMapper.class);
            mapper.allCollections().forEach(c -> allCollections.put(c.id, c));
            if (wanted.contains("card") || wanted.contains("dataset") || wanted.contains("metric")) {
                rows.addAll(mapper.cards(patterns));
            }
            if (wanted.contains("dashboard")) {
                rows.addAll(mapper.dashboards(patterns));
            }
            if (wanted.contains("collection")) {
                rows.addAll(mapper.collections(patterns));
            }
            if (wanted.contains("table")) {
                rows.addAll(mapper.tables(patterns));
            }
            if (wanted.contains("segment")) {
                rows.addAll(mapper.segments(patterns));
            }
            if (wanted.contains("snippet")) {
                rows.addAll(mapper.snippets(patterns));
            }
            if (wanted.contains("database")) {
                rows.addAll(mapper.databases(patterns));
            }
            return null;
        });

        List<Hit> hits = new ArrayList<>();
        for (SearchRow row : rows) {
            String model = modelOf(row);
            if (!wanted.contains(model) || !matchesFilters(row, model, request, allCollections)) {
                continue;
            }
            if (!visible(row, model, visible, access, superuser, snippetRoot)) {
                continue;
            }
            String name = "table".equals(model) && row.displayName != null ? row.displayName : row.name;
            int tier = q == null ? 0 : tier(name, q, words);
            hits.add(new Hit(row, model, name, tier, q == null ? 0 : tier / 4.0));
        }
        hits.sort(Comparator.comparingInt((Hit h) -> -h.tier())
                .thenComparing((Hit h) -> recency(h.row()), Comparator.nullsLast(Comparator.reverseOrder()))
                .thenComparing(h -> h.name() == null ? "" : h.name().toLowerCase(Locale.ROOT))
                .thenComparingInt(h -> MODELS.indexOf(h.model()))
                .thenComparing(h -> h.row().id));

        int from = request.offset() == null ? 0 : Math.min(request.offset(), hits.size());
        int to = request.limit() == null ? hits.size() : Math.min(hits.size(), from + request.limit());
        List<Map<String, Object>> data = new ArrayList<>();
        for (Hit hit : hits.subList(from, to)) {
            data.add(view(hit, allCollections, access));
        }
        List<String> available = new ArrayList<>();
        for (String m : MODELS) {
            if (hits.stream().anyMatch(h -> h.model().equals(m))) {
                available.add(m);
            }
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("data", data);
        result.put("total", hits.size());
        result.put("limit", request.limit());
        result.put("offset", request.offset());
        result.put("models", request.models() == null || request.models().isEmpty() ? null
                : MODELS.stream().filter(request.models()::contains).toList());
        result.put("available_models", available);
        result.put("table_db_id", request.tableDbId());
        result.put("engine", "search.engine/in-place");
        return result;
    }

    private static String modelOf(SearchRow row) {
        if (!"card".equals(row.model)) {
            return row.model;
        }
        return switch (row.cardType == null ? "question" : row.cardType) {
            case "model" -> "dataset";
            case "metric" -> "metric";
            default -> "card";
        };
    }

    private static OffsetDateTime recency(SearchRow row) {
        return row.updatedAt != null ? row.updatedAt : row.createdAt;
    }

    /**
     * 4 exact name, 3 name starts with the query, 2 every word starts a word of the name, 1 every word occurs somewhere
     * (the SQL already kept only those).
     */
    static int tier(String name, String q, List<String> words) {
        String n = name == null ? "" : name.toLowerCase(Locale.ROOT).trim().replaceAll("\\s+", " ");
        if (n.equals(q)) {
            return 4;
        }
        if (n.startsWith(q)) {
            return 3;
        }
        List<String> nameWords = List.of(n.split("[^\\p{L}\\p{N}]+"));
        boolean allWordPrefixes = true;
        for (String w : words) {
            String core = w.replaceAll("[^\\p{L}\\p{N}]+", "");
            if (core.isEmpty() || nameWords.stream().noneMatch(nw -> nw.startsWith(core))) {
                allWordPrefixes = false;
                break;
            }
        }
        return allWordPrefixes ? 2 : 1;
    }

    private static boolean matchesFilters(SearchRow row, String model, Request request, Map<Long, SearchRow> allCollections) {
        boolean archived = Boolean.TRUE.equals(row.archived);
        if (archived != request.archived()) {
            return false;
        }
        if (request.collection() != null) {
            long root = request.collection();
            if ("collection".equals(model)) {
                if (row.id == root || row.location == null || !row.location.contains("/" + root + "/")) {
                    return false;
                }
            } else if (!Set.of("card", "dataset", "metric", "dashboard").contains(model) || row.collectionId == null) {
                return false;
            } else if (row.collectionId != root) {
                SearchRow parent = allCollections.get(row.collectionId);
                if (parent == null || parent.location == null || !parent.location.contains("/" + root + "/")) {
                    return false;
                }
            }
        }
        if (request.tableDbId() != null) {
            if (!Set.of("card", "dataset", "metric", "table", "segment").contains(model)
                    || !request.tableDbId().equals(row.databaseId)) {
                return false;
            }
        }
        if (request.createdBy() != null && !request.createdBy().isEmpty()) {
            if (row.creatorId == null || !request.createdBy().contains(row.creatorId)) {
                return false;
            }
        }
        return true;
    }

    private static boolean visible(SearchRow row, String model, CollectionAccess.Visible visible,
                                   Map<Long, DataPermissions.Access> access, boolean superuser, boolean snippetRoot) {
        if (superuser) {
            return true;
        }
        return switch (model) {
            case "card", "dataset", "metric", "dashboard" -> visible.canRead(row.collectionId);
            case "collection" -> visible.canRead(row.id);
            case "snippet" -> row.collectionId == null
                    ? snippetRoot
                    : visible.canRead(row.collectionId);
            case "table", "segment", "database" -> {
                DataPermissions.Access a = access.get(row.databaseId);
                yield a != null && a.canRead();
            }
            default -> false;
        };
    }

    private static Map<String, Object> view(Hit hit, Map<Long, SearchRow> allCollections, Map<Long, DataPermissions.Access> access) {
        SearchRow row = hit.row();
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", row.id);
        v.put("model", hit.model());
        v.put("name", hit.name());
        v.put("description", row.description);
        v.put("archived", Boolean.TRUE.equals(row.archived));
        v.put("collection", collectionOf(hit, allCollections));
        v.put("database_id", row.databaseId);
        v.put("table_id", row.tableId);
        v.put("table_name", row.tableName);
        v.put("table_schema", row.tableSchema);
        v.put("display", row.display);
        if (Set.of("card", "dataset", "metric").contains(hit.model())) {
            v.put("dataset_query_type", row.queryType);
        }
        if ("collection".equals(hit.model())) {
            v.put("authority_level", row.authorityLevel);
            v.put("location", row.location);
            v.put("personal_owner_id", row.personalOwnerId);
        }
        v.put("creator_id", row.creatorId);
        v.put("moderated_status", null);
        v.put("created_at", row.createdAt);
        v.put("updated_at", row.updatedAt);
        Map<String, Object> score = new LinkedHashMap<>();
        score.put("name", "text-match");
        score.put("score", hit.score());
        score.put("weight", 1);
        score.put("contribution", hit.score());
        v.put("scores", List.of(score));
        return v;
    }

    /** The item's collection ({@code {id, name, authority_level, type}}); for a collection, its parent; null ids = Root. */
    private static Map<String, Object> collectionOf(Hit hit, Map<Long, SearchRow> allCollections) {
        SearchRow row = hit.row();
        Long id;
        if ("collection".equals(hit.model())) {
            id = parentOf(row.location);
        } else {
            id = row.collectionId;
        }
        SearchRow c = id == null ? null : allCollections.get(id);
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", c == null ? null : c.id);
        v.put("name", c == null ? null : c.name);
        v.put("authority_level", c == null ? null : c.authorityLevel);
        v.put("type", c == null ? null : c.collectionType);
        return v;
    }

    private static Long parentOf(String location) {
        if (location == null || location.equals("/")) {
            return null;
        }
        String[] parts = location.split("/");
        return Long.parseLong(parts[parts.length - 1]);
    }
}
