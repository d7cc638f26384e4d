package io.quarry.card;

/** A user as cards and revisions show their creator or editor. */
public final class UserRef {
    public Long id;
    public String email;
    public String firstName;
    public String lastName;

    public String commonName() {
        String first = firstName == null ? "" : firstName;
        String last = lastName == null ? "" : lastName;
        String name = (first + " " + last).trim();
        return name.isEmpty() ? email : name;
    }
}
