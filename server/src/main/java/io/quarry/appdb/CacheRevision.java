package io.quarry.appdb;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The revision of what Quarry caches from the application database, shared by every instance on it: a counter in
 * table {@code quarry_cache_revision} that each committed transaction changing cached data bumps in that same
 * transaction ({@link RevisionBump}). A cache keeps an entry only while {@link #current()} is the revision the entry
 * was read at ({@link RevisionCache}).
 *
 * <p>{@link #current()} reads the counter at most once per check interval; a transaction committed by this instance
 * makes the next call read it again, so an instance sees its own changes at once and another instance's within the
 * interval (Metabase's settings cache works the same way, with a longer interval).
 */
public final class CacheRevision {
    private final long intervalNanos;
    private final AtomicLong known = new AtomicLong(-1);
    private volatile long checkedAt;
    private volatile boolean stale = true;
    private volatile Db db;
    private final Set<String> uncached = ConcurrentHashMap.newKeySet();

    public CacheRevision(long checkIntervalMillis) {
        if (checkIntervalMillis < 0) {
            throw new IllegalArgumentException("checkIntervalMillis < 0");
        }
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(checkIntervalMillis);
    }

    /** Where the counter is read (the application database's {@link Db}, built after this). */
    public void readFrom(Db db) {
        this.db = Objects.requireNonNull(db, "db is null");
    }

    /**
     * Declares a mapper's statement a write of data no cache holds (a view count, a cached result): transactions that
     * write only through such statements leave the revision, and so every cache, as they are.
     */
    public void writesNothingCached(Class<?> mapper, String method) {
        uncached.add(mapper.getName() + "." + method);
    }

    boolean uncached(String statementId) {
        return uncached.contains(statementId);
    }

    /** The revision caches must have been filled at for their entries to count. */
    public long current() {
        long now = System.nanoTime();
        if (!stale && now - checkedAt < intervalNanos) {
            return known.get();
        }
        Db reader = db;
        if (reader == null) {
            throw new IllegalStateException("The cache revision has no database to read from yet");
        }
        // cleared before the read: a commit during the read sets it again and the next call reads once more
        stale = false;
        long read = reader.with(CacheRevisionMapper.class, CacheRevisionMapper::findRevision);
        checkedAt = now;
        // the stored counter only grows: a slow reader must not put back an older value a faster one replaced
        return known.accumulateAndGet(read, Math::max);
    }

    /**
     * A transaction of this instance that changed cached data committed (and bumped the counter): read the counter
     * again next time. {@link RevisionBump} calls it for every MyBatis transaction; a change made by other means must
     * bump the counter itself and call this.
     */
    public void changed() {
        stale = true;
    }
}
