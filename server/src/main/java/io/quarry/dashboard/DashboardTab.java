package io.quarry.dashboard;

import java.time.OffsetDateTime;

/** A row of dashboard_tab. */
public final class DashboardTab {
    public Long id;
    public String entityId;
    public Long dashboardId;
    public String name;
    public int position;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
}
