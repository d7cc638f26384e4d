package io.quarry.timeline;

import java.time.OffsetDateTime;

/** A row of timeline_event; {@code eventAt} is Metabase's {@code timestamp}. */
public final class TimelineEvent {
    public Long id;
    public Long timelineId;
    public String name;
    public String description;
    public OffsetDateTime eventAt;
    public boolean timeMatters;
    public String timezone;
    public String icon;
    public boolean archived;
    public Long creatorId;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
}
