package io.quarry.collection;

import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface CollectionPermissionMapper {
    /** One row of the collection permission graph as it applies to a user through their groups. */
    record Grant(Long collectionId, String namespace, String perm) {
    }

    List<Grant> grantsOfUser(@Param("userId") long userId);

    /** The caller's personal collection and everything below it. */
    List<Long> personalSubtree(@Param("userId") long userId);

    /** Every personal collection of any user and everything below them. */
    List<Long> allPersonalSubtrees();
}
