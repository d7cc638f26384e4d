package io.quarry.collection;

import io.quarry.appdb.Db;

/**
 * The Trash collection (type {@code trash}, created by the changelog): its id, looked up once. It is readable by
 * every signed-in user, writable by nobody, and lists what was archived directly.
 */
public final class Trash {
    public static final String TYPE = "trash";
    public static final String NAME = "Trash";
    public static final String CANNOT_MODIFY = "You cannot modify the Trash Collection.";

    private final Db db;
    private volatile Long id;

    public Trash(Db db) {
        this.db = db;
    }

    public long id() {
        Long known = id;
        if (known == null) {
            known = db.with(CollectionMapper.class, CollectionMapper::trashCollectionId);
            if (known == null) {
                throw new IllegalStateException("The Trash collection is missing");
            }
            id = known;
        }
        return known;
    }

    public boolean is(Long collectionId) {
        return collectionId != null && collectionId == id();
    }

    /** Where things archived directly seem to be: {@code /<trash id>/}. */
    public String path() {
        return "/" + id() + "/";
    }

    static boolean isTrash(CollectionRow c) {
        return c != null && TYPE.equals(c.collectionType);
    }
}
