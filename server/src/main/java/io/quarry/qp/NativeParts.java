package io.quarry.qp;

import io.quarry.qp.mbql.MbqlReferences.CardQuery;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Whether any part of a structured query is SQL: a native stage or source query (of the query, of a join, at any
 * depth), or a saved question it uses as a source ({@code card__N}, MBQL 5's {@code source-card}) that is native or
 * itself uses one. Such a query needs native query rights on its database, as Metabase requires of any query with a
 * native stage or join source, and its SQL counts as written by a person.
 */
public final class NativeParts {
    private static final String CARD_PREFIX = "card__";

    private NativeParts() {
    }

    /** Whether the query (a legacy inner query or MBQL 5 stages, as {@link Query#mbql()} holds it) has a native part. */
    public static boolean in(Map<String, Object> mbql, LongFunction<CardQuery> cards) {
        return mbql != null && in(mbql, cards, new HashSet<>());
    }

    private static boolean in(Object node, LongFunction<CardQuery> cards, Set<Long> seen) {
        if (node instanceof Map<?, ?> map) {
            // a stage or source query with SQL ({"native": "SELECT ..."}), a legacy native query, an MBQL 5 native stage
            if ((map.get("native") != null && !"query".equals(map.get("type"))) || "mbql.stage/native".equals(map.get("lib/type"))) {
                return true;
            }
            Long card = map.get("source-table") instanceof String s && s.startsWith(CARD_PREFIX) ? cardId(s)
                    : map.get("source-card") instanceof Number n ? Long.valueOf(n.longValue()) : null;
            if (card != null && seen.add(card) && cardIsNative(cards.apply(card), cards, seen)) {
                return true;
            }
            for (Object value : map.values()) {
                if (in(value, cards, seen)) {
                    return true;
                }
            }
        } else if (node instanceof List<?> list) {
            for (Object value : list) {
                if (in(value, cards, seen)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A saved question's query: native, or structured with a native part. A missing card has none (it fails later). */
    private static boolean cardIsNative(CardQuery card, LongFunction<CardQuery> cards, Set<Long> seen) {
        if (card == null || card.datasetQuery() == null) {
            return false;
        }
        return in(card.datasetQuery(), cards, seen);
    }

    private static Long cardId(String reference) {
        try {
            return Long.parseLong(reference.substring(CARD_PREFIX.length()));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
