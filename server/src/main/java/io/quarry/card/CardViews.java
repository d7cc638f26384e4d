package io.quarry.card;

import io.quarry.qp.mbql.QueryForms;
import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON forms of a card and of what it is shown with (creator, collection), in Metabase's key order. */
final class CardViews {
    private CardViews() {
    }

    /** The stored columns of a card as JSON (no hydration). */
    static Map<String, Object> card(Card c) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", c.id);
        v.put("entity_id", c.entityId);
        v.put("name", c.name);
        v.put("description", c.description);
        v.put("display", c.display);
        v.put("type", c.cardType);
        v.put("dataset", "model".equals(c.cardType));
        v.put("dataset_query", QueryForms.legacyJson(c.datasetQuery)); // legacy MBQL by default (docs/features.md)
        v.put("query_type", c.queryType);
        v.put("visualization_settings", CardService.parse(c.visualizationSettings));
        v.put("result_metadata", CardService.parse(c.resultMetadata));
        v.put("parameters", CardService.parse(c.parameters));
        v.put("parameter_mappings", CardService.parse(c.parameterMappings));
        v.put("database_id", c.databaseId);
        v.put("table_id", c.tableId);
        v.put("collection_id", c.collectionId);
        v.put("collection_position", c.collectionPosition);
        v.put("collection_preview", c.collectionPreview);
        v.put("creator_id", c.creatorId);
        v.put("archived", c.archived);
        v.put("archived_directly", c.archivedDirectly);
        v.put("enable_embedding", c.enableEmbedding);
        v.put("embedding_params", CardService.parse(c.embeddingParams));
        v.put("public_uuid", c.publicUuid);
        v.put("made_public_by_id", c.madePublicById);
        v.put("cache_ttl", c.cacheTtl);
        v.put("view_count", c.viewCount);
        v.put("last_used_at", c.lastUsedAt);
        v.put("created_at", c.createdAt);
        v.put("updated_at", c.updatedAt);
        return v;
    }

    /** A card's {@code creator}; null when unknown. */
    static Map<String, Object> creator(UserRef u) {
        if (u == null) {
            return null;
        }
        return u.summary().view();
    }

    /** The root collection as a card in no collection shows it. */
    static Map<String, Object> rootCollection() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", "root");
        v.put("name", "Our analytics");
        v.put("authority_level", null);
        v.put("is_personal", false);
        return v;
    }

    /** A card's {@code collection}; null when unknown. */
    static Map<String, Object> collection(CollectionRef c) {
        if (c == null) {
            return null;
        }
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", c.id);
        v.put("name", c.name);
        v.put("slug", c.slug);
        v.put("entity_id", c.entityId);
        v.put("location", c.location);
        v.put("personal_owner_id", c.personalOwnerId);
        v.put("authority_level", c.authorityLevel);
        v.put("namespace", c.namespace);
        v.put("archived", c.archived);
        v.put("is_personal", c.personalOwnerId != null);
        return v;
    }
}
