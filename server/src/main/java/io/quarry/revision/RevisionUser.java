package io.quarry.revision;

import io.quarry.core.UserSummary;

/** The author of a revision as {@code GET /api/revision} shows them. */
public final class RevisionUser {
    public Long id;
    public String email;
    public String firstName;
    public String lastName;

    public UserSummary summary() {
        return new UserSummary(id, email, firstName, lastName);
    }
}
