package io.quarry.bookmark;

import io.quarry.appdb.Db;
import io.quarry.collection.CollectionAccess;
import io.quarry.core.Caller;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * A user's bookmarks of cards, dashboards and collections (kinds {@code card}, {@code dashboard}, {@code collection}),
 * and their own order of them. Only items the user may read are bookmarked and listed.
 */
public final class BookmarkService {
    private final Db db;
    private final CollectionAccess access;
    private final Clock clock;

    public BookmarkService(Db db, CollectionAccess access, Clock clock) {
        this.db = db;
        this.access = access;
        this.clock = clock;
    }

    /** The caller's bookmarks in their order, without archived items and items they may no longer read. */
    List<BookmarkItem> readable(Caller caller) {
        CollectionAccess.Visible visible = access.visible(caller);
        List<BookmarkItem> out = new ArrayList<>();
        for (BookmarkItem item : db.with(BookmarkMapper.class, m -> m.bookmarksOf(caller.id()))) {
            if (!item.archived && visible.canRead(item.collectionId)) {
                out.add(item);
            }
        }
        return out;
    }

    /**
     * Bookmarks a readable item for the caller: 404 when it does not exist, 403 without read rights, 400 when already
     * bookmarked. Answers the stored bookmark.
     */
    BookmarkItem create(Caller caller, String kind, long itemId) {
        BookmarkItem target = Checks.found(db.with(BookmarkMapper.class, m -> m.findTarget(kind, itemId)));
        access.requireRead(caller, target.collectionId);
        long userId = caller.id();
        OffsetDateTime now = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
        return db.tx(session -> {
            BookmarkMapper mapper = session.getMapper(BookmarkMapper.class);
            if (mapper.findBookmark(kind, userId, itemId) != null) {
                throw ApiException.badRequest("Bookmark already exists");
            }
            mapper.insertBookmark(kind, userId, itemId, now);
            return mapper.findBookmark(kind, userId, itemId);
        });
    }

    /** Removes the user's bookmark of the item, if any. */
    void delete(long userId, String kind, long itemId) {
        db.run(session -> session.getMapper(BookmarkMapper.class).deleteBookmark(kind, userId, itemId));
    }

    /** One item in a user's order of their bookmarks. */
    record Position(String kind, long itemId) {
    }

    /** Replaces the user's order of their bookmarks. */
    void reorder(long userId, List<Position> order) {
        db.run(session -> {
            BookmarkMapper mapper = session.getMapper(BookmarkMapper.class);
            mapper.deleteOrderings(userId);
            int position = 0;
            for (Position row : order) {
                mapper.insertOrdering(userId, row.kind(), row.itemId(), position++);
            }
        });
    }
}
