package io.quarry.collection;

import java.util.List;
import java.util.Map;
import org.apache.ibatis.annotations.Param;

/** Collections, their content listings and the collection permission graph. */
public interface CollectionMapper {
    /** A user who has no personal collection yet. */
    record Owner(Long id, String firstName, String lastName, String email) {
    }

    /** A row of the permission graph. */
    record PermRow(Long groupId, Long collectionId, String perm) {
    }

    /** The card types in one collection as a bit mask: 1 question, 2 model, 4 metric. */
    record KindsRow(Long collectionId, int kinds) {
    }

    /** The parts of a collection the tree and the rights need. */
    record Node(Long id, String location, Long personalOwnerId, boolean archived) {
    }

    // --- collections ---------------------------------------------------------------------------------------------

    CollectionRow findCollection(@Param("id") long id);

    /** Collections of a namespace ({@code null} = default); {@code archived} null = both. */
    List<CollectionRow> listCollections(@Param("namespace") String namespace, @Param("archived") Boolean archived,
                                        @Param("personalOnly") boolean personalOnly);

    /** Collections of a namespace whose location starts with {@code prefix} (all descendants of one collection). */
    List<CollectionRow> collectionsUnder(@Param("namespace") String namespace, @Param("prefix") String prefix,
                                         @Param("exact") boolean exact, @Param("archived") Boolean archived);

    List<CollectionRow> collectionsByIds(@Param("ids") List<Long> ids);

    /** id, location, owner and archived flag of every collection of a namespace (cheap: for rights and trees). */
    List<Node> nodes(@Param("namespace") String namespace, @Param("prefix") String prefix);

    /** The Trash collection's id (created by the changelog). */
    Long trashCollectionId();

    /** Collections of the default namespace archived directly: the ones in the Trash. */
    List<CollectionRow> archivedDirectlyCollections();

    /** Ids of every personal collection (one per user). */
    List<Long> personalCollectionIds();

    void insertCollection(CollectionRow row);

    int updateCollection(@Param("id") long id, @Param("setName") boolean setName, @Param("name") String name,
                         @Param("slug") String slug, @Param("setDescription") boolean setDescription,
                         @Param("description") String description, @Param("setAuthority") boolean setAuthority,
                         @Param("authorityLevel") String authorityLevel);

    int deleteCollections(@Param("ids") List<Long> ids);

    int setLocation(@Param("id") long id, @Param("location") String location);

    /** Rewrites the location prefix of every descendant: {@code oldPrefix...} becomes {@code newPrefix...}. */
    int moveDescendants(@Param("oldPrefix") String oldPrefix, @Param("newPrefix") String newPrefix);

    int archiveCollections(@Param("id") long id, @Param("prefix") String prefix, @Param("operationId") String operationId);

    int archiveCards(@Param("operationId") String operationId);

    int archiveDashboards(@Param("operationId") String operationId);

    int unarchiveCards(@Param("operationId") String operationId);

    int unarchiveDashboards(@Param("operationId") String operationId);

    int unarchiveCollections(@Param("operationId") String operationId);

    // --- personal collections ------------------------------------------------------------------------------------

    List<Owner> usersWithoutPersonalCollection();

    Long personalCollectionId(@Param("userId") long userId);

    // --- content types per collection ----------------------------------------------------------------------------

    /** Collections of a namespace holding unarchived cards, with their types; {@code ids} null = every collection. */
    List<KindsRow> cardKinds(@Param("namespace") String namespace, @Param("ids") List<Long> ids);

    /** {@code ids} null = every collection. */

    List<Long> dashboardCollections(@Param("ids") List<Long> ids);

    List<Long> snippetCollections(@Param("ids") List<Long> ids);

    /**
     * One listed collection whose subtree is summarised: its id, its {@code childLocation()}, and the LIKE patterns of
     * its subtree and of what lies at least two levels below it.
     */
    record Subtree(Long id, String childLocation, String pattern, String deepPattern) {
        static Subtree of(Long id, String childLocation) {
            return new Subtree(id, childLocation, childLocation + "%", childLocation + "_%");
        }
    }

    /**
     * Per listed collection, a bit mask of what lies anywhere below it: 1 question, 2 model, 4 metric (unarchived
     * cards), 8 dashboard, 16 snippet, 32 an unarchived collection at least two levels below, 64 an unarchived
     * child collection. EXISTS over the subtree (location index) stops at the first hit.
     */
    List<KindsRow> subtreeKinds(@Param("namespace") String namespace, @Param("subtrees") List<Subtree> subtrees);

    // --- items ---------------------------------------------------------------------------------------------------

    List<ItemRow> items(ItemQuery query);

    long countItems(ItemQuery query);

    // --- permissions -----------------------------------------------------------------------------------------------

    int copyCollectionPermissions(@Param("fromId") long fromId, @Param("toId") long toId);

    int copyRootPermissions(@Param("namespace") String namespace, @Param("toId") long toId);

    int deletePermissionsOfSubtree(@Param("id") long id, @Param("prefix") String prefix);

    /** Gives the collection {@code id} and its descendants the rows of {@code fromId} (null = Root of namespace). */
    int copyPermissionsToSubtree(@Param("fromId") Long fromId, @Param("namespace") String namespace,
                                 @Param("id") long id, @Param("prefix") String prefix);

    List<PermRow> permissionRows(@Param("namespace") String namespace);

    List<Long> groupIds();

    int deletePermission(@Param("groupId") long groupId, @Param("collectionId") long collectionId);

    int deleteRootPermission(@Param("groupId") long groupId, @Param("namespace") String namespace);

    int insertPermission(@Param("groupId") long groupId, @Param("collectionId") Long collectionId,
                         @Param("namespace") String namespace, @Param("perm") String perm);

    Long currentRevision();

    void insertRevision(Map<String, Object> revision);
}
