package io.quarry.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.appdb.ColumnLengths;
import io.quarry.appdb.Db;
import io.quarry.appdb.RevisionCache;
import io.quarry.collection.CollectionAccess.Visible;
import io.quarry.collection.CollectionAccess;
import io.quarry.core.Caller;
import io.quarry.core.EntityIds;
import io.quarry.core.Json;
import io.quarry.dashboard.LayoutInput.DashcardIn;
import io.quarry.dashboard.LayoutInput.TabIn;
import io.quarry.revision.Revertible;
import io.quarry.revision.Revisions;
import io.quarry.setting.Settings;
import io.quarry.user.Creators;
import io.quarry.user.User;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import io.quarry.web.param.Patch;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.apache.ibatis.session.SqlSession;

/**
 * Dashboards: their dashcards and tabs, rights from their collection, revision history, copies and public links.
 * Every change runs in one transaction with its revision, so a failed request writes nothing.
 */
public final class DashboardService implements Revertible {
    static final String CURATE = "You do not have curate permissions for this Collection.";

    private final Db db;
    private final RevisionCache<List<Long>, Placed> placements;
    private final CollectionAccess access;
    private final Revisions revisions;
    private final Settings settings;
    private final Clock clock;
    private final SavedContent content;

    public DashboardService(Db db, CollectionAccess access, Revisions revisions, Settings settings, Clock clock, SavedContent content) {
        this.db = db;
        this.content = java.util.Objects.requireNonNull(content, "content is null");
        this.placements = db.cache(10_000);
        this.access = access;
        this.revisions = revisions;
        this.settings = settings;
        this.clock = clock;
    }

    // --- create, read, list ---------------------------------------------------------------------------------------

    public Map<String, Object> create(Caller caller, JsonNode json) {
        Body body = Body.of(json).storedIn("report_dashboard");
        String name = body.nonBlank("name");
        String description = BodyRules.optText(body, "description");
        List<Map<String, Object>> parameters = BodyRules.optParameters(body, "parameters");
        Long cacheTtl = body.optPosInt("cache_ttl");
        Long collectionId = body.optPosInt("collection_id");
        Long collectionPosition = body.optPosInt("collection_position");
        body.throwIfInvalid();
        requireCurate(caller, collectionId);
        long userId = caller.id();
        return db.tx(session -> {
            DashboardMapper m = session.getMapper(DashboardMapper.class);
            Dashboard d = new Dashboard();
            d.entityId = EntityIds.next();
            d.name = name;
            d.description = description;
            d.creatorId = userId;
            d.parameters = Json.write(parameters == null ? List.of() : parameters);
            d.cacheTtl = cacheTtl == null ? null : Math.toIntExact(cacheTtl);
            d.collectionId = collectionId;
            d.collectionPosition = collectionPosition == null ? null : Math.toIntExact(collectionPosition);
            d.createdAt = now();
            d.updatedAt = d.createdAt;
            m.insertDashboard(d);
            record(session, d.id, userId, true);
            return view(session, caller, m.findDashboard(d.id));
        });
    }

    public Map<String, Object> get(Caller caller, long id) {
        return db.tx(session -> {
            Dashboard d = readable(session, caller, id);
            return view(session, caller, d);
        });
    }

    /** {@code GET /api/dashboard/}: {@code all} (not archived), {@code mine} or {@code archived}, readable ones only. */
    public List<Map<String, Object>> list(Caller caller, String filter) {
        Visible visible = access.visible(caller);
        return db.tx(session -> {
            DashboardMapper m = session.getMapper(DashboardMapper.class);
            boolean archived = "archived".equals(filter);
            Long creator = "mine".equals(filter) ? caller.id() : null;
            List<Map<String, Object>> result = new ArrayList<>();
            Map<Long, User> users = new HashMap<>();
            Map<Long, LastEditRow> edits = new HashMap<>();
            m.lastEdits(null).forEach(e -> edits.put(e.dashboardId, e));
            for (Dashboard d : m.listDashboards(archived, creator)) {
                if (!visible.canRead(d.collectionId)) {
                    continue;
                }
                Map<String, Object> v = DashboardViews.dashboard(d);
                v.put("creator", Creators.of(session, d.creatorId, users));
                v.put("can_write", visible.canWrite(d.collectionId));
                putLastEdit(v, edits.get(d.id));
                result.add(v);
            }
            return result;
        });
    }

    // --- saving a transient dashboard --------------------------------------------------------------------------------

    /** Keys of a transient dashboard that are no part of a saved one (Metabase drops them). */
    private static final Set<String> TRANSIENT_KEYS = Set.of("rule", "related", "transient_name", "transient_filters",
            "param_fields", "more");

