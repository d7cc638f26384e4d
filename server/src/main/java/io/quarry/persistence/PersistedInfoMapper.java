package io.quarry.persistence;

import java.time.OffsetDateTime;
import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface PersistedInfoMapper {
    void insertPersistedInfo(PersistedInfo info);

    PersistedInfo findPersistedInfo(@Param("id") long id);

    PersistedInfo findPersistedInfoByCard(@Param("cardId") long cardId);

    List<PersistedInfo> persistedInfosOfDatabase(@Param("databaseId") long databaseId);

    List<PersistedInfo> allPersistedInfos();

    /** Rows of models not archived, newest refresh first. */
    List<PersistedInfo> listPersistedInfos(@Param("limit") Integer limit, @Param("offset") Integer offset);

    long countPersistedInfos();

    /** A refresh starts: state refreshing (or creating for a first build), refresh_begin now, refresh_end cleared. */
    int beginRefresh(@Param("id") long id, @Param("state") String state, @Param("at") OffsetDateTime at);

    /**
     * A refresh succeeded: persisted, active, with the definition and hash of what was built; 0 when the record was
     * switched off (or removed) while the refresh ran.
     */
    int refreshSucceeded(@Param("id") long id, @Param("definition") String definition, @Param("queryHash") String queryHash,
                         @Param("at") OffsetDateTime at);

    /** A refresh failed: error with the message; the previous table (and whether it is active) stays. 0 as above. */
    int refreshFailed(@Param("id") long id, @Param("error") String error, @Param("at") OffsetDateTime at);

    /** Switched off: the row stays in {@code state} (off or deletable), inactive. */
    int deactivate(@Param("id") long id, @Param("state") String state, @Param("at") OffsetDateTime at);

    /** Switched on again: creating, inactive until the first refresh, by {@code creatorId}. */
    int reactivate(@Param("id") long id, @Param("creatorId") Long creatorId, @Param("at") OffsetDateTime at);

    int deletePersistedInfo(@Param("id") long id);

    /** The ids of models of a database (not archived). */
    List<Long> modelIdsOfDatabase(@Param("databaseId") long databaseId);
}
