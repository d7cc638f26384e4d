package io.quarry.card;

import io.quarry.appdb.Db;
import io.quarry.appdb.RevisionCache;
import io.quarry.collection.CollectionAccess;
import io.quarry.core.Caller;
import io.quarry.core.Json;
import io.quarry.qp.QueryProcessor;
import io.quarry.qp.mbql.MbqlReferences;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The read-only look-ups of saved cards the query processor needs to compile card references ({@code {{#123}}},
 * {@code card__123}): a card's stored query and whether a caller may read it. Built before the query processor (which
 * {@link CardService} itself uses), by {@link CardModule.ForQueries}, so that the processor gets them through its
 * constructor.
 */
public final class CardLookups implements QueryProcessor.CardAccess {
    private final Db db;
    private final CollectionAccess access;
    /** Stored cards as compilation reads them, on every run of a saved card: shared, never changed. */
    private final RevisionCache<Long, Card> cards;
    /**
     * Stored queries as compilation reads them ({@link #cardQuery}), on every run of a saved card: parsing the JSON
     * and converting it to maps was ~12 % of a {@code SELECT 1} card query's CPU. Invalidated as {@link #cards}; the
     * maps are unmodifiable all the way down, so that no caller can change what the next one reads.
     */
    private final RevisionCache<Long, MbqlReferences.CardQuery> queries;

    CardLookups(Db db, CollectionAccess access) {
        this.db = db;
        this.access = access;
        this.cards = db.cache(10_000);
        this.queries = db.cache(10_000);
    }

    private Card card(long id) {
        return cards.get(id, key -> db.with(CardMapper.class, m -> m.findCard(key)));
    }

    /** A card's stored query, for references from other queries; null for a missing or archived card. */
    @SuppressWarnings("unchecked")
    public MbqlReferences.CardQuery cardQuery(long id) {
        return queries.get(id, key -> {
            Card card = card(key);
            if (card == null || card.archived) {
                return null;
            }
            Map<String, Object> query = Json.MAPPER.convertValue(CardService.parse(card.datasetQuery), Map.class);
            return new MbqlReferences.CardQuery(card.databaseId, query == null ? null : (Map<String, Object>) frozen(query));
        });
    }

    /** The parsed JSON with every map and list unmodifiable (insertion order kept; JSON nulls allowed). */
    @SuppressWarnings("unchecked")
    static Object frozen(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put((String) k, frozen(v)));
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(v -> copy.add(frozen(v)));
            return Collections.unmodifiableList(copy);
        }
        return value;
    }

    /** Whether the card exists and the caller may read its collection. */
    @Override
    public boolean canRead(Caller caller, long id) {
        Card card = card(id);
        return card != null && access.canRead(caller, card.collectionId);
    }
}
