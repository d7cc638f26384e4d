package io.quarry.bookmark;

import java.time.OffsetDateTime;
import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface BookmarkMapper {
    /** The bookmarkable item ({@code model} card, dashboard or collection), or null when it does not exist. */
    BookmarkItem findTarget(@Param("model") String model, @Param("id") long id);

    /** A user's bookmark of an item (its row id and created_at), or null. */
    BookmarkItem findBookmark(@Param("model") String model, @Param("userId") long userId, @Param("id") long id);

    int insertBookmark(@Param("model") String model, @Param("userId") long userId, @Param("id") long id,
                       @Param("at") OffsetDateTime at);

    int deleteBookmark(@Param("model") String model, @Param("userId") long userId, @Param("id") long id);

    List<BookmarkItem> bookmarksOf(@Param("userId") long userId);

    int deleteOrderings(@Param("userId") long userId);

    int insertOrdering(@Param("userId") long userId, @Param("type") String type, @Param("itemId") long itemId,
                       @Param("ordering") int ordering);
}
