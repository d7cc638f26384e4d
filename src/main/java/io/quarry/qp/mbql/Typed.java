package io.quarry.qp.mbql;

/** An expression compiled to SQL, with its type and, for column references, the column. */
record Typed(Sql sql, String type, Col col) {
}