    /**
     * {@code POST /api/dashboard/save} ({@code collectionId} null: the caller's generated-dashboards collection) and
     * {@code .../save/collection/:id}: stores a denormalised dashboard — its fields, {@code tabs}, and {@code dashcards}
     * each with its whole {@code card}. A card with an id is used as it is (it must exist, be readable and live); a card
     * without a {@code dataset_query} (text, heading) is no card; any other card is created in the target collection as
     * {@code POST /api/card} creates one. The layout then goes through the update's layout rules. Everything is checked
     * before anything is stored; cards created before a later failure are deleted again. Answers the stored dashboard
     * row (not hydrated), as Metabase.
     */
    public Map<String, Object> saveTransient(Caller caller, Long collectionId, JsonNode json) {
        Body body = Body.of(json).storedIn("report_dashboard");
        String name = body.nonBlank("name");
        String description = BodyRules.optText(body, "description");
        List<Map<String, Object>> parameters = BodyRules.optParameters(body, "parameters");
        JsonNode dashcards = body.get("dashcards", Body.Kind.OBJECTS);
        if (!dashcards.isNull() && !dashcards.isArray()) {
            body.addError("dashcards", LayoutInput.UNIQUE, "should be a sequence, received: " + BodyRules.render(dashcards));
        } else if (dashcards.isArray()) {
            for (int i = 0; i < dashcards.size(); i++) {
                if (!dashcards.get(i).isObject()) {
                    body.addError("dashcards", LayoutInput.UNIQUE, "[" + i + "]: should be a map, received: " + BodyRules.render(dashcards.get(i)));
                }
            }
        }
        // the tabs' own shape, in the same 400 as the other fields (their ids are replaced below)
        LayoutInput.tabs(body);
        // the layout as an update takes it: new (negative) ids, each card's id once known
        ObjectNode layout = Json.object();
        ArrayNode cards = layout.putArray("dashcards");
        List<ObjectNode> newCards = new ArrayList<>();
        List<ObjectNode> newCardSlots = new ArrayList<>();
        List<Long> existing = new ArrayList<>();
        Map<Long, Long> tabIds = new HashMap<>();
        JsonNode tabs = body.get("tabs", Body.Kind.OBJECTS);
        if (tabs.isArray()) {
            ArrayNode out = layout.putArray("tabs");
            long fresh = -1;
            for (JsonNode tab : tabs) {
                ObjectNode copy = tab.isObject() ? ((ObjectNode) tab).deepCopy() : Json.object();
                if (tab.path("id").canConvertToExactIntegral()) {
                    tabIds.put(tab.get("id").asLong(), fresh);
                }
                copy.put("id", fresh--);
                out.add(copy);
            }
        } else if (!tabs.isNull()) {
            layout.set("tabs", tabs);
        }
        long fresh = -1;
        if (dashcards.isArray()) {
            for (JsonNode dc : dashcards) {
                if (!dc.isObject()) {
                    cards.add(dc);
                    continue;
                }
                ObjectNode copy = ((ObjectNode) dc).deepCopy();
                JsonNode card = copy.remove("card");
                copy.put("id", fresh--);
                copy.remove("card_id");
                if (copy.path("dashboard_tab_id").canConvertToExactIntegral()) {
                    Long tab = tabIds.get(copy.get("dashboard_tab_id").asLong());
                    if (tab != null) {
                        copy.put("dashboard_tab_id", tab);
                    }
                }
                if (copy.get("series") instanceof ArrayNode series) {
                    ArrayNode ids = Json.MAPPER.createArrayNode();
                    series.forEach(c -> ids.add(Json.object().set("id", c.path("id"))));
                    copy.set("series", ids);
                    series.forEach(c -> {
                        if (c.path("id").canConvertToExactIntegral()) {
                            existing.add(c.get("id").asLong());
                        }
                    });
                }
                if (card != null && card.isObject() && card.path("id").canConvertToExactIntegral() && card.get("id").asLong() > 0) {
                    copy.put("card_id", card.get("id").asLong());
                    existing.add(card.get("id").asLong());
                } else if (card != null && card.isObject() && card.hasNonNull("dataset_query")) {
                    ObjectNode newCard = ((ObjectNode) card).deepCopy();
                    newCard.remove("id");
                    TRANSIENT_KEYS.forEach(newCard::remove);
                    newCard.remove("dashboard_id");
                    newCard.remove("dashboard_tab_id");
                    newCards.add(newCard);
                    newCardSlots.add(copy);
                }
                cards.add(copy);
            }
        }
        body.throwIfInvalid();
        // the layout's own rules, before anything is stored (new cards' ids are not known yet and not needed here)
        Body layoutCheck = Body.of(layout);
        LayoutInput.dashcards(layoutCheck);
        LayoutInput.tabs(layoutCheck);
        layoutCheck.throwIfInvalid();
        long target;
        if (collectionId != null) {
            db.run(session -> Checks.found(session.getMapper(DashboardMapper.class).findCollection(collectionId)));
            Checks.permitted(access.canWrite(caller, collectionId));
        }
        db.run(session -> checkCards(session.getMapper(DashboardMapper.class), access.visible(caller), null, existing));
        // made when missing, so only once everything that can be checked before storing passed
        target = collectionId != null ? collectionId : content.generatedDashboardsCollection(caller);
        List<Long> created = new ArrayList<>();
        try {
            for (int i = 0; i < newCards.size(); i++) {
                ObjectNode card = newCards.get(i);
                card.put("collection_id", target);
                card.remove("collection_position");
                long id = content.createCard(caller, card);
                created.add(id);
                newCardSlots.get(i).put("card_id", id);
            }
            long userId = caller.id();
            return db.tx(session -> {
                DashboardMapper m = session.getMapper(DashboardMapper.class);
                Dashboard d = new Dashboard();
                d.entityId = EntityIds.next();
                d.name = name;
                d.description = description;
                d.creatorId = userId;
                d.parameters = Json.write(parameters == null ? List.of() : parameters);
                d.collectionId = target;
                d.createdAt = now();
                d.updatedAt = d.createdAt;
                m.insertDashboard(d);
                update(session, caller, d.id, layout, false);
                record(session, d.id, userId, true);
                return DashboardViews.dashboard(m.findDashboard(d.id));
            });
        } catch (RuntimeException e) {
            for (Long id : created) {
                try {
                    content.deleteCard(caller, id);
                } catch (RuntimeException cleanup) {
                    e.addSuppressed(cleanup);
                }
            }
            throw e;
        }
    }

    // --- update -------------------------------------------------------------------------------------------------------

    public Map<String, Object> update(Caller caller, long id, JsonNode json) {
        return db.tx(session -> {
            update(session, caller, id, json, false);
            record(session, id, caller.id(), false);
            return view(session, caller, session.getMapper(DashboardMapper.class).findDashboard(id));
        });
    }

    /**
     * Metabase's deprecated {@code PUT /api/dashboard/:id/cards}: {@code {"cards": [...], "tabs": [...]?}} is the
     * {@code dashcards} and {@code tabs} of an update (the same validation, rights, layout diff and revision), answered
     * as {@code {"cards": [dashcards as GET shows them], "tabs": [...]}}. Without {@code tabs} the tabs stay as they are.
     */
    public Map<String, Object> updateCards(Caller caller, long id, JsonNode json) {
        Body body = Body.of(json);
        LayoutInput.dashcards(body, "cards", true);
        LayoutInput.tabs(body);
        body.throwIfInvalid();
        ObjectNode layout = Json.object();
        layout.set("dashcards", json.get("cards"));
        if (json.has("tabs")) {
            layout.set("tabs", json.get("tabs"));
        }
        return db.tx(session -> {
            update(session, caller, id, layout, false);
            record(session, id, caller.id(), false);
            Map<String, Object> view = view(session, caller, session.getMapper(DashboardMapper.class).findDashboard(id));
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("cards", view.get("dashcards"));
            answer.put("tabs", view.get("tabs"));
            return answer;
        });
    }

