package io.quarry.persistence;

import java.time.OffsetDateTime;

/**
 * One model's persistence record (Metabase's {@code persisted_info}): where its table is, the query it was built from
 * ({@code queryHash}), the columns it has ({@code definition}, JSON), and where it stands in the state machine
 * creating → persisted → refreshing → persisted | error, and deletable or off once it is switched off.
 */
public final class PersistedInfo {
    public Long id;
    public Long databaseId;
    public Long cardId;
    public String questionSlug;
    public String tableName;
    public String definition;
    public String queryHash;
    public boolean active;
    public String state;
    public OffsetDateTime stateChangeAt;
    public OffsetDateTime refreshBegin;
    public OffsetDateTime refreshEnd;
    public String error;
    public Long creatorId;
}
