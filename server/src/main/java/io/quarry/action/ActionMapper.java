package io.quarry.action;

import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface ActionMapper {
    void insertAction(Action action);

    Action findAction(@Param("id") long id);

    /** A live (not archived) action with this public UUID whose model is live too. */
    Action findPublicAction(@Param("uuid") String uuid);

    /** Non-archived actions, of one model or (null) of every live model. */
    List<Action> listActions(@Param("modelId") Long modelId);

    List<Action> listPublicActions();

    int updateAction(Action action);

    int setPublicUuid(@Param("id") long id, @Param("uuid") String uuid, @Param("userId") Long userId);

    int deleteAction(@Param("id") long id);
}
