package io.quarry.card;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.warehouse.MetadataService;
import io.quarry.warehouse.Table;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.NonBlank;
import io.quarry.web.param.ParamRule;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** {@code GET /api/card/:id/series} (cards that can be drawn on the same chart) and the related-entities endpoints. */
@Path("card")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class CardSeriesResource {
    static final List<String> SERIES_DISPLAYS = List.of("area", "line", "bar", "scalar");
    private static final Set<String> NUMERIC = Set.of("type/Integer", "type/BigInteger", "type/Float", "type/Decimal", "type/Number");

    private final CardService cards;
    private final MetadataService metadata;
    private final Caller caller;

    @Inject
    public CardSeriesResource(CardService cards, MetadataService metadata, Caller caller) {
        this.cards = cards;
        this.metadata = metadata;
        this.caller = caller;
    }

    /**
     * Compatible cards, newest first: {@code last_cursor} (id of the previous page's last card), {@code query} (name
     * contains, case-insensitive), {@code exclude_ids} (repeated), {@code limit} (page size).
     */
    @GET
    @Path("{id}/series")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> series(@PathParam("id") PosInt id, @QueryParam("last_cursor") PosInt lastCursor,
                                            @QueryParam("query") NonBlank query, @QueryParam("exclude_ids") List<String> excludeIds,
                                            @QueryParam("limit") PosInt limit) {
        List<Long> excluded = new ArrayList<>();
        for (String raw : excludeIds == null ? List.<String>of() : excludeIds) {
            for (String part : raw.split(",")) {
                Long value = io.quarry.web.param.Validation.parsePosInt(part.trim());
                if (value == null) {
                    throw ApiException.withErrors(400, Map.of("exclude_ids", "nullable value must be a sequence of positive integers"),
                            Map.of("exclude_ids", List.of("value must be a sequence of positive integers, received: \"" + raw + "\"")));
                }
                excluded.add(value);
            }
        }
        Card card = cards.requireReadable(id.value(), caller);
        if (!SERIES_DISPLAYS.contains(card.display)) {
            throw ApiException.badRequest("Card with type " + card.display + " is not compatible to have series");
        }
        int pageSize = limit == null ? Integer.MAX_VALUE : limit.intValue();
        String pattern = query == null ? null : "%" + query.value().toLowerCase(Locale.ROOT) + "%";
        List<Card> out = new ArrayList<>();
        Long cursor = lastCursor == null ? null : lastCursor.value();
        var visible = cards.visible(caller);
        while (out.size() < pageSize) {
            Long from = cursor;
            int batch = pageSize == Integer.MAX_VALUE ? 500 : pageSize - out.size() + 10;
            List<Card> candidates = cards.seriesCandidates(card.id, SERIES_DISPLAYS, from, pattern, excluded, batch);
            for (Card candidate : candidates) {
                if (out.size() < pageSize && visible.canRead(candidate.collectionId) && compatible(card, candidate)) {
                    out.add(candidate);
                }
            }
            if (candidates.size() < batch) {
                break;
            }
            cursor = candidates.get(candidates.size() - 1).id;
        }
        return cards.views(out, caller);
    }

    static boolean compatible(Card first, Card second) {
        if ("scalar".equals(first.display)) {
            return "scalar".equals(second.display) && size(first.resultMetadata) == 1 && size(second.resultMetadata) == 1;
        }
        if (!Set.of("area", "line", "bar").contains(second.display)) {
            return false;
        }
        if ("native".equals(second.queryType)) {
            return true;
        }
        List<JsonNode> firstDims = columns(first, "breakout", "graph.dimensions");
        List<JsonNode> dims = columns(second, "breakout", "graph.dimensions");
        List<JsonNode> metrics = columns(second, "aggregation", "graph.metrics");
        if (dims.isEmpty() || metrics.isEmpty()) {
            return false;
        }
        for (JsonNode metric : metrics) {
            if (!numeric(metric)) {
                return false;
            }
        }
        boolean firstTemporal = !firstDims.isEmpty() && temporal(firstDims.get(0));
        boolean temporal = temporal(dims.get(0));
        if (firstTemporal != temporal) {
            return false;
        }
        boolean firstNumeric = !firstDims.isEmpty() && numeric(firstDims.get(0));
        return firstNumeric == numeric(dims.get(0)) || (firstTemporal && temporal);
    }

    private static int size(String json) {
        JsonNode node = CardService.parse(json);
        return node == null ? 0 : node.size();
    }

    /** The columns named by the visualization setting, else those of the given source in the result metadata. */
    private static List<JsonNode> columns(Card card, String source, String setting) {
        List<JsonNode> out = new ArrayList<>();
        JsonNode metadata = CardService.parse(card.resultMetadata);
        if (metadata == null) {
            return out;
        }
        JsonNode names = CardService.parse(card.visualizationSettings).path(setting);
        for (JsonNode col : metadata) {
            boolean named = names.isArray() && contains(names, col.path("name").asText());
            if (named || (!names.isArray() && source.equals(col.path("source").asText()))) {
                out.add(col);
            }
        }
        return out;
    }

    private static boolean contains(JsonNode names, String name) {
        for (JsonNode n : names) {
            if (n.asText().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean numeric(JsonNode col) {
        return NUMERIC.contains(col.path("base_type").asText()) || NUMERIC.contains(col.path("effective_type").asText());
    }

    private static boolean temporal(JsonNode col) {
        String type = col.path("effective_type").asText(col.path("base_type").asText());
        return type.startsWith("type/Date") || type.startsWith("type/Time") || type.equals("type/Instant");
    }

    /** Entities related to a card: its table, other cards on that table, the dashboards it is on. */
    @GET
    @Path("{id}/related")
    @Access(Access.Level.USER)
    public Map<String, Object> related(@PathParam("id") PosInt id) {
        Card card = cards.requireReadable(id.value(), caller);
        Map<String, Object> out = relatedTo(card.tableId, card.id);
        List<Map<String, Object>> dashboards = new ArrayList<>();
        for (Long dashboardId : cards.dashboardIdsOfCard(card.id)) {
            dashboards.add(Map.of("id", dashboardId, "model", "dashboard"));
        }
        out.put("dashboards", dashboards);
        return out;
    }

    /** {@code {"query": dataset query}}: related entities of an ad-hoc query (its source table). */
    @POST
    @Path("related")
    @Access(Access.Level.USER)
    public Map<String, Object> relatedToQuery(JsonNode json) {
        JsonNode query = json == null ? null : json.has("query") && json.get("query").isObject() && json.get("query").has("database")
                ? json.get("query") : json;
        if (query == null || !query.isObject()) {
            throw io.quarry.web.param.Validation.invalid("query", ParamRule.MAP, false, String.valueOf(json));
        }
        io.quarry.qp.QueryBody.check(query);
        JsonNode source = query.path("query").path("source-table");
        Map<String, Object> out = relatedTo(source.canConvertToLong() && source.isNumber() ? source.asLong() : null, 0);
        out.put("dashboards", List.of());
        return out;
    }

    private Map<String, Object> relatedTo(Long tableId, long exceptCardId) {
        Map<String, Object> out = new LinkedHashMap<>();
        Table table = tableId == null ? null : metadata.findTable(tableId);
        if (table != null) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("id", table.id);
            t.put("db_id", table.dbId);
            t.put("schema", table.schemaName);
            t.put("name", table.name);
            t.put("display_name", table.displayName);
            t.put("description", table.description);
            out.put("table", t);
        } else {
            out.put("table", null);
        }
        out.put("metrics", List.of());
        out.put("segments", List.of());
        out.put("dashboard-mates", List.of());
        List<Card> similar = new ArrayList<>();
        if (table != null) {
            var visible = cards.visible(caller);
            for (Card c : cards.cardsOnTable(tableId, exceptCardId)) {
                if (visible.canRead(c.collectionId) && similar.size() < 10) {
                    similar.add(c);
                }
            }
        }
        List<Map<String, Object>> similarViews = new ArrayList<>();
        for (Card c : similar) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("id", c.id);
            v.put("name", c.name);
            v.put("description", c.description);
            v.put("display", c.display);
            v.put("type", c.cardType);
            v.put("model", "card");
            similarViews.add(v);
        }
        out.put("similar-questions", similarViews);
        out.put("canonical-metric", null);
        out.put("collections", List.of());
        return out;
    }
}
