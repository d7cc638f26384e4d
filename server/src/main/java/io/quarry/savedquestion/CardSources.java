package io.quarry.savedquestion;

import com.fasterxml.jackson.core.type.TypeReference;
import io.quarry.appdb.Db;
import io.quarry.collection.CollectionAccess;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.driver.Feature;
import io.quarry.permission.DataPermissions;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.SavedQuestions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Saved questions as query sources, per caller: the cards behind the "Saved Questions" virtual database and the card
 * suggestions of {@code {{#...}}} tags in the SQL editor.
 *
 * <p>A card can be a source (Metabase's rule) when it is not archived, has result metadata, its database's engine runs
 * nested queries, it does not use cumulative aggregations, and — for native cards — none of its columns is an
 * ambiguous {@code name_2}. A caller sees it when they may read its collection and query its database.
 */
public final class CardSources implements SavedQuestions.Source {
    /** Metabase's limit on card suggestions (the client knows it too). */
    static final int AUTOCOMPLETE_LIMIT = 50;
    private static final Pattern SLUG = Pattern.compile("(\\d*)-?(.*)", Pattern.DOTALL);
    private static final TypeReference<List<Map<String, Object>>> COLUMNS = new TypeReference<>() {
    };

    private final Db db;
    private final CollectionAccess collections;
    private final DataPermissions dataPermissions;
    private final DatabaseService databases;

    CardSources(Db db, CollectionAccess collections, DataPermissions dataPermissions, DatabaseService databases) {
        this.db = db;
        this.collections = collections;
        this.dataPermissions = dataPermissions;
        this.databases = databases;
    }

    @Override
    public List<SavedQuestions.SourceCard> cards(Caller caller, String type) {
        if (!caller.authenticated()) {
            return List.of();
        }
        // Metabase lists metrics with questions and with models alike
        Set<String> types = Set.of(type, "metric");
        List<SavedQuestionMapper.CardRow> rows = db.with(SavedQuestionMapper.class, m -> m.sourceCards(types));
        if (rows.isEmpty()) {
            return List.of();
        }
        boolean all = caller.superuser();
        CollectionAccess.Visible visible = all ? null : collections.visible(caller);
        Map<Long, DataPermissions.Access> access = all ? Map.of() : dataPermissions.accessAll(caller);
        Map<Long, Boolean> nested = new HashMap<>();
        for (Database d : databases.list()) {
            nested.put(d.id, databases.driverOf(d).supports(Feature.NESTED_QUERIES));
        }
        List<SavedQuestions.SourceCard> cards = new ArrayList<>();
        for (SavedQuestionMapper.CardRow row : rows) {
            if (row.databaseId == null || !nested.getOrDefault(row.databaseId, false)) {
                continue;
            }
            if (!all) {
                DataPermissions.Access a = access.get(row.databaseId);
                if (!visible.canRead(row.collectionId) || a == null || !a.canRead()) {
                    continue;
                }
            }
            List<Map<String, Object>> columns = columns(row.resultMetadata);
            if (columns == null || !usableAsSource(row, columns)) {
                continue;
            }
            cards.add(new SavedQuestions.SourceCard(row.id, row.databaseId, row.name, row.description, row.collectionName,
                    row.cardType, null, columns));
        }
        return cards;
    }

    @Override
    public boolean collectionExists(String name) {
        return db.with(SavedQuestionMapper.class, m -> m.countCollectionsNamed(name)) > 0;
    }

    /**
     * {@code GET /api/database/:id/card_autocomplete_suggestions}: {@code query} is a card slug as typed in a tag —
     * {@code 123} (id prefix), {@code 123-foo} (that id, name starting "foo"), {@code foo-bar} (name containing
     * "foo bar"). Models first, then newest first; only cards the caller may read; at most 50.
     */
    @Override
    public List<Map<String, Object>> autocomplete(Caller caller, long databaseId, String query) {
        Matcher m = SLUG.matcher(query);
        if (!m.matches()) {
            return List.of();
        }
        String id = m.group(1);
        String name = m.group(2).replace('-', ' ').toLowerCase(Locale.ROOT);
        String idPrefix = null;
        Long exactId = null;
        String namePattern = null;
        if (!id.isEmpty() && name.isEmpty()) {
            idPrefix = id + "%";
        } else if (!id.isEmpty()) {
            try {
                exactId = Long.parseLong(id);
            } catch (NumberFormatException e) {
                return List.of(); // no card has such an id
            }
            namePattern = escapeLike(name) + "%";
        } else if (!name.isEmpty()) {
            namePattern = "%" + escapeLike(name) + "%";
        }
        String prefix = idPrefix;
        Long exact = exactId;
        String pattern = namePattern;
        List<SavedQuestionMapper.CardRow> rows = db.with(SavedQuestionMapper.class,
                mapper -> mapper.autocomplete(databaseId, prefix, exact, pattern));
        CollectionAccess.Visible visible = caller.superuser() ? null : collections.visible(caller);
        List<Map<String, Object>> result = new ArrayList<>();
        for (SavedQuestionMapper.CardRow row : rows) {
            if (visible != null && !visible.canRead(row.collectionId)) {
                continue;
            }
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("id", row.id);
            v.put("name", row.name);
            v.put("type", row.cardType);
            v.put("collection_name", row.collectionName);
            result.add(v);
            if (result.size() == AUTOCOMPLETE_LIMIT) {
                break;
            }
        }
        return result;
    }

    static String escapeLike(String s) {
        return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    /** The stored result metadata as columns; null when it is not a JSON list of objects. */
    static List<Map<String, Object>> columns(String resultMetadata) {
        try {
            List<Map<String, Object>> columns = Json.MAPPER.readValue(resultMetadata, COLUMNS);
            return columns == null || columns.contains(null) ? null : columns;
        } catch (Exception e) {
            return null;
        }
    }

    /** Cumulative aggregations and ambiguous native columns keep a card from being a source (as in Metabase). */
    static boolean usableAsSource(SavedQuestionMapper.CardRow row, List<Map<String, Object>> columns) {
        Object query;
        try {
            query = Json.MAPPER.readValue(row.datasetQuery, Object.class);
        } catch (Exception e) {
            return false;
        }
        if (isNative(row, query)) {
            for (Map<String, Object> column : columns) {
                if (column.get("name") instanceof String n && n.endsWith("_2")) {
                    return false;
                }
            }
        }
        return !usesCumulative(query, false);
    }

    private static boolean isNative(SavedQuestionMapper.CardRow row, Object query) {
        if ("native".equals(row.queryType)) {
            return true;
        }
        if (query instanceof Map<?, ?> q && q.get("stages") instanceof List<?> stages && !stages.isEmpty()
                && stages.get(0) instanceof Map<?, ?> first) {
            return "mbql.stage/native".equals(first.get("lib/type"));
        }
        return false;
    }

    /** Whether a cum-count or cum-sum clause appears under an {@code aggregation} key anywhere in the query. */
    private static boolean usesCumulative(Object node, boolean inAggregation) {
        if (node instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (usesCumulative(e.getValue(), inAggregation || "aggregation".equals(e.getKey()))) {
                    return true;
                }
            }
        } else if (node instanceof List<?> list) {
            if (inAggregation && !list.isEmpty() && list.get(0) instanceof String op
                    && (op.equals("cum-count") || op.equals("cum-sum"))) {
                return true;
            }
            for (Object item : list) {
                if (usesCumulative(item, inAggregation)) {
                    return true;
                }
            }
        }
        return false;
    }
}
