package io.quarry.notification;

import java.time.OffsetDateTime;

/**
 * A row of {@code pulse}: a dashboard subscription ({@code alertCondition} null) or a question alert (Metabase's legacy
 * model, where an alert is a pulse with an alert condition and one card). JSON columns are kept as their text.
 */
public final class Pulse {
    public Long id;
    public String entityId;
    public String name;
    public Long creatorId;
    public Long collectionId;
    public Integer collectionPosition;
    public Long dashboardId;
    public boolean skipIfEmpty;
    public String parameters = "[]";
    public boolean archived;
    /** {@code rows} or {@code goal} for an alert; null for a subscription. */
    public String alertCondition;
    public Boolean alertAboveGoal;
    public Boolean alertFirstOnly;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;

    public boolean alert() {
        return alertCondition != null;
    }
}
