package io.quarry.qp.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quarry.qp.Column;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Download text of values: unformatted as Metabase's exports write them, and formatted for people. */
class ExportValuesTest {
    private static final Column PLAIN = Column.nativeColumn("X", "type/Float", "DOUBLE");
    private static final Column KEY = new Column("ID", "ID", "type/BigInteger", "type/BigInteger", "type/PK", List.of(), "fields",
            1L, 1L, "BIGINT", Map.of());

    @Test
    void unformattedDatesAreIsoAndMidnightIsADate() {
        assertEquals("2014-04-07", ExportValues.unformatted(LocalDate.of(2014, 4, 7)));
        assertEquals("2014-04-01", ExportValues.unformatted(LocalDateTime.of(2014, 4, 1, 0, 0)));
        assertEquals("2014-04-01T08:30:00", ExportValues.unformatted(LocalDateTime.of(2014, 4, 1, 8, 30)));
        assertEquals("2014-04-01T08:30:00.125", ExportValues.unformatted(LocalDateTime.of(2014, 4, 1, 8, 30, 0, 125_000_000)));
        assertEquals("08:30:00", ExportValues.unformatted(LocalTime.of(8, 30)));
        assertEquals("2014-04-01T06:30:00Z", ExportValues.unformatted(OffsetDateTime.of(2014, 4, 1, 8, 30, 0, 0,
                ZoneOffset.ofHours(2))), "in the results time zone, UTC");
    }

    @Test
    void unformattedNumbersAndOthers() {
        assertNull(ExportValues.unformatted(null));
        assertEquals("10.5", ExportValues.unformatted(10.5));
        assertEquals("20.0", ExportValues.unformatted(20.0));
        assertEquals("1234567", ExportValues.unformatted(1234567L));
        assertEquals("1000", ExportValues.unformatted(new BigDecimal("1E+3")), "plain notation");
        assertEquals("true", ExportValues.unformatted(true));
        assertEquals("[1,\"a\"]", ExportValues.unformatted(List.of(1, "a")));
        assertEquals("text, \"as is\"", ExportValues.unformatted("text, \"as is\""));
    }

    @Test
    void formattedValuesReadAsInTheUi() {
        ExportValues.Renderer plain = ExportValues.renderer(PLAIN, true);
        assertEquals("April 7, 2014", plain.text(LocalDate.of(2014, 4, 7)));
        assertEquals("April 1, 2014, 8:30 AM", plain.text(LocalDateTime.of(2014, 4, 1, 8, 30)));
        assertEquals("December 31, 1999, 11:59 PM", plain.text(LocalDateTime.of(1999, 12, 31, 23, 59, 59)));
        assertEquals("April 1, 2014, 6:30 AM", plain.text(OffsetDateTime.of(2014, 4, 1, 8, 30, 0, 0, ZoneOffset.ofHours(2))));
        assertEquals("8:30 PM", plain.text(LocalTime.of(20, 30)));
        assertEquals("1,234,567", plain.text(1234567L));
        assertEquals("12,345,678,901,234,567,890", plain.text(new BigInteger("12345678901234567890")));
        assertEquals("1,234,567.89", plain.text(1234567.891));
        assertEquals("1,234.5", plain.text(new BigDecimal("1234.50")));
        assertEquals("-0.5", plain.text(-0.5));
        assertEquals("7", plain.text(7.0));
        assertEquals("NaN", plain.text(Double.NaN));
        assertEquals("Ada", plain.text("Ada"));
        assertEquals("false", plain.text(false));
    }

    @Test
    void keysKeepTheirDigitsTogether() {
        assertEquals("1234567", ExportValues.renderer(KEY, true).text(1234567L));
        assertEquals("1234567", ExportValues.renderer(KEY, false).text(1234567L));
    }
}