    /**
     * The body of an update inside the caller's transaction: validates {@code json} (one 400 with every problem), checks
     * rights, writes the fields and the layout. Records no revision. A revert ({@code reverting}) restores the layout
     * even of an archived dashboard and may drop tabs that dashcards without a tab lived on.
     */
    private void update(SqlSession session, Caller caller, long id, JsonNode json, boolean reverting) {
        Body body = Body.of(json).storedIn("report_dashboard");
        String name = body.optNonBlank("name");
        Patch<String> description = Patch.of(body, "description", BodyRules::optText);
        String caveats = BodyRules.optText(body, "caveats");
        String pointsOfInterest = BodyRules.optText(body, "points_of_interest");
        Boolean showInGettingStarted = BodyRules.optBoolean(body, "show_in_getting_started");
        Boolean enableEmbedding = BodyRules.optBoolean(body, "enable_embedding");
        Map<String, Object> embeddingParams = embeddingParams(body);
        List<Map<String, Object>> parameters = BodyRules.optParameters(body, "parameters");
        body.optPosInt("position");
        String width = body.has("width") ? body.enumOf("width", false, "fixed", "full") : null;
        Boolean archived = BodyRules.optBoolean(body, "archived");
        Patch<Long> collectionId = Patch.of(body, "collection_id", Body::optPosInt);
        Patch<Long> collectionPosition = Patch.of(body, "collection_position", Body::optPosInt);
        Patch<Long> cacheTtl = Patch.of(body, "cache_ttl", Body::optPosInt);
        Boolean autoApply = BodyRules.optBoolean(body, "auto_apply_filters");
        List<DashcardIn> dashcards = LayoutInput.dashcards(body);
        List<TabIn> tabs = LayoutInput.tabs(body);
        body.throwIfInvalid();
        DashboardMapper m = session.getMapper(DashboardMapper.class);
        Dashboard d = Checks.found(m.findDashboard(id));
        Checks.permitted(access.canWrite(caller, d.collectionId));
        boolean wasArchived = d.archived;
        if (collectionId.changes(d.collectionId)) {
            requireCurate(session, caller, collectionId.value());
        }
        boolean embeddingChanges = (enableEmbedding != null && enableEmbedding != d.enableEmbedding)
                || (embeddingParams != null && !Objects.equals(Json.MAPPER.valueToTree(embeddingParams), parse(d.embeddingParams)));
        if (embeddingChanges) {
            Checks.check(embeddingEnabled(), "Embedding is not enabled.");
            Checks.permitted(caller.superuser());
        }
        // :present keys (null clears) and :non-nil keys (null ignored), as Metabase's update
        d.description = description.applyTo(d.description);
        d.collectionId = collectionId.applyTo(d.collectionId);
        d.collectionPosition = collectionPosition.map(Math::toIntExact).applyTo(d.collectionPosition);
        d.cacheTtl = cacheTtl.map(Math::toIntExact).applyTo(d.cacheTtl);
        if (width != null) {
            d.width = width;
        }
        if (name != null) {
            d.name = name;
        }
        if (parameters != null) {
            d.parameters = Json.write(parameters);
        }
        if (caveats != null) {
            d.caveats = caveats;
        }
        if (pointsOfInterest != null) {
            d.pointsOfInterest = pointsOfInterest;
        }
        if (showInGettingStarted != null) {
            d.showInGettingStarted = showInGettingStarted;
        }
        if (enableEmbedding != null) {
            d.enableEmbedding = enableEmbedding;
        }
        if (embeddingParams != null) {
            d.embeddingParams = Json.write(embeddingParams);
        }
        if (autoApply != null) {
            d.autoApplyFilters = autoApply;
        }
        if (archived != null && archived != d.archived) {
            d.archived = archived;
            d.archivedDirectly = archived;
        }
        d.updatedAt = now();
        m.updateDashboard(d);
        if (dashcards != null) {
            if (wasArchived && !reverting) {
                throw archivedObject();
            }
            updateLayout(session, caller, d, dashcards, tabs, reverting);
        }
    }

    /**
     * Replaces the dashboard's tabs (when sent) and dashcards with the given sets: negative ids create, missing ones
     * are removed, the others updated. Tabs removed take their dashcards with them.
     */
    private void updateLayout(SqlSession session, Caller caller, Dashboard d, List<DashcardIn> wanted, List<TabIn> wantedTabs,
            boolean reverting) {
        DashboardMapper m = session.getMapper(DashboardMapper.class);
        List<DashboardTab> currentTabs = m.tabsOf(d.id);
        // as Metabase: on a dashboard with exactly one tab (the one sent, else the one it has), dashcards without a tab go on it
        Long onlyTab = wantedTabs != null ? (wantedTabs.size() == 1 ? Long.valueOf(wantedTabs.get(0).id()) : null)
                : currentTabs.size() == 1 ? currentTabs.get(0).id : null;
        if (onlyTab != null) {
            wanted = wanted.stream().map(dc -> dc.tabId() == null ? dc.onTab(onlyTab) : dc).toList();
        }
        boolean tabbed = reverting ? wantedTabs != null && !wantedTabs.isEmpty() : !currentTabs.isEmpty();
        if (tabbed && wanted.stream().anyMatch(dc -> dc.tabId() == null)) {
            throw ApiException.badRequest("This dashboard has tab, makes sure every card has a tab");
        }
        OffsetDateTime now = now();
        Map<Long, Long> tabIds = new HashMap<>();
        Set<Long> finalTabs = new HashSet<>();
        Set<Long> deletedTabs = new HashSet<>();
        if (wantedTabs == null) {
            currentTabs.forEach(t -> finalTabs.add(t.id));
        } else {
            Set<Long> existing = new HashSet<>();
            currentTabs.forEach(t -> existing.add(t.id));
            Set<Long> kept = new HashSet<>();
            int position = 0;
            for (TabIn tab : wantedTabs) {
                if (existing.contains(tab.id())) {
                    m.updateTab(tab.id(), tab.name(), position, now);
                    kept.add(tab.id());
                    finalTabs.add(tab.id());
                } else {
                    DashboardTab row = new DashboardTab();
                    row.entityId = EntityIds.next();
                    row.dashboardId = d.id;
                    row.name = tab.name();
                    row.position = position;
                    row.createdAt = now;
                    row.updatedAt = now;
                    m.insertTab(row);
                    tabIds.put(tab.id(), row.id);
                    finalTabs.add(row.id);
                }
                position++;
            }
            for (DashboardTab t : currentTabs) {
                if (!kept.contains(t.id)) {
                    deletedTabs.add(t.id);
                }
            }
        }
        Map<Long, Dashcard> current = new LinkedHashMap<>();
        for (Dashcard dc : m.dashcardsOf(d.id)) {
            if (dc.dashboardTabId == null || !deletedTabs.contains(dc.dashboardTabId)) {
                current.put(dc.id, dc);
            }
        }
        Map<Long, List<Long>> currentSeries = new HashMap<>();
        for (SeriesRow s : m.seriesOfDashboard(d.id)) {
            currentSeries.computeIfAbsent(s.dashboardcardId, k -> new ArrayList<>()).add(s.cardId);
        }
        for (Long tab : deletedTabs) {
            m.deleteTab(tab);
        }
        Set<Long> keptCards = new HashSet<>();
        Visible visible = access.visible(caller);
        for (DashcardIn in : wanted) {
            Long tabId = in.tabId() == null ? null : tabIds.getOrDefault(in.tabId(), in.tabId());
            if (tabId != null && !finalTabs.contains(tabId)) {
                throw ApiException.invalidField("dashcards", "dashboard_tab_id " + in.tabId() + " is not a tab of this dashboard.");
            }
            Dashcard existing = current.get(in.id());
            if (existing == null) {
                checkCards(m, visible, in.cardId(), in.series());
                Dashcard dc = new Dashcard();
                dc.entityId = EntityIds.next();
                dc.dashboardId = d.id;
                fill(dc, in, tabId);
                dc.createdAt = now;
                dc.updatedAt = now;
                m.insertDashcard(dc);
                writeSeries(m, dc.id, in.series());
            } else {
                keptCards.add(existing.id);
                List<Long> oldSeries = currentSeries.getOrDefault(existing.id, List.of());
                boolean cardChanged = !Objects.equals(existing.cardId, in.cardId());
                List<Long> newSeries = in.series() == null ? null : in.series().stream().filter(s -> !oldSeries.contains(s)).toList();
                checkCards(m, visible, cardChanged ? in.cardId() : null, newSeries);
                fill(existing, in, tabId);
                if (in.parameterMappings() == null) {
                    existing.parameterMappings = existing.parameterMappings == null ? "[]" : existing.parameterMappings;
                }
                existing.updatedAt = now;
                m.updateDashcard(existing);
                if (in.series() != null && !in.series().equals(oldSeries)) {
                    m.deleteSeriesOf(existing.id);
                    writeSeries(m, existing.id, in.series());
                }
            }
        }
        for (Dashcard dc : current.values()) {
            if (!keptCards.contains(dc.id)) {
                m.deleteDashcard(dc.id);
            }
        }
    }

