package io.quarry.qp.mbql;

import java.util.List;
import java.util.Map;

/**
 * What a structured query may name besides tables and fields: saved questions as sources ({@code "card__123"},
 * {@code source-card}), segments and metrics. The modules that own them implement this; until then nothing is found
 * and the query fails with "Card 123 not found." and the like.
 */
public interface MbqlReferences {
    /**
     * A card's query as stored: {@code {"database": 1, "type": "query"|"native", ...}} or MBQL 5; {@code persisted}: the
     * table in the card's own database that holds the model's current result (null when the model is not persisted, or
     * its table is not up to date with its query), which the compiler reads instead of running the query.
     */
    record CardQuery(long databaseId, Map<String, Object> datasetQuery, PersistedTable persisted) {
        public CardQuery(long databaseId, Map<String, Object> datasetQuery) {
            this(databaseId, datasetQuery, null);
        }

        public CardQuery withPersisted(PersistedTable table) {
            return new CardQuery(databaseId, datasetQuery, table);
        }
    }

    /**
     * A persisted model's table: its schema and name, and its columns in order (the aliases of the model's compiled
     * query when it was built). Only Quarry builds these, never a client's JSON, so the compiler trusts the names (it
     * still quotes them).
     */
    record PersistedTable(String schema, String table, List<String> columns) {
        public PersistedTable {
            columns = List.copyOf(columns);
        }
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
