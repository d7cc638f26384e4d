package io.quarry.notification;

import java.time.OffsetDateTime;

/** A row of {@code channel}: a webhook destination. {@code details} is the stored (possibly encrypted) text. */
public final class Channel {
    public Long id;
    public String name;
    public String description;
    public String type;
    public String details;
    public boolean active = true;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
}
