package io.quarry.dashboard;

import java.time.OffsetDateTime;

/** The columns of a collection row that content views show. */
public final class CollectionRow {
    public Long id;
    public String entityId;
    public String name;
    public String description;
    public String slug;
    public String location;
    public Long personalOwnerId;
    public String namespace;
    public String authorityLevel;
    public String collectionType;
    public boolean archived;
    public OffsetDateTime createdAt;
}
