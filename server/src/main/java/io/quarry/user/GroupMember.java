package io.quarry.user;

/** An active member of a group, as {@code GET /api/permissions/group/:id} lists them. */
public final class GroupMember {
    public Long userId;
    public String email;
    public String firstName;
    public String lastName;
    public Long membershipId;
    public boolean isGroupManager;
}
