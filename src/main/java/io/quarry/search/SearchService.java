package io.quarry.search;

import io.quarry.appdb.Db;
import io.quarry.collection.CollectionAccess;
import io.quarry.permission.DataPermissions;
import io.quarry.web.security.Caller;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

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
        Set<String> wanted = request.models() == null || request.models().isEmpty() ? Set.copyOf(MODELS) : request.models();
        boolean superuser = caller.superuser();

        SearchQuery sq = new SearchQuery();
        sq.q = q;
        sq.qPrefix = q == null ? null : escapeLike(q) + "%";
        sq.patterns = words.stream().map(w -> "%" + escapeLike(w) + "%").toList();
        List<String> starts = new ArrayList<>();
        for (String w : words) {
            String core = w.replaceAll("[^\\p{L}\\p{N}]+", "");
            if (core.isEmpty()) {
                starts = null;
                break;
            }
            starts.add(core);
        }
        sq.wordStarts = starts == null || starts.isEmpty() ? null : starts.stream().map(core -> "(^|[^\\p{L}\\p{N}])" + core).toList();
        sq.wordStartsPg = sq.wordStarts == null ? null : starts.stream().map(core -> "(^|[^[:alnum:]])" + core).toList();
        sq.archived = request.archived();
        sq.collection = request.collection();
        sq.collectionLike = request.collection() == null ? null : "%/" + request.collection() + "/%";
        sq.tableDbId = request.tableDbId();
        sq.createdBy = request.createdBy() == null || request.createdBy().isEmpty() ? null : List.copyOf(request.createdBy());
        boolean inCollection = sq.collection != null;
        boolean byCreator = sq.createdBy != null;
        boolean byDb = sq.tableDbId != null;
        sq.cardModels = Stream.of("card", "dataset", "metric").filter(wanted::contains).toList();
        sq.cards = !sq.cardModels.isEmpty();
        sq.dashboards = wanted.contains("dashboard") && !byDb;
        sq.collections = wanted.contains("collection") && !byDb && !byCreator;
        sq.tables = wanted.contains("table") && !inCollection && !byCreator && !sq.archived;
        sq.segments = wanted.contains("segment") && !inCollection;
        sq.snippets = wanted.contains("snippet") && !inCollection && !byDb;
        sq.databases = wanted.contains("database") && !inCollection && !byCreator && !byDb && !sq.archived;
        if (!superuser) {
            CollectionAccess.Visible visible = collections.visible(caller);
            sq.filterCollections = !visible.all();
            sq.rootReadable = visible.root();
            sq.readableCollections = visible.readable().toArray(new Long[0]);
            sq.filterSnippets = true;
            sq.snippetRootReadable = sq.snippets && collections.rootLevel(caller, SNIPPETS) != CollectionAccess.Level.NONE;
            if (sq.tables || sq.segments || sq.databases) {
                sq.filterData = true;
                sq.readableDatabases = dataPermissions.accessAll(caller).entrySet().stream()
                        .filter(e -> e.getValue() != null && e.getValue().canRead()).map(Map.Entry::getKey).toArray(Long[]::new);
            }
        }
        sq.limit = request.limit();
        sq.offset = request.offset();
        boolean any = sq.cards || sq.dashboards || sq.collections || sq.tables || sq.segments || sq.snippets || sq.databases;

        Map<String, Long> counts = new HashMap<>();
        List<Hit> hits = new ArrayList<>();
        Map<Long, SearchRow> parents = new HashMap<>();
        if (any) {
            String query = q;
            db.tx(session -> {
                SearchMapper mapper = session.getMapper(SearchMapper.class);
                mapper.counts(sq).forEach(k -> counts.put(k.model, k.hits));
                List<SearchKey> page = mapper.page(sq);
                Map<String, List<Long>> idsByTable = new HashMap<>();
                for (SearchKey k : page) {
                    idsByTable.computeIfAbsent(tableOf(k.model), t -> new ArrayList<>()).add(k.id);
                }
                Map<String, SearchRow> rows = new HashMap<>();
                idsByTable.forEach((table, ids) -> {
                    for (List<Long> chunk : chunks(ids)) {
                        for (SearchRow row : switch (table) {
                            case "card" -> mapper.cards(chunk);
                            case "dashboard" -> mapper.dashboards(chunk);
                            case "collection" -> mapper.collections(chunk);
                            case "table" -> mapper.tables(chunk);
                            case "segment" -> mapper.segments(chunk);
                            case "snippet" -> mapper.snippets(chunk);
                            default -> mapper.databases(chunk);
                        }) {
                            rows.put(table + ":" + row.id, row);
                        }
                    }
                });
                Set<Long> parentIds = new HashSet<>();
                for (SearchKey k : page) {
                    SearchRow row = rows.get(tableOf(k.model) + ":" + k.id);
                    if (row == null) {
                        continue; // deleted between the two statements
                    }
                    String name = "table".equals(k.model) && row.displayName != null ? row.displayName : row.name;
                    int tier = k.score == null ? 0 : k.score;
                    hits.add(new Hit(row, k.model, name, tier, query == null ? 0 : tier / 4.0));
                    Long parent = "collection".equals(k.model) ? parentOf(row.location) : row.collectionId;
                    if (parent != null) {
                        parentIds.add(parent);
                    }
                }
                for (List<Long> chunk : chunks(new ArrayList<>(parentIds))) {
                    mapper.collections(chunk).forEach(c -> parents.put(c.id, c));
                }
                return null;
            });
        }

        List<Map<String, Object>> data = new ArrayList<>();
        for (Hit hit : hits) {
            data.add(view(hit, parents));
        }
        List<String> available = MODELS.stream().filter(m -> counts.getOrDefault(m, 0L) > 0).toList();
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("data", data);
        result.put("total", counts.values().stream().mapToLong(Long::longValue).sum());
        result.put("limit", request.limit());
        result.put("offset", request.offset());
        result.put("models", request.models() == null || request.models().isEmpty() ? null
                : MODELS.stream().filter(request.models()::contains).toList());
        result.put("available_models", available);
        result.put("table_db_id", request.tableDbId());
        result.put("engine", "search.engine/in-place");
        return result;
    }

    private static String escapeLike(String s) {
        return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    /** The table a model's rows live in (cards, models and metrics share report_card). */
    private static String tableOf(String model) {
        return switch (model) {
            case "dataset", "metric" -> "card";
            default -> model;
        };
    }

    private static List<List<Long>> chunks(List<Long> ids) {
        List<List<Long>> out = new ArrayList<>();
        for (int i = 0; i < ids.size(); i += 1000) {
            out.add(ids.subList(i, Math.min(ids.size(), i + 1000)));
        }
        return out;
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

    private static Map<String, Object> view(Hit hit, Map<Long, SearchRow> allCollections) {
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
