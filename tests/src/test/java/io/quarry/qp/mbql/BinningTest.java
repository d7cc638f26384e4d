package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarry.qp.QueryFailure;
import java.time.DayOfWeek;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Numeric binning: {@link ColumnBinner} turns a reference's {@code binning} into SQL, bin info and a field ref,
 * {@link Binning} resolves the strategy over the column's range. Over the shop's ORDERS (TOTAL 23 a float, QUANTITY 24
 * an integer, CREATED_AT 25 a date-time) and PEOPLE (LATITUDE 33); 8 bins and a 10° width by default.
 */
class BinningTest {
    private static final String TOTAL = "\"PUBLIC\".\"ORDERS\".\"TOTAL\"";
    private FakeMetadata metadata;

    @BeforeEach
    void shop() {
        metadata = FakeMetadata.shop();
    }

    private Col binned(long tableId, long fieldId, String binning) {
        StageScope scope = PassTesting.tableScope(metadata, tableId, DayOfWeek.SUNDAY);
        return scope.columnCompiler.column(PassTesting.json("[\"field\", " + fieldId + ", {\"binning\": " + binning + "}]"));
    }

    /** TOTAL binned, its values ranging from {@code min} to {@code max}. */
    private Col total(double min, double max, String binning) {
        metadata.range(23, min, max);
        return binned(2, 23, binning);
    }

    private String failure(long fieldId, String binning) {
        QueryFailure failure = assertThrows(QueryFailure.class, () -> binned(2, fieldId, binning));
        assertEquals(QueryFailure.Type.INVALID_QUERY, failure.type());
        return failure.getMessage();
    }

    @Test
    void aNumberOfBinsGetsAPleasingWidthAndNiceBounds() {
        Col total = total(105, 187, "{\"strategy\": \"num-bins\", \"num-bins\": 4}");
        // 82 / 4 = 20.5 → 25, and the bounds widen to multiples of it: 100 .. 200
        assertBinned("CAST(((FLOOR((" + TOTAL + " - 100.0) / 25.0) * 25.0) + 100.0) AS DOUBLE PRECISION)", "Total: 4 bins",
                info("num-bins", 25, 4, 100, 200), total);
        assertEquals(List.of("strategy", "num-bins", "min-value", "max-value", "bin-width"), List.copyOf(binningOf(total).keySet()));
        assertEquals(List.of("num-bins", 4, 100.0, 200.0, 25.0), List.copyOf(binningOf(total).values()));
        assertEquals("Total: 1 bin", binned(2, 23, "{\"strategy\": \"num-bins\", \"num-bins\": 1}").displayName);
    }

    @Test
    void aBinWidthIsKeptAndTheBinsCounted() {
        Col total = total(38, 159.3, "{\"strategy\": \"bin-width\", \"bin-width\": 15}");
        // 38 .. 159.3 widens to 30 .. 165: 9 bins of 15
        assertBinned("CAST(((FLOOR((" + TOTAL + " - 30.0) / 15.0) * 15.0) + 30.0) AS DOUBLE PRECISION)", "Total: 15",
                info("bin-width", 15, 9, 30, 165), total);
        assertEquals(15.0, binningOf(total).get("bin-width"));
    }

    @Test
    void theDefaultStrategyIsTheDefaultNumberOfBinsOrForCoordinatesTheDefaultWidth() {
        Col total = total(8.9, 159.3, "{\"strategy\": \"default\"}");
        // 8 bins over 8.9 .. 159.3: 18.8 → 20, bounds 0 .. 160 (no shift for a minimum of 0)
        assertEquals("CAST((FLOOR(" + TOTAL + " / 20.0) * 20.0) AS DOUBLE PRECISION)", total.sql.text());
        assertEquals("Total: Auto binned", total.displayName);
        assertEquals("num-bins", total.binningInfo.get("binning_strategy"));
        assertEquals(8, total.binningInfo.get("num_bins"));
        assertEquals("default", binningOf(total).get("strategy"));
        assertEquals(total.sql.text(), binned(2, 23, "{}").sql.text(), "no strategy is the default one");

        metadata.range(33, -38.2, 61);
        Col latitude = binned(3, 33, "{\"strategy\": \"default\"}");
        assertBinned("CAST(((FLOOR((\"PUBLIC\".\"PEOPLE\".\"LATITUDE\" - -40.0) / 10.0) * 10.0) + -40.0) AS DOUBLE PRECISION)",
                "Latitude: Auto binned", info("bin-width", 10, 11, -40, 70), latitude);
    }

