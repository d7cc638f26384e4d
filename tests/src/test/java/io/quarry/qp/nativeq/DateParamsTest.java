package io.quarry.qp.nativeq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class DateParamsTest {
    /** Wednesday 2026-11-18, 14:37. */
    private static final LocalDateTime NOW = LocalDateTime.of(2026, 11, 18, 14, 37, 12);

    private static DateParams.Range range(String value) {
        return DateParams.parse(value, NOW, DayOfWeek.SUNDAY);
    }

    private static DateParams.Range days(String from, String toExclusive) {
        return new DateParams.Range(LocalDate.parse(from).atStartOfDay(), LocalDate.parse(toExclusive).atStartOfDay());
    }

    @Test
    void pastAndNextExcludeTheCurrentUnitUnlessAskedTo() {
        assertEquals(days("2026-10-19", "2026-11-18"), range("past30days"));
        assertEquals(days("2026-10-19", "2026-11-19"), range("past30days~"));
        assertEquals(days("2026-12-01", "2027-03-01"), range("next3months"));
        assertEquals(days("2026-11-01", "2027-03-01"), range("next3months~"));
        assertEquals(new DateParams.Range(LocalDateTime.of(2026, 11, 18, 12, 0), LocalDateTime.of(2026, 11, 18, 14, 0)),
                range("past2hours"));
    }

    @Test
    void currentAndPreviousUnits() {
        assertEquals(days("2026-11-18", "2026-11-19"), range("today"));
        assertEquals(days("2026-11-17", "2026-11-18"), range("yesterday"));
        assertEquals(days("2026-11-15", "2026-11-22"), range("thisweek"));
        assertEquals(days("2026-11-16", "2026-11-23"), DateParams.parse("thisweek", NOW, DayOfWeek.MONDAY));
        assertEquals(days("2026-10-01", "2026-11-01"), range("lastmonth"));
        assertEquals(days("2026-07-01", "2026-10-01"), range("lastquarter"));
        assertEquals(days("2026-01-01", "2027-01-01"), range("thisyear"));
        assertEquals(days("2027-01-01", "2028-01-01"), range("nextyear"));
    }

    @Test
    void offsetsShiftTheWholeRange() {
        assertEquals(days("2024-08-01", "2024-11-01"), range("past3months-from-2years"));
        assertEquals(days("2026-12-19", "2026-12-26"), range("next7days-from-1months"));
    }

    @Test
    void absoluteValues() {
        assertEquals(days("2024-01-05", "2024-01-06"), range("2024-01-05"));
        assertEquals(new DateParams.Range(LocalDateTime.of(2024, 1, 5, 10, 30), LocalDateTime.of(2024, 1, 5, 10, 31)),
                range("2024-01-05T10:30:00"));
        assertEquals(days("2024-01-01", "2024-02-01"), range("2024-01-01~2024-01-31"));
        DateParams.Range from = range("2024-01-01~");
        assertEquals(LocalDate.parse("2024-01-01").atStartOfDay(), from.start());
        assertNull(from.end());
        DateParams.Range until = range("~2024-01-31");
        assertNull(until.start());
        assertEquals(LocalDate.parse("2024-02-01").atStartOfDay(), until.end());
        assertEquals(days("2024-02-01", "2024-03-01"), range("2024-02"));
        assertEquals(days("2024-04-01", "2024-07-01"), range("Q2-2024"));
    }

    @Test
    void nonsenseIsAClearError() {
        assertEquals("Don't know how to parse date parameter value yesterdayish.",
                assertThrows(TemplateException.class, () -> range("yesterdayish")).getMessage());
        assertThrows(TemplateException.class, () -> range("2024-13"));
        assertThrows(TemplateException.class, () -> range("2024-02-01~2024-01-01"));
        assertThrows(TemplateException.class, () -> range("~"));
        assertThrows(TemplateException.class, () -> range("exclude-days-Mon"));
    }
}