    private static void fill(Dashcard dc, DashcardIn in, Long tabId) {
        dc.cardId = in.cardId();
        dc.dashboardTabId = tabId;
        dc.actionId = in.actionId();
        dc.gridRow = in.row();
        dc.gridCol = in.col();
        dc.sizeX = in.sizeX();
        dc.sizeY = in.sizeY();
        if (in.parameterMappings() != null || dc.parameterMappings == null) {
            dc.parameterMappings = in.parameterMappings() == null ? "[]" : Json.write(in.parameterMappings());
        }
        if (in.visualizationSettings() != null || dc.visualizationSettings == null) {
            dc.visualizationSettings = in.visualizationSettings() == null ? "{}" : Json.write(in.visualizationSettings());
        }
    }

    private static void writeSeries(DashboardMapper m, long dashcardId, List<Long> series) {
        if (series == null) {
            return;
        }
        int position = 0;
        for (Long cardId : series) {
            SeriesRow row = new SeriesRow();
            row.dashboardcardId = dashcardId;
            row.cardId = cardId;
            row.position = position++;
            m.insertSeries(row);
        }
    }

    /** Cards newly placed on a dashboard must exist (404), be readable (403) and not be archived. */
    private static void checkCards(DashboardMapper m, Visible visible, Long cardId, List<Long> series) {
        List<Long> ids = new ArrayList<>();
        if (cardId != null) {
            ids.add(cardId);
        }
        if (series != null) {
            ids.addAll(series);
        }
        Map<Long, CardRow> found = cardsById(m, ids);
        for (Long id : ids) {
            CardRow card = Checks.found(found.get(id));
            Checks.permitted(visible.canRead(card.collectionId));
            if (card.archived) {
                throw archivedObject();
            }
        }
    }

    /** The cards with these ids, in one query; missing ids have no entry. */
    static Map<Long, CardRow> cardsById(DashboardMapper m, java.util.Collection<Long> ids) {
        Map<Long, CardRow> cards = new HashMap<>();
        if (!ids.isEmpty()) {
            m.findCards(new ArrayList<>(new HashSet<>(ids))).forEach(c -> cards.put(c.id, c));
        }
        return cards;
    }

    /** The cards shown by these dashcards, themselves or as series, in one query. */
    private static Map<Long, CardRow> cardsOf(DashboardMapper m, List<Dashcard> dashcards, Map<Long, List<Long>> series) {
        Set<Long> ids = new HashSet<>();
        dashcards.forEach(dc -> {
            if (dc.cardId != null) {
                ids.add(dc.cardId);
            }
        });
        series.values().forEach(ids::addAll);
        return cardsById(m, ids);
    }

    private static Map<String, Object> embeddingParams(Body body) {
        JsonNode value = body.get("embedding_params", Body.Kind.MAP);
        if (value.isNull()) {
            return null;
        }
        boolean ok = value.isObject();
        if (ok) {
            for (JsonNode v : value) {
                if (!v.isTextual() || !Set.of("disabled", "enabled", "locked").contains(v.asText())) {
                    ok = false;
                }
            }
        }
        if (!ok) {
            body.addError("embedding_params", "nullable value must be a valid embedding params map.",
                    "value must be a valid embedding params map., received: " + BodyRules.render(value));
            return null;
        }
        return body.optMap("embedding_params");
    }

    // --- delete, copy ----------------------------------------------------------------------------------------

    /** Metabase v0.63's hard delete (archiving is {@code PUT archived=true}); needs write on the collection. */
    public void delete(Caller caller, long id) {
        db.run(session -> {
            DashboardMapper m = session.getMapper(DashboardMapper.class);
            Dashboard d = Checks.found(m.findDashboard(id));
            Checks.permitted(access.canWrite(caller, d.collectionId));
            m.deleteDashboard(id);
        });
    }

    /** What a collection deleted for good does to its dashboards: the hard delete of each (tabs, dashcards, subscriptions go with it). */
    public io.quarry.collection.CollectionContents contents() {
        return (session, collectionIds) -> {
            DashboardMapper m = session.getMapper(DashboardMapper.class);
            List<Long> ids = new ArrayList<>(new HashSet<>(collectionIds));
            for (int from = 0; from < ids.size(); from += 500) {
                for (Long id : m.dashboardIdsInCollections(ids.subList(from, Math.min(ids.size(), from + 500)))) {
                    m.deleteDashboard(id);
                }
            }
        };
    }

