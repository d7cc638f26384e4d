package io.quarry.qp.run;

import io.quarry.qp.QueryProcessor;

/**
 * Compiles the query to SQL with its bind values and row limit (an ad-hoc query's card references must be readable
 * to its caller; a saved question's are not checked again).
 */
final class CompileQuery implements QueryStep {
    private final QueryProcessor processor;

    CompileQuery(QueryProcessor processor) {
        this.processor = processor;
    }

    @Override
    public QueryOutcome apply(QueryRun run, Chain next) {
        QueryProcessor.Prepared prepared = processor.compile(run.resolved(), run.request().caller(), run.purpose(), run.savedCard());
        return next.proceed(run.withPrepared(prepared));
    }
}
