package io.quarry.card;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.warehouse.DatabaseService;
import io.quarry.web.Json;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

/** Saved questions and models: storing them, and their JSON form. (Listing, moving and the rest grow here.) */
public final class CardService {
    private final Db db;
    private final DatabaseService databases;
    private final Clock clock;

    public CardService(Db db, DatabaseService databases, Clock clock) {
        this.db = db;
        this.databases = databases;
        this.clock = clock;
    }

    /** Validates a create request (every violation in one 400) and stores the card. */
    public Card create(JsonNode json, long creatorId) {
        Body body = Body.of(json);
        String name = body.nonBlank("name");
        String display = body.nonBlank("display");
        Map<String, Object> datasetQuery = body.map("dataset_query");
        Map<String, Object> visualization = body.map("visualization_settings");
        String description = body.optNonBlank("description");
        Long collectionId = body.optPosInt("collection_id");
        Long collectionPosition = body.optPosInt("collection_position");
        Long cacheTtl = body.optPosInt("cache_ttl");
        Boolean dataset = body.optBool("dataset");
        String type = body.optEnum("type", "question", "model", "metric");
        CardParameters.check(body);
        body.throwIfInvalid();
        Object database = datasetQuery.get("database");
        if (!(database instanceof Number n) || n.longValue() <= 0 || databases.find(n.longValue()) == null) {
            throw ApiException.invalidField("dataset_query", "The query's database does not exist.");
        }
        Card card = new Card();
        card.name = name;
        card.display = display;
        card.description = description;
        card.datasetQuery = Json.write(datasetQuery);
        card.queryType = String.valueOf(datasetQuery.getOrDefault("type", "query"));
        card.visualizationSettings = Json.write(visualization);
        card.databaseId = ((Number) database).longValue();
        card.collectionId = collectionId;
        card.collectionPosition = collectionPosition == null ? null : Math.toIntExact(collectionPosition);
        card.cacheTtl = cacheTtl == null ? null : Math.toIntExact(cacheTtl);
        card.cardType = type != null ? type : Boolean.TRUE.equals(dataset) ? "model" : "question";
        card.parameters = body.hasValue("parameters") ? Json.write(body.get("parameters")) : "[]";
        card.parameterMappings = body.hasValue("parameter_mappings") ? Json.write(body.get("parameter_mappings")) : "[]";
        card.resultMetadata = body.hasValue("result_metadata") ? Json.write(body.get("result_metadata")) : null;
        card.creatorId = creatorId;
        card.entityId = EntityIds.next();
        OffsetDateTime now = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
        card.createdAt = now;
        card.updatedAt = now;
        db.run(session -> session.getMapper(CardMapper.class).insertCard(card));
        return card;
    }

    public Card require(long id) {
        return Checks.found(db.with(CardMapper.class, m -> m.findCard(id)));
    }

    /** A card's stored query, for references from other queries; null for a missing or archived card. */
    @SuppressWarnings("unchecked")
    public io.quarry.qp.mbql.MbqlReferences.CardQuery cardQuery(long id) {
        Card card = db.with(CardMapper.class, m -> m.findCard(id));
        if (card == null || card.archived) {
            return null;
        }
        return new io.quarry.qp.mbql.MbqlReferences.CardQuery(card.databaseId,
                Json.MAPPER.convertValue(parse(card.datasetQuery), Map.class));
    }

    /** Live cards of a type on a database (for {@code usage_info}). */
    public long countOnDatabase(long databaseId, String type) {
        return db.with(CardMapper.class, m -> m.countCardsOfDatabase(databaseId, type));
    }

    /** Records that the card was viewed or run. */
    public void touch(long id) {
        db.run(session -> session.getMapper(CardMapper.class).touchCard(id, OffsetDateTime.now(clock)));
    }

    public static Map<String, Object> view(Card c) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", c.id);
        v.put("entity_id", c.entityId);
        v.put("name", c.name);
        v.put("description", c.description);
        v.put("display", c.display);
        v.put("type", c.cardType);
        v.put("dataset", "model".equals(c.cardType));
        v.put("dataset_query", parse(c.datasetQuery));
        v.put("query_type", c.queryType);
        v.put("visualization_settings", parse(c.visualizationSettings));
        v.put("result_metadata", parse(c.resultMetadata));
        v.put("parameters", parse(c.parameters));
        v.put("parameter_mappings", parse(c.parameterMappings));
        v.put("database_id", c.databaseId);
        v.put("table_id", c.tableId);
        v.put("collection_id", c.collectionId);
        v.put("collection_position", c.collectionPosition);
        v.put("collection_preview", c.collectionPreview);
        v.put("creator_id", c.creatorId);
        v.put("archived", c.archived);
        v.put("enable_embedding", c.enableEmbedding);
        v.put("embedding_params", parse(c.embeddingParams));
        v.put("public_uuid", c.publicUuid);
        v.put("made_public_by_id", c.madePublicById);
        v.put("cache_ttl", c.cacheTtl);
        v.put("view_count", c.viewCount);
        v.put("last_used_at", c.lastUsedAt);
        v.put("created_at", c.createdAt);
        v.put("updated_at", c.updatedAt);
        return v;
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
