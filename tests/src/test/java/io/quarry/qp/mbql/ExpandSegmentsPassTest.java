package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarry.driver.h2.H2Dialect;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpandSegmentsPassTest {
    private final MbqlPass pass = new ExpandSegmentsPass();
    private final MbqlReferences segments = new MbqlCompilerTest.References(Map.of(), Map.of(
            1L, KeyQueries.parse("{\"f\": [\">\", [\"field\", 23, null], 10]}").get("f"),
            2L, PassTesting.json("[\"and\", [\"segment\", 1], [\"segment\", 1]]"),
            3L, PassTesting.json("[\"not\", [\"segment\", 3]]")), Map.of());

    @Test
    void aSegmentBecomesItsFilterEverywhereAConditionStands() {
        Map<String, Object> out = PassTesting.run(pass, segments, "{\"source-table\": 2, \"filter\": [\"segment\", 1],"
                + " \"expressions\": {\"big\": [\"case\", [[[\"segment\", 1], 1]], {\"default\": 0}]},"
                + " \"aggregation\": [[\"count-where\", [\"segment\", 1]]], \"order-by\": [[\"asc\", [\"segment\", 1]]],"
                + " \"joins\": [{\"source-table\": 1, \"condition\": [\"segment\", 1]}]}");
        String one = "[\"and\", [\">\", [\"field\", 23, null], 10]]";
        PassTesting.assertClause(one, out.get("filter"));
        PassTesting.assertClause(("[\"case\", [[" + one + ", 1]], {\"default\": 0}]"), ((Map<?, ?>) out.get("expressions")).get("big"));
        PassTesting.assertClause(("[[\"count-where\", " + one + "]]"), out.get("aggregation"));
        PassTesting.assertClause(("[[\"asc\", " + one + "]]"), out.get("order-by"));
        PassTesting.assertClause(one, ((Map<?, ?>) ((List<?>) out.get("joins")).get(0)).get("condition"));
    }

    @Test
    void segmentsInsideSegmentsExpandButNotInBreakoutsNorAsAnAggregation() {
        Map<String, Object> out = PassTesting.run(pass, segments, "{\"source-table\": 2, \"filter\": [\"segment\", 2],"
                + " \"breakout\": [[\"segment\", 1]], \"aggregation\": [[\"segment\", 1]]}");
        String one = "[\"and\", [\">\", [\"field\", 23, null], 10]]";
        PassTesting.assertClause(("[\"and\", [\"and\", " + one + ", " + one + "]]"), out.get("filter"));
        PassTesting.assertClause(("[[\"segment\", 1]]"), out.get("breakout"));
        PassTesting.assertClause(("[[\"segment\", 1]]"), out.get("aggregation"));
    }

    @Test
    void unknownSelfReferringAndMalformedSegmentsFail() {
        assertEquals("Segment 7 not found.", PassTesting.failure(pass, segments, "{\"source-table\": 2, \"filter\": [\"segment\", 7]}"));
        assertEquals("Segment 3 refers to itself.", PassTesting.failure(pass, segments, "{\"source-table\": 2, \"filter\": [\"segment\", 3]}"));
        assertEquals("A segment is referred to by its id.", PassTesting.failure(pass, segments,
                "{\"source-table\": 2, \"filter\": [\"segment\", \"x\"]}"));
        assertEquals("\"segment\" needs 1 argument.", PassTesting.failure(pass, segments, "{\"source-table\": 2, \"filter\": [\"segment\"]}"));
    }

    @Test
    void theCompiledFilterIsTheSegmentsFilter() {
        MbqlReferences refs = segments;
        String viaSegment = MbqlCompilerTest.compile(new H2Dialect(), FakeMetadata.shop(), refs,
                "{\"source-table\": 2, \"filter\": [\"not\", [\"segment\", 1]]}").sql();
        String direct = MbqlCompilerTest.compile(new H2Dialect(), FakeMetadata.shop(), refs,
                "{\"source-table\": 2, \"filter\": [\"not\", [\">\", [\"field\", 23, null], 10]]}").sql();
        assertEquals(direct, viaSegment);
    }
}
