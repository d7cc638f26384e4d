package io.quarry.search.activity;

import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface RecentViewMapper {
    /** One stored view: the item's kind ({@code card}, ...), its id, when, and a card's type. */
    record Row(long id, String model, long modelId, OffsetDateTime viewedAt, String cardType) {
    }

    int deleteView(@Param("userId") long userId, @Param("model") String model, @Param("modelId") long modelId,
                   @Param("context") String context);

    int insertView(@Param("userId") long userId, @Param("model") String model, @Param("modelId") long modelId,
                   @Param("context") String context, @Param("at") OffsetDateTime at);

    /** A user's views of one kind in one context, newest first (cards with their type, to keep each type's 20). */
    List<Row> viewsOf(@Param("userId") long userId, @Param("model") String model, @Param("context") String context);

    /** A user's views in one context, newest first. */
    List<Row> allViewsOf(@Param("userId") long userId, @Param("context") String context);

    int deleteViews(@Param("ids") Collection<Long> ids);

    List<ViewedItem> cards(@Param("ids") Collection<Long> ids);

    List<ViewedItem> dashboards(@Param("ids") Collection<Long> ids);

    List<ViewedItem> tables(@Param("ids") Collection<Long> ids);

    List<ViewedItem> collections(@Param("ids") Collection<Long> ids);

    /** Names and authority levels of collections (the parents of viewed collections). */
    List<ViewedItem> collectionNames(@Param("ids") Collection<Long> ids);
}
