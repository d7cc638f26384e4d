package io.quarry.bookmark;

import java.time.OffsetDateTime;

/** One bookmarked card, dashboard or collection with what the bookmark list shows of it. */
public final class BookmarkItem {
    public Long bookmarkId;
    public String type;
    public Long itemId;
    public String name;
    public String description;
    public boolean archived;
    /** The collection whose rights apply (a collection's own id for a collection). */
    public Long collectionId;
    public String display;
    public String cardType;
    public String authorityLevel;
    public OffsetDateTime createdAt;
    public Integer ordering;
}
