package io.quarry.driver;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.driver.SqlTokens.Lexicon;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link SqlTokens}: statements and words as the engines' own lexers see them. */
class SqlTokensTest {
    @Test
    void semicolonsInsideLiteralsIdentifiersAndCommentsEndNoStatement() {
        assertEquals(1, SqlTokens.of("SELECT ';' AS \"a;b\" -- ; x\n FROM t /* ; */;", Lexicon.H2).statementCount());
        assertEquals(2, SqlTokens.of("SELECT 1; DELETE FROM t", Lexicon.H2).statementCount());
        assertEquals(1, SqlTokens.of("SELECT $$ ; $$", Lexicon.H2).statementCount());
        assertEquals(1, SqlTokens.of("SELECT 1;;  ;", Lexicon.DUCKDB).statementCount(), "empty statements do not count");
        assertEquals(0, SqlTokens.of("  -- nothing\n", Lexicon.SQLITE).statementCount());
    }

    @Test
    void aBackslashIsAnOrdinaryCharacterInStandardLiterals() {
        // 'x\' is a whole literal in H2, DuckDB and SQLite: what follows is SQL, and must be seen as such
        SqlTokens tokens = SqlTokens.of("SELECT 'x\\', * FROM FINAL TABLE (DELETE FROM t) --'", Lexicon.H2);
        assertTrue(tokens.containsDataChangeDeltaTable());
        assertEquals(2, SqlTokens.of("SELECT 'a\\'; DELETE FROM t; --'", Lexicon.DUCKDB).statementCount());
    }

    @Test
    void lineCommentsAndQuotesFollowEachEngine() {
        // H2: // starts a comment; DuckDB: // is integer division, so the ; after it ends a statement
        assertEquals(1, SqlTokens.of("SELECT 4 // 2; DELETE FROM t", Lexicon.H2).statementCount());
        assertEquals(2, SqlTokens.of("SELECT 4 // 2; DELETE FROM t", Lexicon.DUCKDB).statementCount());
        // DuckDB: [..] is a list, whose strings may hold ] and ;
        assertEquals(2, SqlTokens.of("SELECT [']'] ;DELETE FROM t", Lexicon.DUCKDB).statementCount());
        // SQLite: [..] is a quoted identifier
        assertEquals(1, SqlTokens.of("SELECT [a;b] FROM t", Lexicon.SQLITE).statementCount());
        // SQLite has no dollar quoting ($name is a parameter)
        assertEquals(3, SqlTokens.of("SELECT $a$; DELETE FROM t; $a$", Lexicon.SQLITE).statementCount());
    }

    @Test
    void dataChangeDeltaTablesAreFoundThroughCommentsAndCase() {
        assertTrue(SqlTokens.of("select * from final/* x */table(insert into t values (1))", Lexicon.H2).containsDataChangeDeltaTable());
        assertTrue(SqlTokens.of("SELECT * FROM OLD // c\n TABLE (DELETE FROM t)", Lexicon.H2).containsDataChangeDeltaTable());
        assertFalse(SqlTokens.of("SELECT 'FINAL TABLE (' AS \"NEW TABLE (\"", Lexicon.H2).containsDataChangeDeltaTable());
    }

    @Test
    void oneStatementOfAllowedFirstWords() {
        Set<String> rows = Set.of("INSERT", "UPDATE", "DELETE");
        assertDoesNotThrow(() -> SqlTokens.requireOneStatement("insert into t values (1);", Lexicon.SQLITE, rows, "SQLite"));
        assertThrows(StatementRefused.class, () -> SqlTokens.requireOneStatement("ATTACH 'x' AS y", Lexicon.SQLITE, rows, "SQLite"));
        assertThrows(StatementRefused.class,
                () -> SqlTokens.requireOneStatement("DELETE FROM t; DROP TABLE t", Lexicon.DUCKDB, rows, "DuckDB"));
        assertThrows(StatementRefused.class,
                () -> SqlTokens.requireOneStatement("/* DELETE */ COPY t TO '/tmp/x'", Lexicon.DUCKDB, rows, "DuckDB"));
    }
}
