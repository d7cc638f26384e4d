package io.quarry.card;

import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface CardMapper {
    void insertCard(Card card);

    Card findCard(@Param("id") long id);

    /** The cards with these ids (at most a chunk's worth), in no particular order; missing ids are left out. */
    List<Card> findCards(@Param("ids") Collection<Long> ids);

    /** Cards of a type ({@code question}, {@code model}, {@code metric}) on a database, archived ones excluded. */
    long countCardsOfDatabase(@Param("databaseId") long databaseId, @Param("type") String type);

    /** Adds views to a card and moves its last use forward to {@code at} (never back). */
    int addCardViews(@Param("id") long id, @Param("views") long views, @Param("at") OffsetDateTime at);

    /** Writes every mutable column of the card. */
    int updateCard(Card card);

    int deleteCard(@Param("id") long id);

    /**
     * Cards for {@code GET /api/card}: {@code filter} one of all, mine, bookmarked, database, table, archived;
     * ordered by lower-case name.
     */
    List<Card> listCards(@Param("filter") String filter, @Param("modelId") Long modelId, @Param("userId") Long userId);

    /** Live cards on a database whose query text contains one of the patterns (candidates for using_model). */
    List<Card> listCardsMentioning(@Param("databaseId") long databaseId, @Param("a") String a, @Param("b") String b);

    List<Card> listPublicCards();

    List<Card> listEmbeddableCards();

    /** Live cards of the given displays, newest id first, for series. */
    List<Card> seriesCandidates(@Param("cardId") long cardId, @Param("displays") Collection<String> displays,
                                @Param("lastCursor") Long lastCursor, @Param("query") String query,
                                @Param("excludeIds") Collection<Long> excludeIds, @Param("limit") int limit);

    List<Card> cardsOnTable(@Param("tableId") long tableId, @Param("exceptId") long exceptId);

    /** The id of the card with this NanoID {@code entity_id}, or null. */
    Long findIdByEntityId(@Param("entityId") String entityId);

    /** The live card shared under this public UUID (idx_card_public_uuid), or null. */
    Card findPublicCard(@Param("uuid") String uuid);

    int setPublicUuid(@Param("id") long id, @Param("uuid") String uuid, @Param("userId") Long userId);

    CollectionRef findCollection(@Param("id") long id);

    List<CollectionRef> findCollections(@Param("ids") Collection<Long> ids);

    List<UserRef> findUsers(@Param("ids") Collection<Long> ids);

    /** Adds {@code delta} to the pin position of every pinned item (cards and dashboards) of a collection in [from, to]. */
    int shiftCardPositions(@Param("collectionId") Long collectionId, @Param("from") int from, @Param("to") Integer to,
                           @Param("delta") int delta, @Param("exceptId") Long exceptId);

    int shiftDashboardPositions(@Param("collectionId") Long collectionId, @Param("from") int from, @Param("to") Integer to,
                                @Param("delta") int delta);

    Integer maxPosition(@Param("collectionId") Long collectionId);

    List<Long> dashboardIdsOfCard(@Param("cardId") long cardId);

    long countDashboardsOfCard(@Param("cardId") long cardId);

    List<Long> cardIdsInCollections(@Param("ids") java.util.Collection<Long> collectionIds);

    /** The dashboards showing these cards (a dashcard's card or one of its series), once per card and dashboard, by dashboard id. */
    List<DashboardUse> dashboardsUsingCards(@Param("cardIds") java.util.Collection<Long> cardIds);

    /** The last revision's author and time per card, for last-edit-info. */
    List<LastEdit> lastEdits(@Param("ids") Collection<Long> ids);
}
