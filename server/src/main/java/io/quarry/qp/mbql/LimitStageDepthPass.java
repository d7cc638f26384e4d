package io.quarry.qp.mbql;

import java.util.Map;

/** Refuses a stage nested more than {@value #MAX_STAGE_DEPTH} source queries or joins deep (a card that is its own source). */
final class LimitStageDepthPass implements MbqlPass {
    static final int MAX_STAGE_DEPTH = 24;

    @Override
    public String name() {
        return "limit-stage-depth";
    }

    @Override
    public Map<String, Object> apply(Map<String, Object> query, Input input) {
        if (input.stageDepth() > MAX_STAGE_DEPTH) {
            throw Clauses.invalid("The query is nested too deeply.");
        }
        return query;
    }
}
