package io.quarry.collection;

import java.time.OffsetDateTime;

/** One row of a collection's items: a card, dashboard, collection, snippet or timeline. */
public final class ItemRow {
    public Long id;
    public String name;
    public String description;
    public String entityId;
    public String display;
    public Integer collectionPosition;
    public Boolean collectionPreview;
    public String model;
    public String authorityLevel;
    public Long personalOwnerId;
    public String location;
    public Boolean archived;
    public Long databaseId;
    public String icon;
    /** The collection a card or dashboard really sits in (for the Trash, where it was archived from). */
    public Long originCollectionId;
    public OffsetDateTime lastUsedAt;
    public Long lastEditUser;
    public String lastEditEmail;
    public String lastEditFirstName;
    public String lastEditLastName;
    public OffsetDateTime lastEditTimestamp;
    public Integer modelRanking;
    public Long totalCount;
}