    public Map<String, Object> copy(Caller caller, long fromId, JsonNode json) {
        Body body = Body.of(json).storedIn("report_dashboard");
        String name = body.optNonBlank("name");
        String description = BodyRules.optText(body, "description");
        Long collectionId = body.optPosInt("collection_id");
        Long collectionPosition = body.optPosInt("collection_position");
        Boolean deep = BodyRules.optBoolean(body, "is_deep_copy");
        body.throwIfInvalid();
        requireCurate(caller, collectionId);
        long userId = caller.id();
        boolean deepCopy = Boolean.TRUE.equals(deep);
        return db.tx(session -> {
            DashboardMapper m = session.getMapper(DashboardMapper.class);
            Dashboard source = readable(session, caller, fromId);
            Visible visible = access.visible(caller);
            OffsetDateTime now = now();
            Dashboard d = new Dashboard();
            d.entityId = EntityIds.next();
            d.name = name != null ? name : source.name;
            d.description = description != null ? description : source.description;
            d.parameters = source.parameters == null ? "[]" : source.parameters;
            d.creatorId = userId;
            d.collectionId = collectionId;
            d.collectionPosition = collectionPosition == null ? null : Math.toIntExact(collectionPosition);
            d.width = source.width;
            d.createdAt = now;
            d.updatedAt = now;
            m.insertDashboard(d);
            Map<Long, Long> tabIds = new HashMap<>();
            for (DashboardTab tab : m.tabsOf(fromId)) {
                DashboardTab copy = new DashboardTab();
                copy.entityId = EntityIds.next();
                copy.dashboardId = d.id;
                copy.name = tab.name;
                copy.position = tab.position;
                copy.createdAt = now;
                copy.updatedAt = now;
                m.insertTab(copy);
                tabIds.put(tab.id, copy.id);
            }
            Map<Long, List<Long>> series = new HashMap<>();
            for (SeriesRow s : m.seriesOfDashboard(fromId)) {
                series.computeIfAbsent(s.dashboardcardId, k -> new ArrayList<>()).add(s.cardId);
            }
            // which cards to copy (deep copy, not models), to reference, or to leave out (unreadable or archived)
            Map<Long, Long> copied = new HashMap<>();
            List<Map<String, Object>> uncopied = new ArrayList<>();
            Set<Long> discarded = new HashSet<>();
            List<Dashcard> dashcards = m.dashcardsOf(fromId);
            Map<Long, CardRow> cards = cardsOf(m, dashcards, series);
            for (Dashcard dc : dashcards) {
                if (dc.cardId == null) {
                    continue;
                }
                CardRow parent = cards.get(dc.cardId);
                List<Long> ids = new ArrayList<>();
                ids.add(dc.cardId);
                ids.addAll(series.getOrDefault(dc.id, List.of()));
                for (Long cardId : ids) {
                    CardRow card = cards.get(cardId);
                    boolean readable = card != null && parent != null && visible.canRead(parent.collectionId) && visible.canRead(card.collectionId);
                    if (!readable || card.archived) {
                        if (discarded.add(cardId) && card != null) {
                            uncopied.add(DashboardViews.cardSummary(card));
                        }
                    } else if (deepCopy && !"model".equals(card.cardType) && !copied.containsKey(cardId)) {
                        CardRow copy = m.findCard(cardId); // a fresh row: the insert below rewrites its id
                        copy.entityId = EntityIds.next();
                        if (Objects.equals(card.collectionId, collectionId)) {
                            copy.name = ColumnLengths.cut("report_card", "name", card.name + " - Duplicate");
                        }
                        copy.collectionId = collectionId;
                        copy.collectionPosition = null;
                        copy.creatorId = userId;
                        copy.createdAt = now;
                        copy.updatedAt = now;
                        m.insertCardCopy(copy);
                        copied.put(cardId, copy.id);
                    }
                }
            }
            for (Dashcard dc : dashcards) {
                if (dc.actionId != null || (dc.cardId != null && discarded.contains(dc.cardId))) {
                    continue;
                }
                List<Long> oldSeries = series.getOrDefault(dc.id, List.of());
                dc.entityId = EntityIds.next();
                dc.dashboardId = d.id;
                dc.dashboardTabId = dc.dashboardTabId == null ? null : tabIds.get(dc.dashboardTabId);
                if (dc.cardId != null) {
                    Long oldCard = dc.cardId;
                    dc.cardId = copied.getOrDefault(oldCard, oldCard);
                    dc.parameterMappings = remapMappings(dc.parameterMappings, copied);
                }
                dc.createdAt = now;
                dc.updatedAt = now;
                m.insertDashcard(dc);
                List<Long> newSeries = new ArrayList<>();
                for (Long s : oldSeries) {
                    if (!discarded.contains(s)) {
                        newSeries.add(copied.getOrDefault(s, s));
                    }
                }
                writeSeries(m, dc.id, newSeries);
            }
            record(session, d.id, userId, true);
            Map<String, Object> view = view(session, caller, m.findDashboard(d.id));
            if (!uncopied.isEmpty()) {
                view.put("uncopied", uncopied);
            }
            return view;
        });
    }

    private static String remapMappings(String mappings, Map<Long, Long> copied) {
        JsonNode parsed = parse(mappings);
        if (!(parsed instanceof ArrayNode array)) {
            return mappings;
        }
        for (JsonNode mapping : array) {
            if (mapping instanceof ObjectNode o && o.path("card_id").canConvertToExactIntegral()) {
                Long to = copied.get(o.path("card_id").asLong());
                if (to != null) {
                    o.put("card_id", to);
                }
            }
        }
        return Json.write(array);
    }

    // --- revisions (through /api/revision) ---------------------------------------------------------------------------

    @Override
    public String model() {
        return Revisions.DASHBOARD;
    }

    @Override
    public void requireRead(Caller caller, long id) {
        db.run(session -> readable(session, caller, id));
    }

    /**
     * Restores the dashboard to a stored revision inside {@code session}: its fields, tabs and dashcards as they were
     * (tabs and dashcards removed since are created again; dashcards whose card is gone or archived are left out, as
     * Metabase does). Needs write rights on the dashboard's collection now and on the one it returns to (a collection
     * deleted since keeps the dashboard where it is). Records nothing: {@code /api/revision/revert} records the
     * reversion. Returns the dashboard as a revision stores it after the change.
     */
    @Override
    public Map<String, Object> revert(SqlSession session, Caller caller, long id, Map<String, Object> object) {
        DashboardMapper m = session.getMapper(DashboardMapper.class);
        Dashboard current = Checks.found(m.findDashboard(id));
        Checks.permitted(access.canWrite(caller, current.collectionId));
        ObjectNode body = Json.object();
        for (String key : List.of("name", "description", "parameters", "collection_id", "collection_position", "cache_ttl",
                "archived", "auto_apply_filters", "width")) {
            if (object.containsKey(key)) {
                body.set(key, Json.MAPPER.valueToTree(object.get(key)));
            }
        }
        if (body.path("collection_id").canConvertToExactIntegral() && m.findCollection(body.get("collection_id").asLong()) == null) {
            body.remove("collection_id");
        }
        if (body.path("parameters").isNull()) {
            body.remove("parameters");
        }
        Set<Long> liveTabs = new HashSet<>();
        Set<Long> liveCards = new HashSet<>();
        m.tabsOf(id).forEach(t -> liveTabs.add(t.id));
        m.dashcardsOf(id).forEach(dc -> liveCards.add(dc.id));
        Map<Long, Long> tabIds = new HashMap<>();
        ArrayNode tabs = body.putArray("tabs");
        long fresh = -1;
        for (Object t : listOf(object.get("tabs"))) {
            ObjectNode tab = Json.MAPPER.valueToTree(t);
            long tabId = tab.path("id").asLong();
            if (!liveTabs.contains(tabId)) {
                tabIds.put(tabId, fresh);
                tab.put("id", fresh--);
            }
            tabs.add(tab);
        }
        List<ObjectNode> stored = new ArrayList<>();
        Set<Long> referenced = new HashSet<>();
        for (Object c : listOf(object.get("cards"))) {
            ObjectNode card = Json.MAPPER.valueToTree(c);
            stored.add(card);
            if (card.path("card_id").canConvertToExactIntegral()) {
                referenced.add(card.get("card_id").asLong());
            }
            card.path("series").forEach(s -> referenced.add(s.path("id").asLong()));
        }
        Map<Long, CardRow> found = cardsById(m, referenced);
        ArrayNode cards = body.putArray("dashcards");
        for (ObjectNode card : stored) {
            if (card.path("card_id").canConvertToExactIntegral() && !usable(found, card.get("card_id").asLong())) {
                continue;
            }
            if (card.get("series") instanceof ArrayNode series) {
                ArrayNode kept = Json.MAPPER.createArrayNode();
                series.forEach(s -> {
                    if (usable(found, s.path("id").asLong())) {
                        kept.add(s);
                    }
                });
                card.set("series", kept);
            }
            if (!liveCards.contains(card.path("id").asLong())) {
                card.put("id", fresh--);
            }
            if (card.path("dashboard_tab_id").canConvertToExactIntegral() && tabIds.containsKey(card.path("dashboard_tab_id").asLong())) {
                card.put("dashboard_tab_id", tabIds.get(card.path("dashboard_tab_id").asLong()));
            }
            cards.add(card);
        }
        update(session, caller, id, body, true);
        return serialize(m, m.findDashboard(id));
    }

