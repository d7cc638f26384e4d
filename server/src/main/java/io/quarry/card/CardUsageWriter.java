package io.quarry.card;

import io.quarry.appdb.Db;
import io.quarry.core.Clocks;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cards' view counts and last use, written off the request path in batches (as Metabase records them from its
 * asynchronous events): {@link #record} only adds to an in-memory tally per card; {@link #flush} (every second on the
 * scheduler, and when Quarry stops cleanly) writes each card's tally in one batched transaction — its views added to
 * {@code view_count}, {@code last_used_at} moved forward to the latest use (never back, so instances sharing one
 * application database cannot undo each other's). A flush that fails keeps its tallies for the next one: none is lost
 * while the process lives. Until flushed, {@link #pending} lets this instance show a card's own views.
 */
public final class CardUsageWriter implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CardUsageWriter.class);

    /** Views of one card not written yet, and the latest of them. */
    public record Pending(long views, OffsetDateTime lastUsedAt) {
        Pending plus(Pending other) {
            return new Pending(views + other.views, lastUsedAt.isAfter(other.lastUsedAt) ? lastUsedAt : other.lastUsedAt);
        }
    }

    private final Db db;
    private final Clock clock;
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    /**
     * The tallies a flush is writing, until its transaction has committed: still shown by {@link #pending}, or a card
     * read meanwhile would lose them for the length of the write (the stored count not yet raised, the tally gone).
     */
    private volatile Map<Long, Pending> writing = Map.of();

    CardUsageWriter(Db db, Clock clock) {
        this.db = Objects.requireNonNull(db, "db is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        // views are not what any cache holds: writing them must not empty the caches every second
        db.writesNothingCached(CardMapper.class, "addCardViews");
    }

    /**
     * Counts a view of the card, now: to the microsecond, the precision both application databases store, so that
     * the card shows the same {@code last_used_at} before the flush (from {@link #pending}) and after it.
     */
    public void record(long cardId) {
        pending.merge(cardId, new Pending(1, Clocks.now(clock).truncatedTo(ChronoUnit.MICROS)), Pending::plus);
    }

    /** The card's views not written yet; null when there are none. */
    public Pending pending(long cardId) {
        Pending counted = pending.get(cardId);
        Pending inFlight = writing.get(cardId);
        return counted == null ? inFlight : inFlight == null ? counted : counted.plus(inFlight);
    }

    /** Writes every tally so far in one transaction; returns how many cards it updated. */
    public synchronized int flush() {
        List<Map.Entry<Long, Pending>> taken = new ArrayList<>();
        for (Long cardId : pending.keySet().toArray(Long[]::new)) {
            Pending p = pending.remove(cardId);
            if (p != null) {
                taken.add(Map.entry(cardId, p));
            }
        }
        if (taken.isEmpty()) {
            return 0;
        }
        taken.sort(Map.Entry.comparingByKey()); // one lock order for every writer: no deadlock between instances
        Map<Long, Pending> inFlight = new java.util.HashMap<>();
        taken.forEach(e -> inFlight.put(e.getKey(), e.getValue()));
        writing = inFlight;
        try {
            db.batch(session -> {
                CardMapper mapper = session.getMapper(CardMapper.class);
                for (Map.Entry<Long, Pending> e : taken) {
                    mapper.addCardViews(e.getKey(), e.getValue().views(), e.getValue().lastUsedAt());
                }
                return null;
            });
        } catch (RuntimeException e) {
            // put them back: the next flush writes them with whatever came since
            taken.forEach(t -> pending.merge(t.getKey(), t.getValue(), Pending::plus));
            throw e;
        } finally {
            writing = Map.of();
        }
        return taken.size();
    }

    /** Flushes what is left (a clean shutdown); a failure is logged, as nothing else can be done with it. */
    @Override
    public void close() {
        try {
            flush();
        } catch (RuntimeException e) {
            log.warn("Writing the last card views failed; {} cards' views are lost", pending.size(), e);
        }
    }
}
