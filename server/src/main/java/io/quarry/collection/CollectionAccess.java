package io.quarry.collection;

import io.quarry.web.error.ApiException;
import io.quarry.core.Caller;
import java.util.Set;

/**
 * Collection permissions as every content endpoint sees them: what a caller may read or write. A {@code null}
 * collection id is the Root collection of the default namespace. Content (cards, dashboards, timelines, snippets)
 * takes the rights of the collection it lives in.
 */
public interface CollectionAccess {
    enum Level { NONE, READ, WRITE }

    /** The caller's right on one collection ({@code null} = Root). Superusers have WRITE everywhere. */
    Level level(Caller caller, Long collectionId);

    /** The caller's right on the Root collection of a namespace ({@code null} = default, {@code snippets}). */
    Level rootLevel(Caller caller, String namespace);

    /** Rights on every collection at once, for filtering lists in SQL. */
    Visible visible(Caller caller);

    default boolean canRead(Caller caller, Long collectionId) {
        return level(caller, collectionId) != Level.NONE;
    }

    default boolean canWrite(Caller caller, Long collectionId) {
        return level(caller, collectionId) == Level.WRITE;
    }

    /** 403 unless the caller may read the collection. */
    default void requireRead(Caller caller, Long collectionId) {
        if (!canRead(caller, collectionId)) {
            throw ApiException.forbidden();
        }
    }

    /** 403 unless the caller may write the collection. */
    default void requireWrite(Caller caller, Long collectionId) {
        if (!canWrite(caller, collectionId)) {
            throw ApiException.forbidden();
        }
    }

    /**
     * What one caller may see. {@code all}: every collection (superusers); otherwise {@code root} tells whether Root
     * is readable and {@code readable}/{@code writable} hold the collection ids (writable ⊆ readable).
     */
    record Visible(boolean all, boolean root, boolean rootWritable, Set<Long> readable, Set<Long> writable) {
        public boolean canRead(Long collectionId) {
            return all || (collectionId == null ? root : readable.contains(collectionId));
        }

        public boolean canWrite(Long collectionId) {
            return all || (collectionId == null ? rootWritable : writable.contains(collectionId));
        }
    }
}