    /** A card a reverted dashcard may show again: it exists and is not archived. */
    private static boolean usable(Map<Long, CardRow> cards, long cardId) {
        CardRow card = cards.get(cardId);
        return card != null && !card.archived;
    }

    private static List<?> listOf(Object value) {
        return value instanceof List<?> list ? list : List.of();
    }

    // --- sharing --------------------------------------------------------------------------------------------------------

    public Map<String, Object> publicLink(Caller caller, long id) {
        Checks.permitted(caller.superuser());
        Checks.check(settings.bool("enable-public-sharing"), "Public sharing is not enabled.");
        return db.tx(session -> {
            DashboardMapper m = session.getMapper(DashboardMapper.class);
            Dashboard d = readable(session, caller, id);
            if (d.archived) {
                throw archivedObject();
            }
            String uuid = d.publicUuid;
            if (uuid == null) {
                uuid = UUID.randomUUID().toString();
                m.setPublicUuid(id, uuid, caller.id());
            }
            return Map.of("uuid", uuid);
        });
    }

    public void deletePublicLink(Caller caller, long id) {
        Checks.permitted(caller.superuser());
        Checks.check(settings.bool("enable-public-sharing"), "Public sharing is not enabled.");
        db.run(session -> {
            DashboardMapper m = session.getMapper(DashboardMapper.class);
            Dashboard d = m.findDashboard(id);
            Checks.found(d != null && d.publicUuid != null && !d.archived ? d : null);
            m.setPublicUuid(id, null, null);
        });
    }

