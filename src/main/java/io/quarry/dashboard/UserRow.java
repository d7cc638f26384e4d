package io.quarry.dashboard;

/** Who created or last edited something. */
public final class UserRow {
    public Long id;
    public String email;
    public String firstName;
    public String lastName;
}
