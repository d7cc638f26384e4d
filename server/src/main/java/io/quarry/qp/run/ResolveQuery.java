package io.quarry.qp.run;

import io.quarry.qp.QueryProcessor;

/** Normalises the query and finds its database (a missing one fails as an invalid query). */
final class ResolveQuery implements QueryStep {
    private final QueryProcessor processor;

    ResolveQuery(QueryProcessor processor) {
        this.processor = processor;
    }

    @Override
    public QueryOutcome apply(QueryRun run, Chain next) {
        return next.proceed(run.withResolved(processor.resolve(run.query())));
    }
}
