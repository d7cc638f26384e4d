package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.driver.AnsiDialect;
import io.quarry.driver.Feature;
import io.quarry.driver.SqlDialect;
import io.quarry.qp.QueryFailure;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The compiler asks the dialect for a {@link Feature} before it emits it: an engine built without the feature refuses
 * the clause as an invalid query, naming the engine; with the feature the same clause compiles.
 */
class CompilerFeaturesTest {
    private static final String MEDIAN = "{\"source-table\": 2, \"aggregation\": [[\"median\", [\"field\", 23, null]]]}";
    private static final String PERCENTILE = "{\"source-table\": 2, \"aggregation\": [[\"percentile\", [\"field\", 23, null], 0.9]]}";
    private static final String STDDEV = "{\"source-table\": 2, \"aggregation\": [[\"stddev\", [\"field\", 23, null]]]}";
    private static final String VARIANCE = "{\"source-table\": 2, \"aggregation\": [[\"var\", [\"field\", 23, null]]]}";
    private static final String DATETIME_DIFF = "{\"source-table\": 2, \"expressions\": {\"d\": [\"datetime-diff\","
            + " [\"field\", 25, null], \"2026-01-01\", \"day\"]}, \"fields\": [[\"expression\", \"d\"]]}";

    private static String join(String strategy) {
        return "{\"source-table\": 2, \"joins\": [{\"source-table\": 1, \"alias\": \"P\", \"strategy\": \"" + strategy + "\","
                + " \"condition\": [\"=\", [\"field\", 21, null], [\"field\", 10, {\"join-alias\": \"P\"}]]}]}";
    }

    /** A standard-SQL engine named "Test" with every feature but {@code missing}. */
    private static SqlDialect without(Feature missing) {
        Set<Feature> features = EnumSet.allOf(Feature.class);
        features.remove(missing);
        return new AnsiDialect("test", "Test", features);
    }

    private static String refusal(Feature missing, String json) {
        QueryFailure failure = assertThrows(QueryFailure.class, () -> MbqlCompilerTest.compile(without(missing), json));
        assertEquals(QueryFailure.Type.INVALID_QUERY, failure.type());
        return failure.getMessage();
    }

    @Test
    void anEngineWithoutAFeatureRefusesItsClauses() {
        assertEquals("Median is not supported by Test.", refusal(Feature.PERCENTILE_AGGREGATIONS, MEDIAN));
        assertEquals("Percentile is not supported by Test.", refusal(Feature.PERCENTILE_AGGREGATIONS, PERCENTILE));
        assertEquals("Standard deviation is not supported by Test.", refusal(Feature.STANDARD_DEVIATION_AGGREGATIONS, STDDEV));
        assertEquals("Variance is not supported by Test.", refusal(Feature.STANDARD_DEVIATION_AGGREGATIONS, VARIANCE));
        assertEquals("datetime-diff is not supported by Test.", refusal(Feature.DATETIME_DIFF, DATETIME_DIFF));
        assertEquals("FULL JOIN is not supported by this database.", refusal(Feature.FULL_JOIN, join("full-join")));
        assertEquals("RIGHT JOIN is not supported by this database.", refusal(Feature.RIGHT_JOIN, join("right-join")));
    }

    @Test
    void anEngineWithTheFeatureCompilesThem() {
        SqlDialect all = new AnsiDialect("test", "Test", EnumSet.allOf(Feature.class));
        assertTrue(MbqlCompilerTest.compile(all, MEDIAN).sql().contains("PERCENTILE_CONT(0.5)"));
        assertTrue(MbqlCompilerTest.compile(all, PERCENTILE).sql().contains("PERCENTILE_CONT(0.9)"));
        assertTrue(MbqlCompilerTest.compile(all, STDDEV).sql().contains("STDDEV_POP("));
        assertTrue(MbqlCompilerTest.compile(all, VARIANCE).sql().contains("VAR_POP("));
        assertTrue(MbqlCompilerTest.compile(all, DATETIME_DIFF).sql().contains("EXTRACT(EPOCH FROM"));
        assertTrue(MbqlCompilerTest.compile(all, join("full-join")).sql().contains(" FULL JOIN "));
        assertTrue(MbqlCompilerTest.compile(all, join("right-join")).sql().contains(" RIGHT JOIN "));
    }

    @Test
    void theDialectGuardsItsOwnOptionalFunctions() {
        AnsiDialect dialect = (AnsiDialect) without(Feature.PERCENTILE_AGGREGATIONS);
        AnsiDialect.UnsupportedFeature refused = assertThrows(AnsiDialect.UnsupportedFeature.class,
                () -> dialect.median(io.quarry.driver.Sql.raw("x")));
        assertEquals("Median is not supported by Test.", refused.getMessage());
    }
}
