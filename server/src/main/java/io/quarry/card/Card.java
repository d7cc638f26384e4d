package io.quarry.card;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.OffsetDateTime;

/** A row of report_card: a saved question, model or metric. JSON columns are kept as their text. */
public final class Card {
    public Long id;
    public String entityId;
    public String name;
    public String description;
    public String display;
    /** {@code question}, {@code model} or {@code metric}. */
    public String cardType = "question";
    public String datasetQuery;
    public String queryType;
    public String visualizationSettings;
    public String resultMetadata;
    public String parameters;
    public String parameterMappings;
    public Long databaseId;
    public Long tableId;
    public Long collectionId;
    public Integer collectionPosition;
    public boolean collectionPreview = true;
    public Long creatorId;
    public boolean archived;
    public boolean archivedDirectly;
    public boolean enableEmbedding;
    public String embeddingParams;
    public String publicUuid;
    public Long madePublicById;
    /** Hours a cached result of this card stays fresh; null = not cached. */
    public Integer cacheTtl;
    public int viewCount;
    public OffsetDateTime lastUsedAt;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;

    /** {@link #datasetQuery} parsed, with the text it was parsed from: cached cards are shared between requests. */
    private record Parsed(String text, JsonNode tree) {
    }

    private volatile Parsed parsedQuery;

    /**
     * {@link #datasetQuery} as JSON, a copy the caller may change: parsed once per card object (a card from the
     * revision cache serves every run of the card until it changes), copied on each call. Null when there is none.
     */
    public JsonNode datasetQueryTree() {
        String text = datasetQuery;
        Parsed parsed = parsedQuery;
        if (parsed == null || parsed.text() != text) {
            parsed = new Parsed(text, CardService.parse(text));
            parsedQuery = parsed;
        }
        return parsed.tree() == null ? null : parsed.tree().deepCopy();
    }
}
