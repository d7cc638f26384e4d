package io.quarry.revision;

/** The author of a revision as {@code GET /api/revision} shows them. */
public final class RevisionUser {
    public Long id;
    public String email;
    public String firstName;
    public String lastName;
}
