package io.quarry.qp;

import java.util.List;

/**
 * SQL ready to run: text with {@code ?} placeholders, the values bound to them, and what is known of the result
 * columns beforehand (empty for native SQL; MBQL knows its fields and aggregations).
 */
public record CompiledQuery(String sql, List<Object> params, List<Column> columns) {
}
