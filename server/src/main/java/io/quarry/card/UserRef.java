package io.quarry.card;

import io.quarry.core.UserSummary;

/** A user as cards and revisions show their creator or editor. */
public final class UserRef {
    public Long id;
    public String email;
    public String firstName;
    public String lastName;

    public UserSummary summary() {
        return new UserSummary(id, email, firstName, lastName);
    }
}