    public List<Map<String, Object>> publicDashboards(Caller caller) {
        Checks.permitted(caller.superuser());
        Checks.check(settings.bool("enable-public-sharing"), "Public sharing is not enabled.");
        List<Map<String, Object>> result = new ArrayList<>();
        for (Dashboard d : db.with(DashboardMapper.class, DashboardMapper::publicDashboards)) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("name", d.name);
            v.put("id", d.id);
            v.put("public_uuid", d.publicUuid);
            result.add(v);
        }
        return result;
    }

    public List<Map<String, Object>> embeddableDashboards(Caller caller) {
        Checks.permitted(caller.superuser());
        Checks.check(embeddingEnabled(), "Embedding is not enabled.");
        List<Map<String, Object>> result = new ArrayList<>();
        for (Dashboard d : db.with(DashboardMapper.class, DashboardMapper::embeddableDashboards)) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("name", d.name);
            v.put("id", d.id);
            result.add(v);
        }
        return result;
    }

    private boolean embeddingEnabled() {
        return settings.bool("enable-embedding") || settings.bool("enable-embedding-static");
    }

    // --- running a dashcard ------------------------------------------------------------------------------------------

    /** A dashcard's card with the dashboard's parameter values mapped onto it, ready for the query processor. */
    public record CardRun(CardRow card, ObjectNode request) {
    }

    /**
     * Checks that the caller may read the dashboard and the card, that the dashcard is on the dashboard and shows the
     * card (itself or as a series), and maps each dashboard parameter value through the dashcard's
     * {@code parameter_mappings} onto the card. Parameters the dashcard does not map for this card are skipped.
     */
    public CardRun cardRun(Caller caller, long dashboardId, long dashcardId, long cardId, JsonNode parameters) {
        return cardRun(java.util.Objects.requireNonNull(caller, "caller is null"), dashboardId, dashcardId, cardId, parameters, true);
    }

    /**
     * As {@link #cardRun(Caller, long, long, long, JsonNode)} with the dashboard's own rights, for public links and
     * signed embeds (Metabase runs them as an administrator): no collection check, an archived card is not found.
     */
    public CardRun trustedCardRun(long dashboardId, long dashcardId, long cardId, JsonNode parameters) {
        return cardRun(null, dashboardId, dashcardId, cardId, parameters, false);
    }

    private CardRun cardRun(Caller caller, long dashboardId, long dashcardId, long cardId, JsonNode parameters,
                            boolean checked) {
        Placed placed = placements.get(List.of(dashboardId, dashcardId, cardId), key -> db.tx(session -> {
            DashboardMapper m = session.getMapper(DashboardMapper.class);
            Dashboard found = m.findDashboard(dashboardId);
            Dashcard dashcard = found == null ? null : m.findDashcard(dashcardId);
            if (dashcard == null || dashcard.dashboardId != dashboardId) {
                return new Placed(found, null, null);
            }
            boolean onCard = Objects.equals(dashcard.cardId, cardId)
                    || m.seriesOfDashboard(dashboardId).stream().anyMatch(s -> s.dashboardcardId == dashcardId && s.cardId == cardId);
            return new Placed(found, dashcard, onCard ? m.findCard(cardId) : null);
        }));
        Dashboard d = Checks.found(placed.dashboard());
        if (checked) {
            Checks.permitted(access.canRead(caller, d.collectionId));
        }
        Dashcard dc = placed.dashcard();
        if (dc == null) {
            throw ApiException.notFound();
        }
        CardRow card = Checks.found(placed.card());
        if (checked) {
            Checks.permitted(access.canRead(caller, card.collectionId));
        } else if (card.archived) {
            throw ApiException.notFound();
        }
        ObjectNode request = (ObjectNode) parse(card.datasetQuery);
        ArrayNode resolved = Json.MAPPER.createArrayNode();
        Map<String, JsonNode> dashboardParams = new HashMap<>();
        JsonNode declared = parse(d.parameters);
        if (declared != null) {
            for (JsonNode p : declared) {
                dashboardParams.put(p.path("id").asText(), p);
            }
        }
        JsonNode mappings = parse(dc.parameterMappings);
        if (parameters != null && parameters.isArray()) {
            for (JsonNode p : parameters) {
                String pid = p.path("id").asText();
                JsonNode declaredParam = dashboardParams.get(pid);
                if (declaredParam == null) {
                    throw new ApiException(400, "Dashboard does not have a parameter with ID \"" + pid + "\".",
                            Map.of("message", "Dashboard does not have a parameter with ID \"" + pid + "\".",
                                    "type", "invalid-parameter"));
                }
                JsonNode target = null;
                if (mappings != null) {
                    for (JsonNode mapping : mappings) {
                        if (pid.equals(mapping.path("parameter_id").asText())
                                && (!mapping.hasNonNull("card_id") || mapping.path("card_id").asLong() == cardId)) {
                            target = mapping.get("target");
                            break;
                        }
                    }
                }
                if (target == null) {
                    continue;
                }
                ObjectNode param = Json.object();
                String type = p.hasNonNull("type") ? p.get("type").asText() : declaredParam.path("type").asText();
                param.put("type", type);
                p.fields().forEachRemaining(e -> {
                    if (!e.getKey().equals("default")) {
                        param.set(e.getKey(), e.getValue());
                    }
                });
                JsonNode value = p.get("value");
                if (value != null && !value.isNull() && !value.isArray() && isOperator(type)
                        && !(value.isTextual() && value.asText().isBlank())) {
                    param.set("value", Json.MAPPER.createArrayNode().add(value));
                }
                param.put("id", pid);
                param.set("target", target);
                resolved.add(param);
            }
        }
        request.set("parameters", resolved);
        return new CardRun(card, request);
    }

    /**
     * A dashcard's dashboard, dashcard and card as a dashcard query finds them (null where missing, the card null too
     * when it is not on the dashcard), cached until anything cached changes: shared, never changed.
     */
    private record Placed(Dashboard dashboard, Dashcard dashcard, CardRow card) {
    }

    private static boolean isOperator(String type) {
        return type.startsWith("string/") || type.startsWith("number/");
    }

    /** The databases and cards a dashboard's dashcards need (a light form of Metabase's query_metadata). */
    public Map<String, Object> queryMetadata(Caller caller, long id) {
        return db.tx(session -> {
            DashboardMapper m = session.getMapper(DashboardMapper.class);
            readable(session, caller, id);
            Visible visible = access.visible(caller);
            List<Map<String, Object>> cards = new ArrayList<>();
            Set<Long> seen = new HashSet<>();
            Set<Long> databases = new java.util.TreeSet<>();
            List<Long> ids = new ArrayList<>();
            m.dashcardsOf(id).forEach(dc -> {
                if (dc.cardId != null) {
                    ids.add(dc.cardId);
                }
            });
            m.seriesOfDashboard(id).forEach(s -> ids.add(s.cardId));
            Map<Long, CardRow> found = cardsById(m, ids);
            for (Long cardId : ids) {
                CardRow card = found.get(cardId);
                if (card != null && seen.add(cardId) && visible.canRead(card.collectionId)) {
                    cards.add(DashboardViews.cardSummary(card));
                    databases.add(card.databaseId);
                }
            }
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("cards", cards);
            result.put("databases", databases.stream().map(dbId -> Map.of("id", dbId)).toList());
            result.put("tables", List.of());
            result.put("fields", List.of());
            result.put("snippets", List.of());
            result.put("dashboards", List.of());
            return result;
        });
    }

    /** How many related cards {@link #related} answers at most. */
    static final int RELATED_LIMIT = 5;

    /**
     * {@code GET /api/dashboard/:id/related} (Metabase's x-ray "related" for a dashboard): live cards the caller can
     * read, not on the dashboard, on a table one of its cards queries, that refer to at least one field, segment or
     * metric its cards refer to; the most similar first (most shared references, then the lowest id), at most
     * {@link #RELATED_LIMIT}. Metabase adds two random cards to its three best; Quarry keeps the order stable.
     */
    public Map<String, Object> related(Caller caller, long id) {
        return db.tx(session -> {
            DashboardMapper m = session.getMapper(DashboardMapper.class);
            readable(session, caller, id);
            Visible visible = access.visible(caller);
            List<Long> onDashboard = new ArrayList<>();
            m.dashcardsOf(id).forEach(dc -> {
                if (dc.cardId != null) {
                    onDashboard.add(dc.cardId);
                }
            });
            m.seriesOfDashboard(id).forEach(s -> onDashboard.add(s.cardId));
            Set<Long> tables = new HashSet<>();
            Set<String> references = new HashSet<>();
            for (CardRow card : cardsById(m, onDashboard).values()) {
                if (card.tableId != null) {
                    tables.add(card.tableId);
                }
                collectReferences(parse(card.datasetQuery), references);
            }
            List<Map<String, Object>> cards = new ArrayList<>();
            if (!tables.isEmpty() && !references.isEmpty()) {
                List<Map.Entry<CardRow, Integer>> scored = new ArrayList<>();
                for (CardRow candidate : m.liveCardsOnTables(new ArrayList<>(tables))) {
                    if (onDashboard.contains(candidate.id) || !visible.canRead(candidate.collectionId)) {
                        continue;
                    }
                    Set<String> own = new HashSet<>();
                    collectReferences(parse(candidate.datasetQuery), own);
                    own.retainAll(references);
                    if (!own.isEmpty()) {
                        scored.add(Map.entry(candidate, own.size()));
                    }
                }
                scored.sort((a, b) -> a.getValue().equals(b.getValue()) ? Long.compare(a.getKey().id, b.getKey().id)
                        : Integer.compare(b.getValue(), a.getValue()));
                for (Map.Entry<CardRow, Integer> e : scored.subList(0, Math.min(RELATED_LIMIT, scored.size()))) {
                    cards.add(DashboardViews.card(e.getKey(), visible));
                }
            }
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("cards", cards);
            return answer;
        });
    }

    /** The field, segment and metric references ({@code ["field", 12, ...]}, ...) anywhere in a query, as text. */
    private static void collectReferences(JsonNode node, Set<String> into) {
        if (node == null) {
            return;
        }
        if (node.isArray() && node.size() >= 2 && node.get(0).isTextual() && node.get(1).isIntegralNumber()
                && Set.of("field", "segment", "metric").contains(node.get(0).asText())) {
            into.add(node.get(0).asText() + ":" + node.get(1).asLong());
        }
        if (node.isContainerNode()) {
            node.forEach(child -> collectReferences(child, into));
        }
    }

    // --- helpers ------------------------------------------------------------------------------------------------------

    private Dashboard readable(SqlSession session, Caller caller, long id) {
        Dashboard d = Checks.found(session.getMapper(DashboardMapper.class).findDashboard(id));
        Checks.permitted(access.canRead(caller, d.collectionId));
        return d;
    }

    /** Metabase's check-write-perms-for-collection: 403 with a JSON message unless the caller may write there. */
    private void requireCurate(Caller caller, Long collectionId) {
        db.run(session -> requireCurate(session, caller, collectionId));
    }

    private void requireCurate(SqlSession session, Caller caller, Long collectionId) {
        if (collectionId != null && session.getMapper(DashboardMapper.class).findCollection(collectionId) == null) {
            throw ApiException.notFound();
        }
        if (!access.canWrite(caller, collectionId)) {
            throw new ApiException(403, CURATE, Map.of("message", CURATE));
        }
    }

    static ApiException archivedObject() {
        return new ApiException(404, "The object has been archived.",
                Map.of("message", "The object has been archived.", "error_code", "archived"));
    }

    private void record(SqlSession session, long id, long userId, boolean creation) {
        DashboardMapper m = session.getMapper(DashboardMapper.class);
        Dashboard d = m.findDashboard(id);
        revisions.record(session, Revisions.DASHBOARD, id, userId, serialize(m, d), null, creation, false);
    }

    /** The whole dashboard as a revision stores it: its fields, tabs and dashcards. */
    private static Map<String, Object> serialize(DashboardMapper m, Dashboard d) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("name", d.name);
        o.put("description", d.description);
        o.put("parameters", Json.MAPPER.convertValue(parse(d.parameters), List.class));
        o.put("collection_id", d.collectionId);
        o.put("collection_position", d.collectionPosition);
        o.put("cache_ttl", d.cacheTtl);
        o.put("archived", d.archived);
        o.put("auto_apply_filters", d.autoApplyFilters);
        o.put("width", d.width);
        List<Map<String, Object>> tabs = new ArrayList<>();
        for (DashboardTab t : m.tabsOf(d.id)) {
            tabs.add(new LinkedHashMap<>(Map.of("id", t.id, "name", t.name)));
        }
        o.put("tabs", tabs);
        Map<Long, List<Long>> series = new HashMap<>();
        for (SeriesRow s : m.seriesOfDashboard(d.id)) {
            series.computeIfAbsent(s.dashboardcardId, k -> new ArrayList<>()).add(s.cardId);
        }
        List<Map<String, Object>> cards = new ArrayList<>();
        for (Dashcard dc : m.dashcardsOf(d.id)) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("id", dc.id);
            c.put("card_id", dc.cardId);
            c.put("dashboard_tab_id", dc.dashboardTabId);
            c.put("action_id", dc.actionId);
            c.put("row", dc.gridRow);
            c.put("col", dc.gridCol);
            c.put("size_x", dc.sizeX);
            c.put("size_y", dc.sizeY);
            c.put("parameter_mappings", Json.MAPPER.convertValue(parse(dc.parameterMappings), Object.class));
            c.put("visualization_settings", Json.MAPPER.convertValue(parse(dc.visualizationSettings), Object.class));
            List<Map<String, Object>> s = new ArrayList<>();
            for (Long cardId : series.getOrDefault(dc.id, List.of())) {
                s.add(Map.of("id", cardId));
            }
            c.put("series", s);
            cards.add(c);
        }
        o.put("cards", cards);
        return o;
    }

    /** Metabase's {@code last-edit-info}: who made the newest revision, and when; nothing without one. */
    private static void putLastEdit(Map<String, Object> view, LastEditRow edit) {
        if (edit == null) {
            return;
        }
        view.put("last-edit-info", edit.summary().lastEdit(edit.createdAt));
    }

    /** The id of the dashboard with this NanoID {@code entity_id}; null when none has it. */
    public Long idByEntityId(String entityId) {
        return db.with(DashboardMapper.class, m -> m.findIdByEntityId(entityId));
    }

    /** A dashboard by its public UUID; null when no live dashboard has it. */
    public Long publicDashboardId(String uuid) {
        return db.with(DashboardMapper.class, m -> m.findPublicDashboardId(uuid));
    }

    /** The whole dashboard view with the dashboard's own rights (public links, embeds cut it down); 404 if archived. */
    /**
     * The fields with these ids as {@code param_fields} lists them (field id as text → {@code id, table_id, name,
     * display_name, base_type, semantic_type, has_field_values}), for public and embedded cards as for dashboards.
     */
    public Map<String, Object> paramFields(java.util.Collection<Long> fieldIds) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (!fieldIds.isEmpty()) {
            for (Map<String, Object> f : db.with(DashboardMapper.class, m -> m.findFields(new ArrayList<>(fieldIds)))) {
                out.put(String.valueOf(f.get("id")), f);
            }
        }
        return out;
    }

    public Map<String, Object> trustedView(long id) {
        return db.tx(session -> {
            Dashboard d = Checks.found(session.getMapper(DashboardMapper.class).findDashboard(id));
            if (d.archived) {
                throw ApiException.notFound();
            }
            Map<String, Object> v = view(session, new Visible(true, true, true, Set.of(), Set.of()), d);
            v.put("enable_embedding", d.enableEmbedding);
            v.put("embedding_params", parse(d.embeddingParams));
            return v;
        });
    }

    /** The full dashboard as GET /api/dashboard/:id answers it. */
    private Map<String, Object> view(SqlSession session, Caller caller, Dashboard d) {
        return view(session, access.visible(caller), d);
    }

    private Map<String, Object> view(SqlSession session, Visible visible, Dashboard d) {
        DashboardMapper m = session.getMapper(DashboardMapper.class);
        Map<String, Object> v = DashboardViews.dashboard(d);
        Map<Long, List<Long>> series = new HashMap<>();
        for (SeriesRow s : m.seriesOfDashboard(d.id)) {
            series.computeIfAbsent(s.dashboardcardId, k -> new ArrayList<>()).add(s.cardId);
        }
        List<Dashcard> dashcards = m.dashcardsOf(d.id);
        Map<Long, CardRow> cards = cardsOf(m, dashcards, series);
        List<Map<String, Object>> dcs = new ArrayList<>();
        Set<Long> fieldIds = new HashSet<>();
        for (Dashcard dc : dashcards) {
            List<Map<String, Object>> seriesViews = new ArrayList<>();
            for (Long id : series.getOrDefault(dc.id, List.of())) {
                seriesViews.add(DashboardViews.card(cards.get(id), visible));
            }
            Map<String, Object> card = dc.cardId == null ? null : DashboardViews.card(cards.get(dc.cardId), visible);
            dcs.add(DashboardViews.dashcard(dc, card, seriesViews));
            JsonNode mappings = parse(dc.parameterMappings);
            if (mappings != null) {
                for (JsonNode mapping : mappings) {
                    JsonNode target = mapping.path("target");
                    // ["dimension", ["field", 12, {...}]]
                    JsonNode ref = target.path(1);
                    if ("dimension".equals(target.path(0).asText()) && "field".equals(ref.path(0).asText())
                            && ref.path(1).canConvertToExactIntegral()) {
                        fieldIds.add(ref.path(1).asLong());
                    }
                }
            }
        }
        v.put("dashcards", dcs);
        List<Map<String, Object>> tabs = new ArrayList<>();
        for (DashboardTab t : m.tabsOf(d.id)) {
            tabs.add(DashboardViews.tab(t));
        }
        v.put("tabs", tabs);
        Map<String, Object> paramFields = new LinkedHashMap<>();
        if (!fieldIds.isEmpty()) {
            for (Map<String, Object> f : m.findFields(new ArrayList<>(fieldIds))) {
                paramFields.put(String.valueOf(f.get("id")), f);
            }
        }
        v.put("param_fields", paramFields.isEmpty() ? null : paramFields);
        v.put("param_values", null);
        v.put("last_used_param_values", Map.of());
        boolean canWrite = visible.canWrite(d.collectionId);
        v.put("can_write", canWrite);
        v.put("can_restore", canWrite && d.archivedDirectly);
        v.put("can_delete", canWrite && d.archived);
        v.put("collection", DashboardViews.collection(d.collectionId == null ? null : m.findCollection(d.collectionId), visible));
        v.put("collection_authority_level", null);
        v.put("moderation_reviews", List.of());
        v.put("creator", Creators.of(session, d.creatorId, new HashMap<>()));
        List<LastEditRow> edits = m.lastEdits(d.id);
        putLastEdit(v, edits.isEmpty() ? null : edits.get(0));
        return v;
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }

    static JsonNode parse(String json) {
        if (json == null) {
            return null;
        }
        try {
            return Json.read(json);
        } catch (Exception e) {
            throw new IllegalStateException("A stored dashboard column is not valid JSON", e);
        }
    }
}
