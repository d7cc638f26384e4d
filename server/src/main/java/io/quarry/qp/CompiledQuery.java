package io.quarry.qp;

import java.util.List;

/**
 * SQL ready to run: text with {@code ?} placeholders, the values bound to them, what is known of the result columns
 * beforehand (empty for native SQL; MBQL knows its fields and aggregations), and whether any part of it is SQL a person
 * wrote ({@code authored}: a native query, a native stage or join, a referenced native card), which the engine's
 * statement policy treats with more care ({@link io.quarry.driver.Driver#checkStatement}).
 */
public record CompiledQuery(String sql, List<Object> params, List<Column> columns, boolean authored) {
    /** Quarry's own SQL (no part written by a person). */
    public CompiledQuery(String sql, List<Object> params, List<Column> columns) {
        this(sql, params, columns, false);
    }

    /** The same query, marked as containing SQL a person wrote when {@code authored}. */
    public CompiledQuery authored(boolean authored) {
        return authored == this.authored ? this : new CompiledQuery(sql, params, columns, authored);
    }
}
