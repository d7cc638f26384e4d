package io.quarry.search;

import java.time.OffsetDateTime;

/** One searchable item as read from its own table (the columns a model lacks stay null). */
public final class SearchRow {
    public String model;
    public Long id;
    public String name;
    public String displayName;
    public String description;
    public Boolean archived;
    public Long collectionId;
    public Long databaseId;
    public Long tableId;
    public String tableName;
    public String tableSchema;
    public String display;
    public String cardType;
    public String queryType;
    public Long creatorId;
    public String location;
    public String authorityLevel;
    public String collectionType;
    public Long personalOwnerId;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
}
