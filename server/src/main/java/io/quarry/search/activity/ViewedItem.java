package io.quarry.search.activity;

/**
 * One card, dashboard, table or collection as the recent-views lists show it, read in one query per kind. Fields a
 * kind does not have stay null.
 */
public final class ViewedItem {
    public long id;
    public String name;
    public String description;
    public boolean archived;
    /** A card's or dashboard's collection; a collection's own parent is read from {@link #location}. */
    public Long collectionId;
    /** The name and authority level of {@link #collectionId}, when that collection exists and is not archived. */
    public String collectionName;
    public String collectionAuthorityLevel;
    public boolean collectionFound;
    public String entityId;
    public String display;
    /** question, model or metric. */
    public String cardType;
    public Long databaseId;
    public String datasetQuery;
    public String resultMetadata;
    public String visualizationSettings;
    public long viewCount;
    // collections
    public String authorityLevel;
    public String location;
    public String namespace;
    // tables
    public String displayName;
    public String schemaName;
    public String databaseName;
    public String initialSyncStatus;
    public String visibilityType;
    public boolean active;
}
