package io.quarry.assistant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlTextTest {
    @Test
    void bindValuesBecomeLiteralsOutsideQuotesAndComments() {
        String sql = "SELECT '?' AS \"q?\" -- why?\nFROM T WHERE A = ? AND B > ? AND C < ? AND D = ? /* ? */ AND E = ? AND F IS ?";
        assertEquals("SELECT '?' AS \"q?\" -- why?\nFROM T WHERE A = 'it''s' AND B > 2.5 AND C < DATE '2024-01-01'"
                        + " AND D = TIMESTAMP '2024-01-01 10:00:00.000000' /* ? */ AND E = TIMESTAMP WITH TIME ZONE"
                        + " '2024-01-01 00:00:00.000000+00:00' AND F IS NULL",
                SqlText.inline(sql, Arrays.asList("it's", 2.5, LocalDate.of(2024, 1, 1), LocalDateTime.of(2024, 1, 1, 10, 0),
                        OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC), null)));
        assertEquals("SELECT 'a\\\\'' OR 1=1'", SqlText.inline("SELECT ?", List.of("a\\' OR 1=1"), true));
        assertThrows(IllegalStateException.class, () -> SqlText.inline("SELECT ?", List.of()));
        assertThrows(IllegalStateException.class, () -> SqlText.inline("SELECT 1", List.of(1)));
    }

    @Test
    void onlyOneReadingStatementPasses() {
        assertEquals("SELECT 1", SqlText.readOnly(" SELECT 1 ;\n"));
        assertEquals("WITH x AS (SELECT 1) SELECT * FROM x", SqlText.readOnly("WITH x AS (SELECT 1) SELECT * FROM x"));
        assertEquals("SELECT 'delete; drop' AS \"update\" FROM t -- insert", SqlText.readOnly("SELECT 'delete; drop' AS \"update\" FROM t -- insert"));
        for (String bad : List.of("", ";", "DELETE FROM t", "SELECT 1; SELECT 2", "UPDATE t SET a = 1",
                "WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x", "SELECT * INTO u FROM t", "drop table t",
                "SELECT pg_sleep(10)", "CALL x()", "SELECT 1 /* ; */; DROP TABLE t", "EXPLAIN ANALYZE DELETE FROM t")) {
            assertThrows(SqlText.Refused.class, () -> SqlText.readOnly(bad), bad);
        }
    }

    @Test
    void theSqlIsTheFencedBlockOrTheWholeReply() {
        assertEquals("SELECT 1", SqlText.extract("Here you go:\n```sql\nSELECT 1\n```\nEnjoy."));
        assertEquals("SELECT 2", SqlText.extract("```\nSELECT 2\n```"));
        assertEquals("SELECT 3", SqlText.extract("  SELECT 3  "));
    }
}
