package io.quarry.user;

/** A row of permissions_group, with its member count. */
public final class Group {
    public static final long ALL_USERS = 1;
    public static final long ADMINISTRATORS = 2;

    public Long id;
    public String name;
    public String magicGroupType;
    public int memberCount;

    public boolean isMagic() {
        return id != null && (id == ALL_USERS || id == ADMINISTRATORS);
    }
}
