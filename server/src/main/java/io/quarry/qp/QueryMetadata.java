package io.quarry.qp;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.qp.mbql.MbqlCompiler;
import io.quarry.qp.nativeq.Template;
import io.quarry.qp.nativeq.TemplateTag;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.DatabaseViews;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.MetadataViews;
import io.quarry.warehouse.TableQueryMetadata;
import io.quarry.web.error.ApiException;
import io.quarry.core.Caller;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything a client needs to show a query — its database, the tables it reads (source, joins, nested queries) with
 * their fields, the fields its field filters point at, and the saved questions it refers to. Shared by
 * {@code POST /api/dataset/query_metadata} and {@code GET /api/card/:id/query_metadata}.
 */
public final class QueryMetadata {
    private final DatabaseService databases;
    private final MetadataService metadata;
    private final TableQueryMetadata tables;

    public QueryMetadata(DatabaseService databases, MetadataService metadata, TableQueryMetadata tables) {
        this.databases = databases;
        this.metadata = metadata;
        this.tables = tables;
    }

    /** The query metadata of {@code request} as {@code caller} may see it (400 for a request that is no query). */
    public Map<String, Object> of(JsonNode request, Caller caller) {
        Query query;
        try {
            query = QueryNormalizer.normalize(request);
        } catch (QueryFailure failure) {
            throw ApiException.invalidField("query", failure.getMessage());
        }
        Database database = databases.require(query.databaseId());
        Set<Long> tableIds = new LinkedHashSet<>();
        Set<Long> cardIds = new LinkedHashSet<>();
        Set<Long> fieldIds = new LinkedHashSet<>();
        if (query.type() == Query.Type.MBQL) {
            collect(MbqlCompiler.legacy(query.mbql()), tableIds, cardIds);
        } else {
            query.templateTags().forEach((name, tag) -> {
                if (tag instanceof Map<?, ?> map) {
                    @SuppressWarnings("unchecked")
                    TemplateTag parsed = TemplateTag.fromJson(name, (Map<String, Object>) map);
                    if (parsed.fieldId() != null) {
                        fieldIds.add(parsed.fieldId());
                    }
                    if (parsed.cardId() != null) {
                        cardIds.add(parsed.cardId());
                    }
                }
            });
            for (String tag : Template.tagNames(Template.parse(query.nativeSql()))) {
                if (tag.startsWith("#")) {
                    try {
                        cardIds.add(Long.parseLong(tag.substring(1).split("-", 2)[0]));
                    } catch (NumberFormatException ignored) {
                        // not a card reference; compiling the query says so
                    }
                }
            }
        }
        List<Map<String, Object>> tableViews = new ArrayList<>();
        for (long id : tableIds) {
            if (metadata.requireTable(id).dbId.equals(database.id)) {
                tableViews.add(tables.of(id, caller, false, false, false));
            }
        }
        List<Map<String, Object>> fieldViews = new ArrayList<>();
        for (Field field : metadata.fieldsByIds(fieldIds)) {
            fieldViews.add(MetadataViews.field(field, true));
        }
        Map<String, Object> databaseView = DatabaseViews.view(database, databases.driverOf(database), caller);
        databaseView.remove("details");
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("databases", List.of(databaseView));
        result.put("tables", tableViews);
        result.put("fields", fieldViews);
        result.put("cards", cardIds.stream().map(id -> Map.of("id", id)).toList());
        result.put("snippets", List.of());
        result.put("dashboards", List.of());
        return result;
    }

    /** Table ids and card ids a legacy inner query reads, nested queries and joins included. */
    private static void collect(Object node, Set<Long> tables, Set<Long> cards) {
        if (node instanceof Map<?, ?> map) {
            Object source = map.get("source-table");
            if (source instanceof Number n) {
                tables.add(n.longValue());
            } else if (source instanceof String s && s.startsWith("card__")) {
                try {
                    cards.add(Long.parseLong(s.substring("card__".length())));
                } catch (NumberFormatException ignored) {
                    // compiling the query reports it
                }
            }
            collect(map.get("source-query"), tables, cards);
            if (map.get("joins") instanceof List<?> joins) {
                for (Object join : joins) {
                    collect(join, tables, cards);
                }
            }
        }
    }
}
