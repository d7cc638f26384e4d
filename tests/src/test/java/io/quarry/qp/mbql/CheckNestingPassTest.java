package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckNestingPassTest {
    private final CheckNestingPass pass = new CheckNestingPass();

    @Test
    void countsListsAndObjectsInsideOneAnother() {
        assertEquals(0, CheckNestingPass.depth("x"));
        assertEquals(1, CheckNestingPass.depth(List.of(1, 2)));
        assertEquals(3, CheckNestingPass.depth(PassTesting.json("{\"filter\": [\"=\", [\"field\", 1, null], 2]}")));
    }

    @Test
    void aRealQueryPassesUnchanged() {
        Map<String, Object> query = KeyQueries.parse("{\"source-table\": 2, \"filter\": [\"and\", [\">\", [\"field\", 23, null], 1]]}");
        assertSame(query, MbqlPasses.run(List.of(pass), query, new MbqlPass.Input(PassTesting.context(MbqlReferences.NONE), null, 0)));
    }

    @Test
    void aHostileDepthFailsWithoutRecursing() {
        Object clause = 1;
        for (int i = 0; i < 100_000; i++) {
            List<Object> plus = new ArrayList<>();
            plus.add("+");
            plus.add(clause);
            plus.add(1);
            clause = plus;
        }
        Map<String, Object> query = Map.of("source-table", 2, "expressions", Map.of("deep", clause));
        QueryFailureAssert.invalid("The query is nested too deeply.", "check-nesting",
                () -> MbqlPasses.run(List.of(pass), query, new MbqlPass.Input(PassTesting.context(MbqlReferences.NONE), null, 0)));
    }

    @Test
    void theCompilerRefusesItToo() {
        StringBuilder json = new StringBuilder("{\"source-table\": 2, \"filter\": ");
        int depth = CheckNestingPass.MAX_NESTING + 5;
        json.append("[\"not\", ".repeat(depth)).append("[\"=\", [\"field\", 23, null], 1]").append("]".repeat(depth)).append("}");
        assertEquals("The query is nested too deeply.", MbqlCompilerTest.invalid(json.toString()));
    }
}
