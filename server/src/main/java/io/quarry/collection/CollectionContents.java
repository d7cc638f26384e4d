package io.quarry.collection;

import java.util.Collection;
import org.apache.ibatis.session.SqlSession;

/**
 * A module that keeps content in collections (cards, dashboards) and deletes it with them when a collection is deleted
 * for good ({@code DELETE /api/collection/:id}): registered with {@link CollectionService#registerContents}, so the
 * collection module needs no edge to the modules above it. Content without rules of its own (snippets, timelines,
 * subscriptions, bookmarks, permissions) goes by the app database's cascading foreign keys.
 */
public interface CollectionContents {
    /** Work outside the app database that must happen first (a persisted model's table in its warehouse). */
    default void beforeDeletion(Collection<Long> collectionIds) {
    }

    /** Deletes the content in these collections inside the deletion's transaction, as its own hard delete does. */
    void deleteIn(SqlSession session, Collection<Long> collectionIds);
}
