package io.quarry.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How many rows a query may return, by purpose: Metabase's constraints and its absolute cap of 1,048,575. */
class RowLimitTest {
    private static final long CAP = 1_048_575;

    @Test
    void theCapIsExcelsRowsLessTheHeader() {
        assertEquals(CAP, QueryProcessor.ABSOLUTE_MAX_ROWS);
        assertEquals(1_048_576, QueryProcessor.ABSOLUTE_MAX_ROWS + 1, "an Excel sheet's rows");
    }

    @Test
    void downloadsGetTheAbsoluteMaximum() {
        assertEquals(CAP, QueryProcessor.rowLimit(QueryProcessor.Purpose.EXPORT, null, 2000));
        assertEquals(CAP, QueryProcessor.rowLimit(QueryProcessor.Purpose.EXPORT, 5_000_000L, 2000));
        assertEquals(CAP, QueryProcessor.rowLimit(QueryProcessor.Purpose.EXPORT, 0L, 2000));
        assertEquals(CAP, QueryProcessor.rowLimit(QueryProcessor.Purpose.EXPORT, -1L, 2000));
    }

    @Test
    void aQueryMayAskForFewer() {
        assertEquals(10, QueryProcessor.rowLimit(QueryProcessor.Purpose.EXPORT, 10L, 2000));
        assertEquals(10, QueryProcessor.rowLimit(QueryProcessor.Purpose.API, 10L, 2000));
        assertEquals(CAP - 1, QueryProcessor.rowLimit(QueryProcessor.Purpose.EXPORT, CAP - 1, 2000));
    }

    @Test
    void aMaxResultsOfZeroOrLessIsNoConstraint() {
        assertEquals(2000, QueryProcessor.rowLimit(QueryProcessor.Purpose.API, 0L, 2000));
        assertEquals(10_000, QueryProcessor.rowLimit(QueryProcessor.Purpose.API, -1L, 10_000));
        assertEquals(1, QueryProcessor.rowLimit(QueryProcessor.Purpose.API, 1L, 10_000));
    }

    @Test
    void theApiUsesTheRowLimitSettingButNeverMoreThanTheCap() {
        assertEquals(2000, QueryProcessor.rowLimit(QueryProcessor.Purpose.API, null, 2000));
        assertEquals(2000, QueryProcessor.rowLimit(QueryProcessor.Purpose.API, 5000L, 2000));
        assertEquals(CAP, QueryProcessor.rowLimit(QueryProcessor.Purpose.API, null, 10_000_000));
        assertEquals(CAP, QueryProcessor.rowLimit(QueryProcessor.Purpose.API, CAP + 1, 10_000_000));
    }
}
