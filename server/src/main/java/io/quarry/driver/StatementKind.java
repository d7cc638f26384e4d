package io.quarry.driver;

/**
 * What a statement Quarry runs on a connected database is for. The engine decides what each kind may run
 * ({@link Driver#checkStatement}); the query runner checks every statement it executes against its kind.
 */
public enum StatementKind {
    /** A single statement that reads: queries, field values, analysis samples. Runs on a read connection. */
    READ(false),
    /** A single statement that changes rows (INSERT, UPDATE, DELETE, MERGE): query and implicit actions. */
    WRITE_ROWS(true),
    /**
     * Tables Quarry builds itself, with their rows: persisted models' cache tables and uploaded files (CREATE SCHEMA,
     * CREATE/DROP/RENAME TABLE, CREATE/DROP VIEW, INSERT, DELETE and the reads around them).
     */
    WRITE_TABLES(true);

    private final boolean writes;

    StatementKind(boolean writes) {
        this.writes = writes;
    }

    /** Whether the statement runs on a write connection (only to a database whose settings let Quarry write). */
    public boolean writes() {
        return writes;
    }
}
