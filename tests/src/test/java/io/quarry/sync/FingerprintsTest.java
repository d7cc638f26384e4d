package io.quarry.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fingerprints computed from samples: Metabase's shape and statistics. */
class FingerprintsTest {
    @Test
    void numbersGetDistributionStatistics() {
        List<Object> values = new ArrayList<>(Arrays.asList(1, 2, 3, 4, 5, 6, 7, 8, null, null));
        Map<String, Object> fp = Fingerprints.of(Fingerprints.Kind.NUMBER, values);
        assertEquals(Map.of("distinct-count", 8, "nil%", 0.2), fp.get("global"));
        Map<String, Object> number = Fingerprints.typed(fp, "type/Number");
        assertEquals(1.0, number.get("min"));
        assertEquals(8.0, number.get("max"));
        assertEquals(4.5, number.get("avg"));
        assertEquals(2.0, number.get("q1"));
        assertEquals(6.0, number.get("q3"));
        assertEquals(Math.sqrt(6.0), (double) number.get("sd"), 1e-9, "the sample standard deviation");
        assertEquals(List.of("min", "q1", "q3", "max", "sd", "avg"), List.copyOf(number.keySet()));
        // decimals that differ only in scale are one value
        assertEquals(1, Fingerprints.global(List.of(new BigDecimal("1.0"), new BigDecimal("1.00"))).get("distinct-count"));
    }

    @Test
    void textGetsShapesOfItsValues() {
        List<Object> values = Arrays.asList("ada@example.com", "grace@example.org", "not an email", null);
        Map<String, Object> text = Fingerprints.typed(Fingerprints.of(Fingerprints.Kind.TEXT, values), "type/Text");
        assertEquals(0.5, text.get("percent-email"));
        assertEquals(0.0, text.get("percent-url"));
        assertEquals(0.0, text.get("percent-json"));
        assertEquals(0.0, text.get("percent-state"));
        assertEquals((15 + 17 + 12 + 0) / 4.0, text.get("average-length"), "null counts as empty text, as in Metabase");
        assertEquals(17, text.get("max-length"));

        Map<String, Object> states = Fingerprints.typed(Fingerprints.of(Fingerprints.Kind.TEXT,
                List.of("CA", "ny", "Texas", "North Carolina", "ZZ")), "type/Text");
        assertEquals(0.8, states.get("percent-state"));
        Map<String, Object> urls = Fingerprints.typed(Fingerprints.of(Fingerprints.Kind.TEXT,
                List.of("https://example.com/a", "http://localhost:3000/x", "ftp://files.example.org", "example.com", "https:/x")),
                "type/Text");
        assertEquals(0.6, urls.get("percent-url"));
        Map<String, Object> json = Fingerprints.typed(Fingerprints.of(Fingerprints.Kind.TEXT,
                List.of("{\"a\": 1}", "[1, 2]", "[true]", "[Widget]", "plain")), "type/Text");
        assertEquals(0.6, json.get("percent-json"), "[word] is not JSON, [true] is");
    }

    @Test
    void temporalValuesGetTheirRangeAsIsoText() {
        List<Object> values = Arrays.asList(LocalDateTime.of(2020, 4, 19, 12, 0, 1, 352_000_000), null,
                LocalDateTime.of(2016, 4, 30, 18, 56, 13, 352_000_000), LocalDateTime.of(2018, 1, 1, 0, 0));
        Map<String, Object> dt = Fingerprints.typed(Fingerprints.of(Fingerprints.Kind.TEMPORAL, values), "type/DateTime");
        assertEquals("2016-04-30T18:56:13.352Z", dt.get("earliest"));
        assertEquals("2020-04-19T12:00:01.352Z", dt.get("latest"));
        Map<String, Object> dates = Fingerprints.typed(Fingerprints.of(Fingerprints.Kind.TEMPORAL,
                List.of(LocalDate.of(1990, 5, 1), LocalDate.of(1958, 1, 2))), "type/DateTime");
        assertEquals("1958-01-02", dates.get("earliest"));
        assertEquals("1990-05-01", dates.get("latest"));
        Map<String, Object> zoned = Fingerprints.typed(Fingerprints.of(Fingerprints.Kind.TEMPORAL,
                List.of(OffsetDateTime.of(2020, 1, 1, 1, 0, 0, 0, ZoneOffset.ofHours(2)))), "type/DateTime");
        assertEquals("2019-12-31T23:00:00Z", zoned.get("earliest"), "instants in UTC");
        assertEquals(LocalDateTime.of(2020, 1, 1, 0, 0), Fingerprints.normalize(java.sql.Timestamp.valueOf("2020-01-01 00:00:00")));
    }

    @Test
    void keysGetNoFingerprintAndOtherTypesOnlyTheGlobalPart() {
        assertEquals(Fingerprints.Kind.NONE, Fingerprints.kindOf("type/BigInteger", "type/PK"));
        assertNull(Fingerprints.of(Fingerprints.Kind.NONE, List.of(1, 2)));
        assertEquals(Fingerprints.Kind.GLOBAL, Fingerprints.kindOf("type/Integer", "type/FK"));
        assertEquals(Fingerprints.Kind.GLOBAL, Fingerprints.kindOf("type/Boolean", null));
        assertEquals(Fingerprints.Kind.NUMBER, Fingerprints.kindOf("type/Decimal", "type/Price"));
        assertEquals(Fingerprints.Kind.TEXT, Fingerprints.kindOf("type/Text", null));
        assertEquals(Fingerprints.Kind.TEMPORAL, Fingerprints.kindOf("type/Date", null));
        Map<String, Object> bool = Fingerprints.of(Fingerprints.Kind.GLOBAL, List.of(true, false, true));
        assertFalse(bool.containsKey("type"));
        assertEquals(2, Fingerprints.global(bool, "distinct-count"));
        Map<String, Object> empty = Fingerprints.of(Fingerprints.Kind.NUMBER, List.of());
        assertEquals(0, Fingerprints.global(empty, "distinct-count"));
        assertNull(Fingerprints.global(empty, "nil%"));
        assertNull(Fingerprints.typed(empty, "type/Number").get("avg"));
    }

    @Test
    void valuePredicates() {
        assertTrue(Fingerprints.isEmail("o'neil+tag@mail.example.co.uk"));
        assertFalse(Fingerprints.isEmail("two@@example.com"));
        assertFalse(Fingerprints.isEmail("no-domain@"));
        assertTrue(Fingerprints.isUrl("https://www.metabase.com/docs"));
        assertFalse(Fingerprints.isUrl("mailto:someone@example.com"));
        assertFalse(Fingerprints.isUrl("https://has space.com"));
        assertTrue(Fingerprints.isState("  wy "));
        assertFalse(Fingerprints.isState("Ontario"));
    }
}
