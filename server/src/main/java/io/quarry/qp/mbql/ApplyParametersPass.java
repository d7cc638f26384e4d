package io.quarry.qp.mbql;

import java.util.Map;

/** The query's parameters (filters on columns) added to the filter of its last stage ({@link MbqlParameters}). */
final class ApplyParametersPass implements MbqlPass {
    @Override
    public String name() {
        return "apply-parameters";
    }

    @Override
    public Map<String, Object> apply(Map<String, Object> query, Input input) {
        for (Object parameter : input.parameters()) {
            if (!(parameter instanceof Map<?, ?>)) {
                throw Clauses.invalid("Every parameter must be an object.");
            }
        }
        return MbqlParameters.apply(query, input.parameters(), input.context().now(), input.context().firstDayOfWeek());
    }
}
