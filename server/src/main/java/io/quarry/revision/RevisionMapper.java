package io.quarry.revision;

import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface RevisionMapper {
    void insertRevision(Revision revision);

    int clearMostRecent(@Param("model") String model, @Param("modelId") long modelId);

    /** Newest first. */
    List<Revision> revisionsOf(@Param("model") String model, @Param("modelId") long modelId);

    Revision findRevision(@Param("id") long id);

    /** Deletes the revisions of an entity older than its {@code keep} newest. */
    int pruneRevisions(@Param("model") String model, @Param("modelId") long modelId, @Param("keep") int keep);

    int deleteRevisionsOf(@Param("model") String model, @Param("modelId") long modelId);

    String collectionName(@Param("id") long id);

    RevisionUser findRevisionUser(@Param("id") long id);
}
