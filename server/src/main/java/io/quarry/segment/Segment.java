package io.quarry.segment;

import java.time.OffsetDateTime;
import java.util.Map;

/** A row of {@code segment}: a saved filter on one table ({@code definition} is legacy MBQL with a {@code filter}). */
public final class Segment {
    public Long id;
    public String entityId;
    public Long tableId;
    public Long creatorId;
    public String name;
    public String description;
    public Map<String, Object> definition;
    public String pointsOfInterest;
    public String caveats;
    public boolean showInGettingStarted;
    public boolean archived;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
}
