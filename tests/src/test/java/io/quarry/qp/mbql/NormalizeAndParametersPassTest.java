package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The query passes that are thin over older code: normalize (LegacyNormalizer, Mbql5) and apply-parameters. */
class NormalizeAndParametersPassTest {
    @Test
    void normalizeTurnsMbql5StagesIntoALegacyInnerQuery() {
        Map<String, Object> out = PassTesting.run(new NormalizePass(), MbqlReferences.NONE,
                "{\"lib/type\": \"mbql/query\", \"stages\": [{\"lib/type\": \"mbql.stage/mbql\", \"source-table\": 2, \"limit\": 5}]}");
        assertEquals(2, ((Number) out.get("source-table")).intValue());
        assertEquals(5, ((Number) out.get("limit")).intValue());
    }

    @Test
    void normalizeRefusesAMissingQuery() {
        QueryFailureAssert.invalid("A structured query needs its MBQL in \"query\": {...}.", "normalize",
                () -> MbqlPasses.run(List.of(new NormalizePass()), null, new MbqlPass.Input(PassTesting.context(MbqlReferences.NONE), null, 0)));
    }

    @Test
    void parametersBecomeFiltersAndNoParametersLeaveTheQueryAlone() {
        MbqlPass pass = new ApplyParametersPass();
        Map<String, Object> query = KeyQueries.parse("{\"source-table\": 2}");
        MbqlCompiler.Context context = PassTesting.context(MbqlReferences.NONE);
        assertSame(query, pass.apply(query, new MbqlPass.Input(context, List.of(), 0)));
        Map<String, Object> parameter = KeyQueries.parse("{\"type\": \"category\", \"target\": [\"dimension\", [\"field\", 22, null]],"
                + " \"value\": [7]}");
        Map<String, Object> out = pass.apply(query, new MbqlPass.Input(context, List.of(parameter), 0));
        PassTesting.assertClause("[\"=\", [\"field\", 22, null], 7]", out.get("filter"));
    }
}
