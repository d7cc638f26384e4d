package io.quarry.dashboard;

import java.time.OffsetDateTime;

/** A row of report_dashboardcard: a card (or a text/heading card when {@code cardId} is null) placed on a dashboard. */
public final class Dashcard {
    public Long id;
    public String entityId;
    public Long dashboardId;
    public Long cardId;
    public Long dashboardTabId;
    public Long actionId;
    /** Metabase's {@code row}. */
    public int gridRow;
    /** Metabase's {@code col}. */
    public int gridCol;
    public int sizeX;
    public int sizeY;
    public String parameterMappings;
    public String visualizationSettings;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
}
