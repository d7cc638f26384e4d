package io.quarry.auth;

import java.time.OffsetDateTime;

/** A row of api_key, joined with its group (the one that is not All Users) and its last editor. */
public final class ApiKey {
    public Long id;
    public Long userId;
    public String keyHash;
    public String keyPrefix;
    public String name;
    public Long creatorId;
    public Long updatedById;
    public String updatedByName;
    public OffsetDateTime createdAt;
    public OffsetDateTime updatedAt;
    public Long groupId;
    public String groupName;
    public boolean userActive;
}
