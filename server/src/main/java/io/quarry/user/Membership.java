package io.quarry.user;

/** A row of permissions_group_membership. */
public final class Membership {
    public Long id;
    public Long userId;
    public Long groupId;
    public boolean isGroupManager;
}
