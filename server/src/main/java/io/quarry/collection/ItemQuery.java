package io.quarry.collection;

import java.util.List;

/** What {@code CollectionMapper.items} selects; built by {@link CollectionItems}. */
public final class ItemQuery {
    /** null = the Root collection. */
    public Long collectionId;
    public boolean archived;
    /** all | is_pinned | is_not_pinned */
    public String pinnedState = "all";
    public boolean cards;
    public boolean datasets;
    public boolean metrics;
    public boolean dashboards;
    public boolean snippets;
    /** Pulses of the collection: legacy ones only (not dashboard subscriptions, not alerts), as Metabase lists them. */
    public boolean pulses;
    public boolean timelines;
    /** Child collections to list (their ids), or none when null/empty. */
    public List<Long> childIds;
    /** A whitelisted ORDER BY list (never user text). */
    public String orderBy;
    public Integer limit;
    public Integer offset;
    /** Listing the Trash: cards and dashboards archived directly, from anywhere the caller may write. */
    public boolean trash;
    /** With {@link #trash}: every original collection counts (superusers). */
    public boolean allCollections;
    /** With {@link #trash}: the original collections the caller may write. */
    public List<Long> writableIds;
    /** With {@link #trash}: whether things archived from the Root count. */
    public boolean rootWritable;

    public boolean hasChildren() {
        return childIds != null && !childIds.isEmpty();
    }

    public boolean anything() {
        return cards || datasets || metrics || dashboards || snippets || pulses || timelines || hasChildren();
    }
}
