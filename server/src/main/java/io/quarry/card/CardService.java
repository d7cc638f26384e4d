package io.quarry.card;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.appdb.ColumnLengths;
import io.quarry.appdb.Db;
import io.quarry.appdb.RevisionCache;
import io.quarry.collection.CollectionAccess;
import io.quarry.core.Caller;
import io.quarry.core.EntityIds;
import io.quarry.core.Json;
import io.quarry.qp.Column;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.run.QueryContext;
import io.quarry.qp.run.QueryRequest;
import io.quarry.qp.run.QueryRunner;
import io.quarry.revision.Revertible;
import io.quarry.revision.Revisions;
import io.quarry.setting.Settings;
import io.quarry.warehouse.DatabaseService;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import io.quarry.web.param.Patch;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.apache.ibatis.session.SqlSession;

/**
 * Saved questions, models and metrics: validation, rights (a card takes the rights of its collection), storage with
 * revision history, pinning, public links, and their JSON form.
 */
public final class CardService implements Revertible {
    /** Keys of a card that a revision stores and a revert puts back. */
    static final List<String> REVISION_KEYS = List.of("name", "description", "display", "type", "dataset_query", "query_type",
            "visualization_settings", "result_metadata", "parameters", "parameter_mappings", "database_id", "table_id",
            "collection_id", "collection_position", "collection_preview", "archived", "enable_embedding", "embedding_params",
            "cache_ttl");
    static final String[] TYPES = {"question", "model", "metric"};
    private static final Set<String> EMBEDDING_VALUES = Set.of("disabled", "enabled", "locked");
    /** Column keys of a model's metadata that people edit and a new query keeps. */
    private static final List<String> EDITABLE_METADATA = List.of("display_name", "description", "semantic_type",
            "visibility_type", "settings", "fk_target_field_id");

    private final Db db;
    private final DatabaseService databases;
    private final QueryRunner runner;
    private final Settings settings;
    private final Clock clock;
    private final CollectionAccess access;
    private final Revisions revisions;
    private final Persisted persisted;

    /** The persistence module's view of a card: whether it is read from its table ({@code "persisted"} on a card). */
    public interface Persisted {
        boolean isPersisted(long cardId);

        /** Drops the card's persisted table, if it has one, before the card itself is deleted. */
        void dropTableOf(long cardId);
    }
    private final CardUsageWriter usage;
    /** Stored cards as queries read them (never shown: their view counts are not kept current). */
    private final RevisionCache<Long, Card> definitions;

