package io.quarry.qp.mbql;

import java.util.Map;

/**
 * What a structured query may name besides tables and fields: saved questions as sources ({@code "card__123"},
 * {@code source-card}), segments and metrics. The modules that own them implement this; until then nothing is found
 * and the query fails with "Card 123 not found." and the like.
 */
public interface MbqlReferences {
    /** A card's query as stored: {@code {"database": 1, "type": "query"|"native", ...}} or MBQL 5. */
    record CardQuery(long databaseId, Map<String, Object> datasetQuery) {
    }

    /** The card's query, or null when there is no such card (or the caller may not see it). */
    CardQuery card(long cardId);

    /** The segment's filter clause (legacy MBQL), or null. */
    Object segment(long segmentId);

    /** The metric's aggregation clause (legacy MBQL), or null. */
    Object metric(long metricId);

    /** Nothing can be referenced. */
    MbqlReferences NONE = new MbqlReferences() {
        @Override
        public CardQuery card(long cardId) {
            return null;
        }

        @Override
        public Object segment(long segmentId) {
            return null;
        }

        @Override
        public Object metric(long metricId) {
            return null;
        }
    };
}
