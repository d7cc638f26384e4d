package io.quarry.revision;

import java.time.OffsetDateTime;
import java.util.Map;

/** One saved state of a card, dashboard or segment: {@code object} is the whole entity after the change. */
public class Revision {
    public Long id;
    public String model;
    public Long modelId;
    public Long userId;
    public Map<String, Object> object;
    public String message;
    public boolean isReversion;
    public boolean isCreation;
    public boolean mostRecent;
    public OffsetDateTime createdAt;
}