    /** Registers the upload settings. */
    /**
     * @param usage  cards' view counts, also recorded by {@code runner} (built first, by {@link CardModule.ForQueries}, for both)
     * @param runner runs the queries whose columns a saved card records
     */
    public CardService(Db db, DatabaseService databases, CardUsageWriter usage, QueryRunner runner, Settings settings,
            CollectionAccess access, Revisions revisions, Clock clock, Persisted persisted) {
        this.db = requireNonNull(db, "db is null");
        this.databases = requireNonNull(databases, "databases is null");
        this.runner = requireNonNull(runner, "runner is null");
        this.settings = requireNonNull(settings, "settings is null");
        this.access = requireNonNull(access, "access is null");
        this.revisions = requireNonNull(revisions, "revisions is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.persisted = requireNonNull(persisted, "persisted is null");
        this.usage = requireNonNull(usage, "usage is null");
        this.definitions = db.cache(10_000);
        CardUploads.register(settings);
    }

    // --- create --------------------------------------------------------------------------------------------------

    /** Validates a create request (every violation in one 400), checks rights and stores the card with its revision. */
    public Card create(JsonNode json, Caller caller) {
        Body body = Body.of(json).storedIn("report_card");
        String name = body.nonBlank("name");
        String display = body.nonBlank("display");
        Map<String, Object> datasetQuery = body.map("dataset_query");
        Map<String, Object> visualization = body.map("visualization_settings");
        String description = body.optNonBlank("description");
        Long collectionId = body.optPosInt("collection_id");
        Long collectionPosition = body.optPosInt("collection_position");
        Long cacheTtl = body.optPosInt("cache_ttl");
        Boolean dataset = body.optBool("dataset");
        String type = body.optEnum("type", TYPES);
        body.optPosInt("dashboard_id");
        body.optPosInt("dashboard_tab_id");
        CardParameters.check(body);
        checkResultMetadata(body);
        body.throwIfInvalid();
        long databaseId = databaseOf(datasetQuery);
        requireCollectionWrite(caller, collectionId);
        Card card = new Card();
        card.name = name;
        card.display = display;
        card.description = description;
        card.visualizationSettings = Json.write(visualization);
        card.collectionId = collectionId;
        card.collectionPosition = collectionPosition == null ? null : Math.toIntExact(collectionPosition);
        card.cacheTtl = cacheTtl == null ? null : Math.toIntExact(cacheTtl);
        card.cardType = type != null ? type : Boolean.TRUE.equals(dataset) ? "model" : "question";
        card.parameters = body.hasValue("parameters") ? Json.write(body.get("parameters")) : "[]";
        card.parameterMappings = body.hasValue("parameter_mappings") ? Json.write(body.get("parameter_mappings")) : "[]";
        setQuery(card, datasetQuery, databaseId);
        card.resultMetadata = resultMetadata(datasetQuery, body.hasValue("result_metadata") ? body.get("result_metadata") : null,
                "model".equals(card.cardType), caller);
        card.creatorId = caller.id();
        return insert(card, caller);
    }

    /** {@code POST /api/card/:id/copy}: "Copy of <name>", in the original's collection, unpinned and not shared. */
    public Card copy(long id, Caller caller) {
        Card original = requireReadable(id, caller);
        requireCollectionWrite(caller, original.collectionId);
        Card copy = new Card();
        copy.name = ColumnLengths.cut("report_card", "name", "Copy of " + original.name);
        copy.description = original.description;
        copy.display = original.display;
        copy.cardType = original.cardType;
        copy.datasetQuery = original.datasetQuery;
        copy.queryType = original.queryType;
        copy.visualizationSettings = original.visualizationSettings;
        copy.resultMetadata = original.resultMetadata;
        copy.parameters = original.parameters;
        copy.parameterMappings = original.parameterMappings;
        copy.databaseId = original.databaseId;
        copy.tableId = original.tableId;
        copy.collectionId = original.collectionId;
        copy.collectionPreview = original.collectionPreview;
        copy.cacheTtl = original.cacheTtl;
        copy.creatorId = caller.id();
        return insert(copy, caller);
    }

    /** Stores a new card (its entity id and timestamps set here), makes room for its pin and records its creation. */
    public Card insert(Card card, Caller caller) {
        card.entityId = card.entityId == null ? EntityIds.next() : card.entityId;
        OffsetDateTime now = now();
        card.createdAt = now;
        card.updatedAt = now;
        db.run(session -> {
            CardMapper mapper = session.getMapper(CardMapper.class);
            if (card.collectionPosition != null) {
                reconcile(mapper, card.collectionId, null, card.collectionPosition, null);
            }
            mapper.insertCard(card);
            revisions.record(session, Revisions.CARD, card.id, caller.id(), revisionObject(card), null, true, false);
        });
        return card;
    }

    // --- read ----------------------------------------------------------------------------------------------------

    /** The stored card, with this instance's views not written yet counted in (its view count and last use). */
    public Card require(long id) {
        Card card = Checks.found(db.with(CardMapper.class, m -> m.findCard(id)));
        CardUsageWriter.Pending pending = usage.pending(id);
        if (pending != null) {
            card.viewCount += (int) pending.views();
            if (card.lastUsedAt == null || card.lastUsedAt.isBefore(pending.lastUsedAt())) {
                card.lastUsedAt = pending.lastUsedAt();
            }
        }
        return card;
    }

    /** The name of a collection, or null for the root (or a collection that no longer exists). */
    public String collectionName(Long collectionId) {
        if (collectionId == null) {
            return null;
        }
        CollectionRef collection = db.with(CardMapper.class, m -> m.findCollection(collectionId));
        return collection == null ? null : collection.name;
    }

    /** 404 for a missing card, 403 unless the caller may read its collection. */
    public Card requireReadable(long id, Caller caller) {
        Card card = require(id);
        access.requireRead(caller, card.collectionId);
        return card;
    }

    /**
     * As {@link #requireReadable}, for running the card's query: the stored card comes from a cache that follows
     * every change to cached data (its view count and last use may lag: a query does not show them). The card is
     * shared between requests: read it, never change it.
     */
    public Card requireRunnable(long id, Caller caller) {
        Card card = Checks.found(definitions.get(id, key -> db.with(CardMapper.class, m -> m.findCard(key))));
        access.requireRead(caller, card.collectionId);
        return card;
    }

    /** 404 for a missing card, 403 unless the caller may write its collection. */
    public Card requireWritable(long id, Caller caller) {
        Card card = require(id);
        access.requireWrite(caller, card.collectionId);
        return card;
    }

    /** What the caller may read, for filtering lists of cards. */
    public CollectionAccess.Visible visible(Caller caller) {
        return access.visible(caller);
    }

    /** {@code GET /api/card}: readable cards for one filter, ordered by name. */
    public List<Card> list(String filter, Long modelId, Caller caller) {
        List<Card> cards;
        if ("using_model".equals(filter)) {
            Card model = requireReadable(modelId, caller);
            cards = new ArrayList<>();
            for (Card c : db.with(CardMapper.class, m -> m.listCardsMentioning(model.databaseId, "%card__" + modelId + "%", "%#" + modelId + "%"))) {
                if (c.id != modelId && CardReferences.cardIds(parse(c.datasetQuery)).contains(modelId)) {
                    cards.add(c);
                }
            }
        } else {
            cards = db.with(CardMapper.class, m -> m.listCards(filter, modelId, caller.id()));
        }
        CollectionAccess.Visible visible = access.visible(caller);
        cards.removeIf(c -> !visible.canRead(c.collectionId));
        return cards;
    }

    public List<Card> publicCards() {
        return db.with(CardMapper.class, CardMapper::listPublicCards);
    }

    public List<Card> embeddableCards() {
        return db.with(CardMapper.class, CardMapper::listEmbeddableCards);
    }

    /**
     * One page of live cards of the given displays, newest id first, that could share a chart with the card (before
     * the read-rights and compatibility checks): below {@code lastCursor} when given, the name containing the
     * {@code LIKE} pattern when given, none of {@code excludeIds}.
     */
    List<Card> seriesCandidates(long cardId, Collection<String> displays, Long lastCursor, String namePattern,
            Collection<Long> excludeIds, int limit) {
        return db.with(CardMapper.class, m -> m.seriesCandidates(cardId, displays, lastCursor, namePattern, excludeIds, limit));
    }

    /** Live cards on the table but the given one (before the read-rights check). */
    List<Card> cardsOnTable(long tableId, long exceptCardId) {
        return db.with(CardMapper.class, m -> m.cardsOnTable(tableId, exceptCardId));
    }

    /** The ids of the dashboards the card is on. */
    List<Long> dashboardIdsOfCard(long cardId) {
        return db.with(CardMapper.class, m -> m.dashboardIdsOfCard(cardId));
    }

    /**
     * The dashboards that show each card (as a dashcard or a series; archived ones too), by dashboard id: Metabase's
     * {@code in_dashboards}. Every id is a key, with an empty list when no dashboard shows it.
     */
    public Map<Long, List<DashboardUse>> dashboardsOf(Collection<Long> cardIds) {
        Map<Long, List<DashboardUse>> out = new LinkedHashMap<>();
        cardIds.forEach(id -> out.put(id, new ArrayList<>()));
        if (!cardIds.isEmpty()) {
            for (Collection<Long> chunk : chunks(new LinkedHashSet<>(cardIds))) {
                db.with(CardMapper.class, m -> m.dashboardsUsingCards(chunk)).forEach(u -> out.get(u.cardId).add(u));
            }
            out.values().forEach(list -> list.sort(java.util.Comparator.comparingLong(u -> u.id)));
        }
        return out;
    }

    /**
     * {@code GET /api/card/:id/dashboards}: {@code [{"id", "name"}]} of the dashboards showing the card, which the caller
     * may read and must be able to change every one of (403 otherwise), as Metabase.
     */
    public List<Map<String, Object>> dashboardsOfCard(long id, Caller caller) {
        requireReadable(id, caller);
        CollectionAccess.Visible visible = access.visible(caller);
        List<Map<String, Object>> out = new ArrayList<>();
        for (DashboardUse use : dashboardsOf(List.of(id)).get(id)) {
            Checks.permitted(visible.canWrite(use.collectionId));
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("id", use.id);
            v.put("name", use.name);
            out.add(v);
        }
        return out;
    }

    /**
     * {@code POST /api/cards/dashboards}: per card (each must exist and be readable), its dashboards as
     * {@code {"id", "name"}}, {@code {"id", "name", "error": "unwritable-dashboard"}} or, for one the caller cannot read,
     * only {@code {"error": "unreadable-dashboard"}}.
     */
    public List<Map<String, Object>> dashboardsOfCards(List<Long> cardIds, Caller caller) {
        for (Long id : new LinkedHashSet<>(cardIds)) {
            requireReadable(id, caller);
        }
        CollectionAccess.Visible visible = access.visible(caller);
        Map<Long, List<DashboardUse>> uses = dashboardsOf(cardIds);
        List<Map<String, Object>> out = new ArrayList<>();
        for (Long id : cardIds) {
            List<Map<String, Object>> dashboards = new ArrayList<>();
            for (DashboardUse use : uses.get(id)) {
                Map<String, Object> v = new LinkedHashMap<>();
                if (!visible.canRead(use.collectionId)) {
                    v.put("error", "unreadable-dashboard");
                } else {
                    v.put("id", use.id);
                    v.put("name", use.name);
                    if (!visible.canWrite(use.collectionId)) {
                        v.put("error", "unwritable-dashboard");
                    }
                }
                dashboards.add(v);
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("card_id", id);
            entry.put("dashboards", dashboards);
            out.add(entry);
        }
        return out;
    }

    // --- update --------------------------------------------------------------------------------------------------

    /**
     * {@code PUT /api/card/:id}: only the keys it knows (clients send whole cards back). Nullable keys that clear a
     * value when sent as null: description, collection_id, collection_position, cache_ttl; the rest ignore a null.
     */
    public Card update(long id, JsonNode json, Caller caller) {
        Body body = Body.of(json).storedIn("report_card");
        String name = body.optNonBlank("name");
        Patch<String> description = Patch.of(body, "description", Body::optString);
        String display = body.optNonBlank("display");
        Map<String, Object> datasetQuery = body.optMap("dataset_query");
        Map<String, Object> visualization = body.optMap("visualization_settings");
        Boolean archived = body.optBool("archived");
        Boolean enableEmbedding = body.optBool("enable_embedding");
        Boolean collectionPreview = body.optBool("collection_preview");
        Boolean dataset = body.optBool("dataset");
        String type = body.optEnum("type", TYPES);
        Patch<Long> collectionId = Patch.of(body, "collection_id", Body::optPosInt);
        Patch<Long> collectionPosition = Patch.of(body, "collection_position", Body::optPosInt);
        Patch<Long> cacheTtl = Patch.of(body, "cache_ttl", Body::optPosInt);
        body.optPosInt("dashboard_id");
        body.optPosInt("dashboard_tab_id");
        Map<String, Object> embeddingParams = embeddingParams(body);
        CardParameters.check(body);
        checkResultMetadata(body);
        body.throwIfInvalid();

        Card card = requireWritable(id, caller);
        Long beforeCollectionId = card.collectionId;
        Integer beforePosition = card.collectionPosition;
        if (collectionId.changes(beforeCollectionId)) {
            requireCollectionWrite(caller, collectionId.value());
            card.collectionId = collectionId.value();
        }
        if (name != null) {
            card.name = name;
        }
        card.description = description.applyTo(card.description);
        if (display != null) {
            card.display = display;
        }
        if (visualization != null) {
            card.visualizationSettings = Json.write(visualization);
        }
        if (collectionPreview != null) {
            card.collectionPreview = collectionPreview;
        }
        String newType = type != null ? type : dataset != null && !body.has("type") ? (dataset ? "model" : "question") : null;
        if (newType != null && !newType.equals(card.cardType)) {
            card.cardType = newType;
            if ("model".equals(newType) && !"list".equals(card.display)) {
                card.display = "table";
            }
        }
        card.collectionPosition = collectionPosition.map(Math::toIntExact).applyTo(card.collectionPosition);
        card.cacheTtl = cacheTtl.map(Math::toIntExact).applyTo(card.cacheTtl);
        if (body.hasValue("parameters")) {
            card.parameters = Json.write(body.get("parameters"));
        }
        if (body.hasValue("parameter_mappings")) {
            card.parameterMappings = Json.write(body.get("parameter_mappings"));
        }
        boolean embeddingChanges = (enableEmbedding != null && enableEmbedding != card.enableEmbedding)
                || (embeddingParams != null && !sameJson(embeddingParams, parse(card.embeddingParams)));
        if (embeddingChanges) {
            if (!embeddingEnabled()) {
                throw ApiException.badRequest("Embedding is not enabled.");
            }
            Checks.permitted(caller.superuser());
            if (enableEmbedding != null) {
                card.enableEmbedding = enableEmbedding;
            }
            if (embeddingParams != null) {
                card.embeddingParams = Json.write(embeddingParams);
            }
        }
        if (archived != null && archived != card.archived) {
            card.archived = archived;
            card.archivedDirectly = archived;
        }
        JsonNode providedMetadata = body.hasValue("result_metadata") ? body.get("result_metadata") : null;
        if (datasetQuery != null && !sameJson(datasetQuery, parse(card.datasetQuery))) {
            setQuery(card, datasetQuery, databaseOf(datasetQuery));
            card.resultMetadata = resultMetadata(datasetQuery, providedMetadata != null ? providedMetadata : parse(card.resultMetadata),
                    "model".equals(card.cardType), caller);
        } else if (providedMetadata != null) {
            card.resultMetadata = Json.write(providedMetadata);
        }
        card.updatedAt = now();
        db.run(session -> {
            CardMapper mapper = session.getMapper(CardMapper.class);
            reconcileMove(mapper, beforeCollectionId, beforePosition, card);
            mapper.updateCard(card);
            revisions.recordIfChanged(session, Revisions.CARD, card.id, caller.id(), revisionObject(card), null);
        });
        return card;
    }

    /** The deprecated hard delete: write rights on the card's collection; its history goes with it. */
    public void delete(long id, Caller caller) {
        Card card = requireWritable(id, caller);
        // the persisted record goes with the card (a foreign key); its table in the card's database must go first
        persisted.dropTableOf(id);
        db.run(session -> {
            CardMapper mapper = session.getMapper(CardMapper.class);
            reconcile(mapper, card.collectionId, card.collectionPosition, null, card.id);
            mapper.deleteCard(id);
            revisions.deleteHistory(session, Revisions.CARD, id);
        });
    }

    /** The cards in these collections (archived or not) leave with them: see {@link #contents()}. */
    private final class Contents implements io.quarry.collection.CollectionContents {
        @Override
        public void beforeDeletion(Collection<Long> collectionIds) {
            for (Long id : cardIdsIn(collectionIds)) {
                persisted.dropTableOf(id);
            }
        }

        @Override
        public void deleteIn(SqlSession session, Collection<Long> collectionIds) {
            CardMapper mapper = session.getMapper(CardMapper.class);
            for (Collection<Long> chunk : chunks(new LinkedHashSet<>(collectionIds))) {
                for (Long id : mapper.cardIdsInCollections(chunk)) {
                    mapper.deleteCard(id);
                    revisions.deleteHistory(session, Revisions.CARD, id);
                }
            }
        }
    }

    private List<Long> cardIdsIn(Collection<Long> collectionIds) {
        List<Long> ids = new ArrayList<>();
        for (Collection<Long> chunk : chunks(new LinkedHashSet<>(collectionIds))) {
            ids.addAll(db.with(CardMapper.class, m -> m.cardIdsInCollections(chunk)));
        }
        return ids;
    }

    /**
     * What a collection deleted for good does to its cards: as the hard delete of each (its persisted table dropped
     * first, its history with it). {@code report_card.collection_id} would otherwise only be set to null.
     */
    public io.quarry.collection.CollectionContents contents() {
        return new Contents();
    }

    /**
     * {@code POST /api/card/collections}: moves cards to a collection (null = Root). Write rights on the target and
     * on every card's current collection; pinned cards are appended after the target's pins. All or nothing.
     */
    public void move(List<Long> cardIds, Long collectionId, Caller caller) {
        if (collectionId != null && db.with(CardMapper.class, m -> m.findCollection(collectionId)) == null) {
            throw ApiException.notFound();
        }
        Set<Long> ids = new LinkedHashSet<>(cardIds);
        Map<Long, Card> found = new HashMap<>();
        db.run(session -> {
            CardMapper mapper = session.getMapper(CardMapper.class);
            for (Collection<Long> chunk : chunks(ids)) {
                mapper.findCards(chunk).forEach(c -> found.put(c.id, c));
            }
        });
        ids.forEach(id -> Checks.found(found.get(id))); // unknown cards are a 404 before any 403
        access.requireWrite(caller, collectionId);
        List<Card> cards = new ArrayList<>();
        for (Long id : ids) {
            Card card = found.get(id);
            if (!Objects.equals(card.collectionId, collectionId)) {
                access.requireWrite(caller, card.collectionId);
                cards.add(card);
            }
        }
        cards.sort((a, b) -> Integer.compare(a.collectionPosition == null ? Integer.MAX_VALUE : a.collectionPosition,
                b.collectionPosition == null ? Integer.MAX_VALUE : b.collectionPosition));
        db.run(session -> {
            CardMapper mapper = session.getMapper(CardMapper.class);
            for (Card card : cards) {
                if (card.collectionPosition != null) {
                    // re-read: moving an earlier pinned card out of the same collection has shifted this one's pin
                    Card before = mapper.findCard(card.id);
                    reconcile(mapper, before.collectionId, before.collectionPosition, null, card.id);
                    Integer max = mapper.maxPosition(collectionId);
                    card.collectionPosition = (max == null ? 0 : max) + 1;
                }
                card.collectionId = collectionId;
                card.updatedAt = now();
                mapper.updateCard(card);
                revisions.recordIfChanged(session, Revisions.CARD, card.id, caller.id(), revisionObject(card), null);
            }
        });
    }

    // --- sharing -------------------------------------------------------------------------------------------------

    /** The card's public UUID, made now unless it has one; superusers, public sharing enabled, card not archived. */
    public String publicLink(long id, Caller caller) {
        Checks.permitted(caller.superuser());
        requirePublicSharing();
        Card card = requireReadable(id, caller);
        if (card.archived) {
            throw ApiException.notFound();
        }
        if (card.publicUuid != null) {
            return card.publicUuid;
        }
        String uuid = UUID.randomUUID().toString();
        db.run(session -> session.getMapper(CardMapper.class).setPublicUuid(id, uuid, caller.id()));
        return uuid;
    }

    public void removePublicLink(long id, Caller caller) {
        Checks.permitted(caller.superuser());
        requirePublicSharing();
        Card card = require(id);
        if (card.publicUuid == null) {
            throw ApiException.notFound();
        }
        db.run(session -> session.getMapper(CardMapper.class).setPublicUuid(id, null, null));
    }

    /** The id of the card with this NanoID {@code entity_id}; null when none has it. */
    public Long idByEntityId(String entityId) {
        return db.with(CardMapper.class, m -> m.findIdByEntityId(entityId));
    }

    /** The live card with this public UUID; null when there is none (unknown, unshared or archived). */
    public Card publicCard(String uuid) {
        return db.with(CardMapper.class, m -> m.findPublicCard(uuid));
    }

    void requirePublicSharing() {
        if (!settings.bool("enable-public-sharing")) {
            throw ApiException.badRequest("Public sharing is not enabled.");
        }
    }

    boolean embeddingEnabled() {
        return settings.bool("enable-embedding-static") || settings.bool("enable-embedding");
    }

    void requireEmbedding() {
        if (!embeddingEnabled()) {
            throw ApiException.badRequest("Embedding is not enabled.");
        }
    }

    // --- revisions -----------------------------------------------------------------------------------------------

    @Override
    public String model() {
        return Revisions.CARD;
    }

    @Override
    public void requireRead(Caller caller, long id) {
        requireReadable(id, caller);
    }

    @Override
    public Map<String, Object> revert(SqlSession session, Caller caller, long id, Map<String, Object> object) {
        CardMapper mapper = session.getMapper(CardMapper.class);
        Card card = Checks.found(mapper.findCard(id));
        access.requireWrite(caller, card.collectionId);
        Long beforeCollectionId = card.collectionId;
        Integer beforePosition = card.collectionPosition;
        JsonNode o = Json.MAPPER.valueToTree(object);
        if (o.has("collection_id")) {
            Long target = o.get("collection_id").isNumber() ? o.get("collection_id").asLong() : null;
            if (!Objects.equals(target, beforeCollectionId)) {
                if (target != null && mapper.findCollection(target) == null) {
                    target = beforeCollectionId;
                } else {
                    access.requireWrite(caller, target);
                }
            }
            card.collectionId = target;
        }
        if (o.hasNonNull("name")) {
            card.name = o.get("name").asText();
        }
        if (o.has("description")) {
            card.description = o.get("description").isNull() ? null : o.get("description").asText();
        }
        if (o.hasNonNull("display")) {
            card.display = o.get("display").asText();
        }
        if (o.hasNonNull("type")) {
            card.cardType = o.get("type").asText();
        }
        if (o.hasNonNull("dataset_query")) {
            card.datasetQuery = Json.write(o.get("dataset_query"));
        }
        if (o.has("query_type")) {
            card.queryType = o.get("query_type").isNull() ? null : o.get("query_type").asText();
        }
        if (o.hasNonNull("visualization_settings")) {
            card.visualizationSettings = Json.write(o.get("visualization_settings"));
        }
        if (o.has("result_metadata")) {
            card.resultMetadata = o.get("result_metadata").isNull() ? null : Json.write(o.get("result_metadata"));
        }
        if (o.hasNonNull("parameters")) {
            card.parameters = Json.write(o.get("parameters"));
        }
        if (o.hasNonNull("parameter_mappings")) {
            card.parameterMappings = Json.write(o.get("parameter_mappings"));
        }
        if (o.hasNonNull("database_id") && databases.find(o.get("database_id").asLong()) != null) {
            card.databaseId = o.get("database_id").asLong();
        }
        if (o.has("table_id")) {
            card.tableId = o.get("table_id").isNumber() ? o.get("table_id").asLong() : null;
        }
        if (o.has("collection_position")) {
            card.collectionPosition = o.get("collection_position").isNumber() ? o.get("collection_position").asInt() : null;
        }
        if (o.hasNonNull("collection_preview")) {
            card.collectionPreview = o.get("collection_preview").asBoolean();
        }
        if (o.hasNonNull("archived") && o.get("archived").asBoolean() != card.archived) {
            card.archived = o.get("archived").asBoolean();
            card.archivedDirectly = card.archived;
        }
        if (o.hasNonNull("enable_embedding")) {
            card.enableEmbedding = o.get("enable_embedding").asBoolean();
        }
        if (o.has("embedding_params")) {
            card.embeddingParams = o.get("embedding_params").isNull() ? null : Json.write(o.get("embedding_params"));
        }
        if (o.has("cache_ttl")) {
            card.cacheTtl = o.get("cache_ttl").isNumber() ? o.get("cache_ttl").asInt() : null;
        }
        card.updatedAt = now();
        reconcileMove(mapper, beforeCollectionId, beforePosition, card);
        mapper.updateCard(card);
        return revisionObject(card);
    }

    /** What a revision stores of a card. */
    static Map<String, Object> revisionObject(Card c) {
        Map<String, Object> v = CardViews.card(c);
        Map<String, Object> out = new LinkedHashMap<>();
        for (String key : REVISION_KEYS) {
            out.put(key, Json.MAPPER.convertValue(v.get(key), Object.class));
        }
        return out;
    }

    // --- queries -------------------------------------------------------------------------------------------------

    /** The card's stored query as a request to run, with the caller's {@code parameters} unless absent or null. */
    static ObjectNode queryRequest(Card card, JsonNode parameters) {
        ObjectNode request = (ObjectNode) parse(card.datasetQuery);
        if (parameters != null && !parameters.isNull() && !parameters.isMissingNode()) {
            request.set("parameters", parameters);
        }
        return request;
    }

    /** Live cards of a type on a database (for {@code usage_info}). */
    public long countOnDatabase(long databaseId, String type) {
        return db.with(CardMapper.class, m -> m.countCardsOfDatabase(databaseId, type));
    }

    /**
     * Records that the card was viewed or run: counted in memory, written in the next batch of {@link CardUsageWriter}
     * (off the request path).
     */
    public void touch(long id) {
        usage.record(id);
    }

    /** Writes the views counted so far (the scheduler's periodic flush, a clean shutdown, tests). */
    public int flushUsage() {
        return usage.flush();
    }

    /** Closes the usage writer: the views counted so far are written. */
    public void closeUsage() {
        usage.close();
    }

    // --- views ---------------------------------------------------------------------------------------------------

    /** The full JSON form of one card for this caller (creator, collection, rights, last edit, dashboards). */
    public Map<String, Object> fullView(Card card, Caller caller) {
        Map<String, Object> v = views(List.of(card), caller).get(0);
        v.put("dashboard_count", db.with(CardMapper.class, m -> m.countDashboardsOfCard(card.id)));
        v.put("persisted", "model".equals(card.cardType) && persisted.isPersisted(card.id));
        return v;
    }

    /** The JSON form of cards for this caller, with creator, collection, can_write and last-edit-info. */
    public List<Map<String, Object>> views(List<Card> cards, Caller caller) {
        if (cards.isEmpty()) {
            return new ArrayList<>();
        }
        CollectionAccess.Visible visible = access.visible(caller);
        Set<Long> userIds = new LinkedHashSet<>();
        Set<Long> collectionIds = new LinkedHashSet<>();
        Set<Long> cardIds = new LinkedHashSet<>();
        for (Card c : cards) {
            userIds.add(c.creatorId);
            cardIds.add(c.id);
            if (c.collectionId != null) {
                collectionIds.add(c.collectionId);
            }
        }
        Map<Long, LastEdit> edits = new HashMap<>();
        Map<Long, UserRef> users = new HashMap<>();
        Map<Long, CollectionRef> collections = new HashMap<>();
        db.run(session -> {
            CardMapper m = session.getMapper(CardMapper.class);
            for (Collection<Long> chunk : chunks(cardIds)) {
                for (LastEdit e : m.lastEdits(chunk)) {
                    edits.put(e.modelId, e);
                    userIds.add(e.userId);
                }
            }
            for (Collection<Long> chunk : chunks(userIds)) {
                m.findUsers(chunk).forEach(u -> users.put(u.id, u));
            }
            for (Collection<Long> chunk : chunks(collectionIds)) {
                m.findCollections(chunk).forEach(c -> collections.put(c.id, c));
            }
        });
        List<Map<String, Object>> out = new ArrayList<>();
        for (Card c : cards) {
            Map<String, Object> v = CardViews.card(c);
            v.put("creator", CardViews.creator(users.get(c.creatorId)));
            v.put("collection", c.collectionId == null
                    ? CardViews.rootCollection() : CardViews.collection(collections.get(c.collectionId)));
            v.put("can_write", visible.canWrite(c.collectionId));
            v.put("can_restore", c.archived && c.archivedDirectly && visible.canWrite(c.collectionId));
            v.put("can_delete", c.archived && visible.canWrite(c.collectionId));
            LastEdit edit = edits.get(c.id);
            if (edit != null && users.get(edit.userId) != null) {
                v.put("last-edit-info", users.get(edit.userId).summary().lastEdit(edit.createdAt));
            }
            out.add(v);
        }
        return out;
    }

    private static List<Collection<Long>> chunks(Set<Long> ids) {
        List<Collection<Long>> out = new ArrayList<>();
        List<Long> current = new ArrayList<>();
        for (Long id : ids) {
            current.add(id);
            if (current.size() == 500) {
                out.add(current);
                current = new ArrayList<>();
            }
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }

    // --- helpers -------------------------------------------------------------------------------------------------

    /** 404 for a collection that does not exist, 403 unless the caller may write it (null = Root). */
    void requireCollectionWrite(Caller caller, Long collectionId) {
        if (collectionId != null && db.with(CardMapper.class, m -> m.findCollection(collectionId)) == null) {
            throw ApiException.notFound();
        }
        access.requireWrite(caller, collectionId);
    }

    private long databaseOf(Map<String, Object> datasetQuery) {
        Object database = datasetQuery.get("database");
        if (!(database instanceof Number n) || n.longValue() <= 0 || databases.find(n.longValue()) == null) {
            throw ApiException.invalidField("dataset_query", "The query's database does not exist.");
        }
        return n.longValue();
    }

    private static void setQuery(Card card, Map<String, Object> datasetQuery, long databaseId) {
        card.datasetQuery = Json.write(datasetQuery);
        card.databaseId = databaseId;
        Object type = datasetQuery.get("type");
        boolean isNative = "native".equals(type) || (type == null && String.valueOf(datasetQuery.get("stages")).contains("mbql.stage/native"));
        card.queryType = isNative ? "native" : "query";
        card.tableId = null;
        if (!isNative && datasetQuery.get("query") instanceof Map<?, ?> inner && inner.get("source-table") instanceof Number t) {
            card.tableId = t.longValue();
        }
        // MBQL 5 (accepted as Metabase v0.63 sends it): the table of its only stage
        if (!isNative && datasetQuery.get("stages") instanceof List<?> stages && stages.size() == 1
                && stages.get(0) instanceof Map<?, ?> stage && stage.get("source-table") instanceof Number t) {
            card.tableId = t.longValue();
        }
    }

    /**
     * Result metadata on save: the query's columns as they come out of a compile (structured queries) or a one-row
     * execution (native queries). A query that cannot run now (a required parameter, a database offline) is still
     * saved, with the client's metadata if it sent some; models keep the column edits people made.
     */
    String resultMetadata(Map<String, Object> datasetQuery, JsonNode provided, boolean model, Caller caller) {
        List<Map<String, Object>> computed = computeColumns(datasetQuery, caller);
        if (computed == null) {
            return provided == null || provided.isNull() ? null : Json.write(provided);
        }
        if (model && provided != null && provided.isArray()) {
            Map<String, JsonNode> byName = new HashMap<>();
            provided.forEach(col -> byName.put(col.path("name").asText(), col));
            for (Map<String, Object> col : computed) {
                JsonNode edited = byName.get(String.valueOf(col.get("name")));
                if (edited != null) {
                    for (String key : EDITABLE_METADATA) {
                        if (edited.has(key)) {
                            col.put(key, Json.MAPPER.convertValue(edited.get(key), Object.class));
                        }
                    }
                }
            }
        }
        return Json.write(computed);
    }

    /**
     * The query's columns, by compiling it as the caller's ad-hoc query (running it for one row when only that tells),
     * through the runner's internal steps ({@link QueryRunner#columns}).
     * A caller who could not run the query (data permissions, unreadable source cards) may not save it either, as in
     * Metabase: 403. Any other failure leaves the metadata unknown (null) without failing the save.
     */
    private List<Map<String, Object>> computeColumns(Map<String, Object> datasetQuery, Caller caller) {
        try {
            ObjectNode request = Json.MAPPER.valueToTree(datasetQuery);
            request.remove("parameters");
            List<Map<String, Object>> out = new ArrayList<>();
            for (Column column : runner.columns(QueryRequest.internal(QueryContext.INTERNAL, caller, request))) {
                out.add(new LinkedHashMap<>(column.toJson()));
            }
            return out;
        } catch (QueryFailure failure) {
            if (failure.type() == QueryFailure.Type.MISSING_PERMISSIONS) {
                throw ApiException.forbidden();
            }
            return null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static void checkResultMetadata(Body body) {
        JsonNode metadata = body.get("result_metadata");
        if (metadata.isNull()) {
            return;
        }
        boolean ok = metadata.isArray();
        if (ok) {
            for (JsonNode col : metadata) {
                ok &= col.isObject() && col.path("name").isTextual();
            }
        }
        if (!ok) {
            body.addError("result_metadata", "nullable value must be an array of valid results column metadata maps.",
                    "value must be an array of valid results column metadata maps., received: " + metadata);
        }
    }

    private static Map<String, Object> embeddingParams(Body body) {
        JsonNode params = body.get("embedding_params");
        if (params.isNull()) {
            return null;
        }
        boolean ok = params.isObject();
        if (ok) {
            var it = params.fields();
            while (it.hasNext()) {
                JsonNode value = it.next().getValue();
                ok &= value.isTextual() && EMBEDDING_VALUES.contains(value.asText());
            }
        }
        if (!ok) {
            body.addError("embedding_params", "nullable value must be a valid embedding params map.",
                    "value must be a valid embedding params map., received: " + params);
            return null;
        }
        return body.optMap("embedding_params");
    }

    /**
     * Keeps pin positions of a collection dense when one card moves from {@code from} to {@code to} (null = unpinned):
     * the items between shift by one, as Metabase's reconcile does.
     */
    static void reconcile(CardMapper mapper, Long collectionId, Integer from, Integer to, Long cardId) {
        if (Objects.equals(from, to)) {
            return;
        }
        if (from == null) {
            mapper.shiftCardPositions(collectionId, to, null, 1, cardId);
            mapper.shiftDashboardPositions(collectionId, to, null, 1);
        } else if (to == null) {
            mapper.shiftCardPositions(collectionId, from + 1, null, -1, cardId);
            mapper.shiftDashboardPositions(collectionId, from + 1, null, -1);
        } else if (from < to) {
            mapper.shiftCardPositions(collectionId, from + 1, to, -1, cardId);
            mapper.shiftDashboardPositions(collectionId, from + 1, to, -1);
        } else {
            mapper.shiftCardPositions(collectionId, to, from - 1, 1, cardId);
            mapper.shiftDashboardPositions(collectionId, to, from - 1, 1);
        }
    }

    /** Keeps both collections' pins dense when a card goes from (collection, position) to its current ones. */
    private static void reconcileMove(CardMapper mapper, Long fromCollectionId, Integer fromPosition, Card card) {
        if (!Objects.equals(fromCollectionId, card.collectionId)) {
            reconcile(mapper, fromCollectionId, fromPosition, null, card.id);
            reconcile(mapper, card.collectionId, null, card.collectionPosition, card.id);
        } else {
            reconcile(mapper, card.collectionId, fromPosition, card.collectionPosition, card.id);
        }
    }

    private static boolean sameJson(Object a, Object b) {
        try {
            return Objects.equals(Json.read(Json.write(a)), Json.read(Json.write(b)));
        } catch (java.io.IOException e) {
            return false;
        }
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
            throw new IllegalStateException("A stored card column is not valid JSON", e);
        }
    }
}
