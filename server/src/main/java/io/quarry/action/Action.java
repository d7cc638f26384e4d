package io.quarry.action;

import java.time.OffsetDateTime;

/** A row of {@code model_action}: JSON columns are kept as their text. */
public final class Action {
    public Long id;
    public String entityId;
    public String name;
    public String description;
    /** {@code query}, {@code implicit} or {@code http}. */
    public String type;
    /** Implicit actions: {@code row/create}, {@code row/update}, {@code row/delete}. */
    public String kind;
    public Long modelId;
    public Long databaseId;
    public String datasetQuery;
    public String template;
    public String responseHandle;
    public String errorHandle;
    public String parameters;
    public String parameterMappings;
    public String visualizationSettings;
    public boolean archived;
    public String publicUuid;
    public Long madePublicById;
    public Long creatorId;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
    /** The model's collection (read with the row, for rights). */
    public Long modelCollectionId;
}
