package io.quarry.qp.mbql;

import io.quarry.warehouse.Field;
import io.quarry.warehouse.Table;
import java.util.List;

/**
 * The metadata a structured query is compiled against: the tables and fields of ONE database. Anything of another
 * database is simply not found here, which is how a query naming a foreign table or field fails.
 */
public interface MbqlMetadata {
    /** The table, or null when the database has no such table. */
    Table table(long id);

    /** The field, or null when the database has no such field. */
    Field field(long id);

    /** The table's active fields in display order. */
    List<Field> fields(long tableId);

    /**
     * The smallest and largest value of a numeric field ({@code [min, max]}), from its fingerprint or the database;
     * null when unknown.
     */
    double[] numberRange(Field field);
}
