package io.quarry.collection;

import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface CollectionPermissionMapper {
    /** One row of the collection permission graph as it applies to a user through their groups. */
    record Grant(Long collectionId, String namespace, String perm) {
    }

    List<Grant> grantsOfUser(@Param("userId") long userId);

    /** The perms ({@code read}/{@code write}) a user's groups have on one collection. */
    List<String> permsOfUserOn(@Param("userId") long userId, @Param("collectionId") long collectionId);

    /** A collection's id, location and personal owner. */
    record Placed(Long id, String location, Long personalOwnerId) {
    }

    /** One collection's placement, or null when there is no such collection. */
    Placed placed(@Param("id") long id);

    /** Every personal collection (one per user). */
    List<Placed> personalCollections();

    /** The collections below personal collections (their top ancestor is one); the caller still checks the owner. */
    List<Placed> nestedCollections();
}
