package io.quarry.appdb;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

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
    /** How many committed changes of this instance {@link #changed()} has been told of. */
    private final AtomicLong changes = new AtomicLong();
    /** The latest reading of the counter: one object, so that no thread can see part of a newer reading. */
    private final AtomicReference<Reading> reading = new AtomicReference<>(new Reading(-1, 0, -1));
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

    /**
     * A reading of the counter: its value (the highest read so far), when the read that gave it began, and how many of
     * this instance's changes had committed by then, all of which it includes.
     */
    private record Reading(long revision, long atNanos, long changes) {
        Reading merge(Reading other) {
            return new Reading(Math.max(revision, other.revision), other.atNanos - atNanos > 0 ? other.atNanos : atNanos,
                    Math.max(changes, other.changes));
        }
    }

    /**
     * The revision caches must have been filled at for their entries to count. The last reading serves for the check
     * interval unless this instance changed something since the read behind it began; then the counter is read again
     * by every thread that asks until a reading that includes the change is in, never answered with the older value
     * while another thread's read is under way.
     */
    public long current() {
        long now = System.nanoTime();
        long changed = changes.get();
        Reading last = reading.get();
        if (last.changes() == changed && now - last.atNanos() < intervalNanos) {
            return last.revision();
        }
        Db reader = db;
        if (reader == null) {
            throw new IllegalStateException("The cache revision has no database to read from yet");
        }
        long read = reader.with(CacheRevisionMapper.class, CacheRevisionMapper::findRevision);
        // the stored counter only grows: a slow reader must not put back an older value a faster one replaced
        return reading.accumulateAndGet(new Reading(read, now, changed), Reading::merge).revision();
    }

    /**
     * A transaction of this instance that changed cached data committed (and bumped the counter): read the counter
     * again next time. {@link RevisionBump} calls it for every MyBatis transaction; a change made by other means must
     * bump the counter itself and call this.
     */
    public void changed() {
        changes.incrementAndGet();
    }
}
