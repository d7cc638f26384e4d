package io.quarry.collection;

import java.time.OffsetDateTime;

/** A row of table collection, with its personal owner's names when it is a personal collection. */
public final class CollectionRow {
    public Long id;
    public String entityId;
    public String name;
    public String description;
    public String slug;
    /** Materialized path of ancestor ids: {@code /} at the top, {@code /10/20/} under 20 under 10. */
    public String location = "/";
    public Long personalOwnerId;
    public String namespace;
    public String authorityLevel;
    public String collectionType;
    public boolean archived;
    public Boolean archivedDirectly;
    public String archiveOperationId;
    public boolean isSample;
    public OffsetDateTime createdAt;
    public String ownerFirstName;
    public String ownerLastName;
    public String ownerEmail;

    /** The location of this collection's children. */
    public String childLocation() {
        return location + id + "/";
    }

    /** Ancestor ids, top first. */
    public long[] ancestorIds() {
        return Locations.ids(location);
    }

    public Long parentId() {
        long[] ids = ancestorIds();
        return ids.length == 0 ? null : ids[ids.length - 1];
    }
}
