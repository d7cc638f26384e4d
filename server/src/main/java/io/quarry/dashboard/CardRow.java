package io.quarry.dashboard;

import java.time.OffsetDateTime;

/** The columns of report_card a dashboard shows or copies (read with this package's own SQL). */
public final class CardRow {
    public Long id;
    public String entityId;
    public String name;
    public String description;
    public String display;
    public String cardType;
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
    public boolean collectionPreview;
    public Long creatorId;
    public boolean archived;
    public boolean enableEmbedding;
    public String embeddingParams;
    public String publicUuid;
    public Integer cacheTtl;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
}
