package io.quarry.notification;

import java.time.OffsetDateTime;

/** A row of {@code pulse_channel}: where and when a pulse is delivered. {@code details} is JSON text. */
public final class PulseChannel {
    public Long id;
    public String entityId;
    public Long pulseId;
    public String channelType;
    public Long channelId;
    public boolean enabled = true;
    public String scheduleType;
    public Integer scheduleHour;
    public String scheduleDay;
    public String scheduleFrame;
    public String details = "{}";
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
}
