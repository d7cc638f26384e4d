package io.quarry.revision;

import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface RevisionMapper {
    void insertRevision(Revision revision);

    int clearMostRecent(@Param("model") String model, @Param("modelId") long modelId);

    /** Newest first. */
    List<Revision> revisionsOf(@Param("model") String model, @Param("modelId") long modelId);

    Revision findRevision(@Param("id") long id);
}
