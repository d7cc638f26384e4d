package io.quarry.dashboard;

import io.quarry.core.UserSummary;
import java.time.OffsetDateTime;

/** The newest revision of a dashboard and who made it, for {@code last-edit-info}. */
public final class LastEditRow {
    public Long dashboardId;
    public Long id;
    public String email;
    public String firstName;
    public String lastName;
    public OffsetDateTime createdAt;

    public UserSummary summary() {
        return new UserSummary(id, email, firstName, lastName);
    }
}
