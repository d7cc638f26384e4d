package io.quarry.driver;

/**
 * The SQL an engine speaks, for the SQL Quarry generates (sync's profiling queries now, compiled MBQL later). Only
 * identifiers are ever spliced into SQL, and only through {@link #quote}; values are always bind parameters.
 */
public interface SqlDialect {
    /** Quotes one identifier, doubling any embedded quote character. */
    default String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** {@code "schema"."table"}, or just the table when there is no schema. */
    default String qualify(String schema, String table) {
        return schema == null || schema.isEmpty() ? quote(table) : quote(schema) + "." + quote(table);
    }

    /** The clause that caps a query's rows (appended at the end). */
    default String limit(long rows) {
        return "LIMIT " + rows;
    }
}
