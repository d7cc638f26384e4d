package io.quarry.qp.run;

import io.quarry.qp.PivotQueries;
import io.quarry.qp.QueryProcessor;

/** A pivot request: compiles every breakout subset before anything runs, so that a bad pivot query fails with its status. */
final class PlanPivot implements QueryStep {
    private final QueryProcessor processor;

    PlanPivot(QueryProcessor processor) {
        this.processor = processor;
    }

    @Override
    public QueryOutcome apply(QueryRun run, Chain next) {
        if (!run.request().pivot()) {
            return next.proceed(run);
        }
        return next.proceed(run.withPlan(new PivotQueries(processor).plan(run.prepared())));
    }
}
