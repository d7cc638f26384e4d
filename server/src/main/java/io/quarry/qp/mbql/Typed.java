package io.quarry.qp.mbql;

import io.quarry.driver.Sql;

/** An expression compiled to SQL, with its type and, for column references, the column. */
record Typed(Sql sql, String type, Col col) {
}
