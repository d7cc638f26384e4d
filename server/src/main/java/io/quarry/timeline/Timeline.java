package io.quarry.timeline;

import java.time.OffsetDateTime;

/** A row of timeline: a named set of events shown on the charts of a collection's questions. */
public final class Timeline {
    public Long id;
    public String entityId;
    public String name;
    public String description;
    public String icon;
    public Long collectionId;
    public boolean archived;
    /** Metabase's {@code default}. */
    public boolean isDefault;
    public Long creatorId;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
}
