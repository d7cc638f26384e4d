package io.quarry.collection;

import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface CollectionPermissionMapper {
    /** One row of the collection permission graph as it applies to a user through their groups. */
    record Grant(Long collectionId, String namespace, String perm) {
    }

    List<Grant> grantsOfUser(@Param("userId") long userId);

    /** A collection's id, location and personal owner. */
    record Placed(Long id, String location, Long personalOwnerId) {
    }

    /** Every personal collection (one per user). */
    List<Placed> personalCollections();

    /** The collections below personal collections (their top ancestor is one); the caller still checks the owner. */
    List<Placed> nestedCollections();
}
