package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarry.driver.h2.H2Dialect;
import io.quarry.qp.QueryFailure;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MbqlPassesTest {
    private static List<String> names(List<MbqlPass> passes) {
        return passes.stream().map(MbqlPass::name).toList();
    }

    @Test
    void thePassesRunInTheirListedOrder() {
        assertEquals(List.of("check-nesting", "normalize", "apply-parameters"), names(MbqlPasses.QUERY));
        assertEquals(List.of("limit-stage-depth", "resolve-source-cards", "expand-metrics", "expand-segments", "check-nesting"),
                names(MbqlPasses.STAGE));
    }

    @Test
    void aFailureNamesItsPassAndKeepsItsMessage() {
        MbqlReferences segments = new MbqlCompilerTest.References(Map.of(), Map.of(), Map.of());
        QueryFailure failure = assertThrows(QueryFailure.class, () -> MbqlCompilerTest.compile(new H2Dialect(), FakeMetadata.shop(),
                segments, "{\"source-table\": 2, \"filter\": [\"segment\", 4]}"));
        assertEquals("Segment 4 not found.", failure.getMessage());
        assertEquals("expand-segments", MbqlPasses.failedPass(failure));
        assertEquals("Error in pass expand-segments", failure.getSuppressed()[0].getMessage());
    }

    @Test
    void aFailureOfSqlGenerationNamesNoPass() {
        QueryFailure failure = assertThrows(QueryFailure.class, () -> MbqlCompilerTest.h2("{\"source-table\": 2, \"filter\": [\"bogus\", 1]}"));
        assertEquals("Unknown filter \"bogus\".", failure.getMessage());
        assertNull(MbqlPasses.failedPass(failure));
    }
}
