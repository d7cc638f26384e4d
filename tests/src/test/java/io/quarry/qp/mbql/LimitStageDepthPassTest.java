package io.quarry.qp.mbql;

import io.quarry.driver.h2.H2Dialect;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LimitStageDepthPassTest {
    @Test
    void aCardThatIsItsOwnSourceStopsAtTheLimit() {
        MbqlReferences loop = new MbqlCompilerTest.References(Map.of(5L, new MbqlReferences.CardQuery(1,
                Map.of("type", "query", "query", Map.of("source-table", "card__5")))), Map.of(), Map.of());
        QueryFailureAssert.invalid("The query is nested too deeply.", "limit-stage-depth",
                () -> MbqlCompilerTest.compile(new H2Dialect(), FakeMetadata.shop(), loop, "{\"source-table\": \"card__5\"}"));
    }

    @Test
    void shallowStagesPass() {
        Map<String, Object> query = Map.of("source-table", 2);
        MbqlPasses.run(List.of(new LimitStageDepthPass()), query,
                new MbqlPass.Input(PassTesting.context(MbqlReferences.NONE), null, LimitStageDepthPass.MAX_STAGE_DEPTH));
    }
}
