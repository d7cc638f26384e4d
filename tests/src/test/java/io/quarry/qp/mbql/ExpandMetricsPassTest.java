package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarry.driver.h2.H2Dialect;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpandMetricsPassTest {
    private final MbqlPass pass = new ExpandMetricsPass();
    private final MbqlReferences metrics = new MbqlCompilerTest.References(Map.of(), Map.of(), Map.of(
            1L, KeyQueries.parse("{\"m\": [\"sum\", [\"field\", 23, null]]}").get("m"),
            2L, PassTesting.json("[\"metric\", 2]")));

    private static final String TOTAL = "[\"aggregation-options\", [\"sum\", [\"field\", 23, null]], {}]";

    @Test
    void aMetricBecomesItsDefinitionInAggregationPositions() {
        Map<String, Object> out = PassTesting.run(pass, metrics, "{\"source-table\": 2, \"aggregation\": [[\"metric\", 1],"
                + " [\"aggregation-options\", [\"metric\", 1], {\"name\": \"t\"}], [\"/\", [\"metric\", 1], [\"count\"]]]}");
        PassTesting.assertClause(("[" + TOTAL + ", [\"aggregation-options\", " + TOTAL + ", {\"name\": \"t\"}], [\"/\", " + TOTAL
                + ", [\"count\"]]]"), out.get("aggregation"));
    }

    @Test
    void unknownAndSelfReferringMetricsFail() {
        assertEquals("Metric 9 not found.", PassTesting.failure(pass, metrics, "{\"source-table\": 2, \"aggregation\": [[\"metric\", 9]]}"));
        assertEquals("Metric 2 refers to itself.", PassTesting.failure(pass, metrics,
                "{\"source-table\": 2, \"aggregation\": [[\"metric\", 2]]}"));
    }

    @Test
    void theCompiledAggregationIsTheMetricsOwn() {
        CompiledQueryPair pair = new CompiledQueryPair(
                MbqlCompilerTest.compile(new H2Dialect(), FakeMetadata.shop(), metrics, "{\"source-table\": 2, \"aggregation\": [[\"metric\", 1]]}"),
                MbqlCompilerTest.compile(new H2Dialect(), FakeMetadata.shop(), metrics,
                        "{\"source-table\": 2, \"aggregation\": [[\"sum\", [\"field\", 23, null]]]}"));
        assertEquals(pair.direct().sql(), pair.viaMetric().sql());
        assertEquals(pair.direct().columns(), pair.viaMetric().columns());
    }

    private record CompiledQueryPair(io.quarry.qp.CompiledQuery viaMetric, io.quarry.qp.CompiledQuery direct) {
    }
}
