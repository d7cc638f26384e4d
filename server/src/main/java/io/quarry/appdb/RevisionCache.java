package io.quarry.appdb;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A read-through cache of values read from the application database, valid while the {@link CacheRevision} stays
 * what it was when they were read: any committed change to cached data (by this instance or another on the same
 * database) empties it in effect. Values are shared between threads: they must be immutable, or treated so by every
 * caller. A null value is cached too. At most {@code maxEntries} entries: a full cache starts over. Without a
 * revision (a {@link Db} built without one) nothing is cached.
 */
public final class RevisionCache<K, V> {
    private record Entry<V>(V value, long revision) {
    }

    private final CacheRevision revision;
    private final int maxEntries;
    private final Map<K, Entry<V>> entries = new ConcurrentHashMap<>();

    public RevisionCache(CacheRevision revision, int maxEntries) {
        this.revision = revision;
        this.maxEntries = maxEntries;
    }

    /** The value for {@code key}: cached when read at the current revision, else {@code load}ed and cached. */
    public V get(K key, Function<K, V> load) {
        if (revision == null) {
            return load.apply(key);
        }
        // the revision is taken before the read: a change committed meanwhile makes the entry stale at once
        long current = revision.current();
        Entry<V> entry = entries.get(key);
        if (entry != null && entry.revision() == current) {
            return entry.value();
        }
        V value = load.apply(key);
        if (entries.size() >= maxEntries) {
            entries.clear();
        }
        entries.put(key, new Entry<>(value, current));
        return value;
    }

    /** Forgets one key (for a change this cache's owner makes outside a transaction, or to drop an entry early). */
    public void forget(K key) {
        entries.remove(key);
    }
}
