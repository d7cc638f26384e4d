package io.quarry.user;

import java.util.Locale;

/**
 * Filters for listing users. {@code active} null means active and deactivated; {@code managerId} limits the list to
 * members of groups that user manages. Public fields, because MyBatis reads them from mapper XML.
 */
public final class UserQuery {
    public final Boolean active;
    /** For LIKE: lower-cased, wildcard characters escaped, wrapped in %; null for no text filter. */
    public final String pattern;
    public final Long groupId;
    public final Long managerId;
    public final boolean includeApiKeyUsers;
    public final Integer limit;
    public final Integer offset;

    public UserQuery(Boolean active, String text, Long groupId, Long managerId, boolean includeApiKeyUsers,
                     Integer limit, Integer offset) {
        this.active = active;
        this.pattern = text == null || text.isBlank() ? null
                : "%" + text.trim().toLowerCase(Locale.ROOT).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
        this.groupId = groupId;
        this.managerId = managerId;
        this.includeApiKeyUsers = includeApiKeyUsers;
        this.limit = limit;
        this.offset = offset;
    }
}