    @Test
    void anIntegerColumnDividesAsADecimal() {
        metadata.range(24, 1, 100);
        assertEquals("CAST((FLOOR(\"PUBLIC\".\"ORDERS\".\"QUANTITY\" / 10.0) * 10.0) AS DOUBLE PRECISION)",
                binned(2, 24, "{\"strategy\": \"num-bins\", \"num-bins\": 10}").sql.text());
    }

    @Test
    void aRangeInTheReferenceIsUsedWithoutAskingTheMetadata() {
        Col total = binned(2, 23, "{\"strategy\": \"num-bins\", \"num-bins\": 4, \"min-value\": 105, \"max-value\": 187}");
        assertEquals(100.0, total.binningInfo.get("min_value"));
        assertEquals(25.0, total.binningInfo.get("bin_width"));
        assertEquals(0, metadata.rangeLookups);
    }

    @Test
    void noBinningLeavesTheColumnAsItIs() {
        Col total = PassTesting.tableScope(metadata, 2, DayOfWeek.SUNDAY).columnCompiler.column(PassTesting.json("[\"field\", 23, null]"));
        assertEquals(TOTAL, total.sql.text());
        assertNull(total.binningInfo);
        assertEquals("Total", total.displayName);
        assertEquals(0, metadata.rangeLookups);
    }

    @Test
    void onlyANumberWithAKnownRangeAndAValidStrategyIsBinned() {
        metadata.range(23, 0, 100);
        assertEquals("The column CREATED_AT is not a number: it can't be binned.", failure(25, "{\"strategy\": \"default\"}"));
        assertEquals("The column QUANTITY can't be binned: its smallest and largest values are unknown.",
                failure(24, "{\"strategy\": \"default\"}"));
        assertEquals("Unknown binning strategy \"quantiles\": use default, num-bins or bin-width.",
                failure(23, "{\"strategy\": \"quantiles\"}"));
        assertEquals("Binning by num-bins needs a positive \"num-bins\".", failure(23, "{\"strategy\": \"num-bins\"}"));
        assertEquals("Binning by num-bins needs a positive \"num-bins\".", failure(23, "{\"strategy\": \"num-bins\", \"num-bins\": 0}"));
        assertEquals("Binning by bin-width needs a positive \"bin-width\".",
                failure(23, "{\"strategy\": \"bin-width\", \"bin-width\": -5}"));
    }

    @Test
    void theResolvedBinningsOfTheStrategies() {
        assertEquals(new Binning.Resolved("num-bins", 0, 160, 20, 8), Binning.resolve("default", null, false, 8.9, 159.3, 8, 10));
        assertEquals(new Binning.Resolved("bin-width", -40, 70, 10, 11), Binning.resolve("default", null, true, -38.2, 61, 8, 10));
        assertEquals(new Binning.Resolved("num-bins", 100, 200, 25, 4), Binning.resolve("num-bins", 4.0, false, 105, 187, 8, 10));
        // a fractional number of bins is rounded, and never below one
        assertEquals(3, Binning.resolve("num-bins", 2.6, false, 0, 90, 8, 10).numBins());
        assertEquals(1, Binning.resolve("num-bins", 0.2, false, 0, 90, 8, 10).numBins());
        // a column of one value gets bins of width 1
        assertEquals(new Binning.Resolved("num-bins", 5, 5, 1, 3), Binning.resolve("num-bins", 3.0, false, 5, 5, 8, 10));
    }

    @Test
    void pleasingWidthsAndLiterals() {
        assertEquals(20, Binning.nicerBinWidth(8.9, 159.3, 8));
        assertEquals(0.25, Binning.nicerBinWidth(0, 1.9, 8));
        assertEquals(7500, Binning.nicerBinWidth(0, 48_000, 8));
        assertEquals("20.0", Binning.literal(20));
        assertEquals("0.25", Binning.literal(0.25));
        assertEquals("-40.0", Binning.literal(-40));
        assertEquals("1000000.0", Binning.literal(1e6));
    }

    private static void assertBinned(String sql, String displayName, Map<String, Object> info, Col col) {
        assertEquals(sql, col.sql.text());
        assertEquals(displayName, col.displayName);
        assertEquals(info, col.binningInfo);
    }

    /** The bin info of a result column, as {@link ColumnBinner} fills it. */
    private static Map<String, Object> info(String strategy, double width, int bins, double min, double max) {
        return Map.of("binning_strategy", strategy, "bin_width", width, "num_bins", bins, "min_value", min, "max_value", max);
    }

    private static Map<?, ?> binningOf(Col col) {
        return (Map<?, ?>) ((Map<?, ?>) col.fieldRef.get(2)).get("binning");
    }
}
