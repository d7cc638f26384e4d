package io.quarry.dashboard;

import java.time.OffsetDateTime;

/** The newest revision of a dashboard and who made it, for {@code last-edit-info}. */
public final class LastEditRow {
    public Long dashboardId;
    public Long id;
    public String email;
    public String firstName;
    public String lastName;
    public OffsetDateTime createdAt;
}
