package io.quarry.dashboard;

import java.time.OffsetDateTime;

/** A row of report_dashboard. JSON columns are kept as their text. */
public final class Dashboard {
    public Long id;
    public String entityId;
    public String name;
    public String description;
    public Long creatorId;
    public String parameters;
    public String pointsOfInterest;
    public String caveats;
    public boolean showInGettingStarted;
    public Long collectionId;
    public Integer collectionPosition;
    public boolean archived;
    public boolean archivedDirectly;
    public boolean enableEmbedding;
    public String embeddingParams;
    public String publicUuid;
    public Long madePublicById;
    public Integer cacheTtl;
    public boolean autoApplyFilters = true;
    /** {@code fixed} or {@code full}. */
    public String width = "fixed";
    public int viewCount;
    public OffsetDateTime lastViewedAt;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
}
