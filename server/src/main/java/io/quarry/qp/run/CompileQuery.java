package io.quarry.qp.run;

import io.quarry.qp.QueryProcessor;

/**
 * Compiles the query to SQL with its bind values and row limit (an ad-hoc query's card references must be readable
 * to its caller; a saved question's are not checked again). A persisted model run itself reads its table when the
 * table matches its query.
 */
final class CompileQuery implements QueryStep {
    private final QueryProcessor processor;

    CompileQuery(QueryProcessor processor) {
        this.processor = processor;
    }

    @Override
    public QueryOutcome apply(QueryRun run, Chain next) {
        QueryRequest request = run.request();
        // a saved card's own query may read its persisted table, but never while that table is being built from it;
        // a pivot's subsets are compiled from the query itself
        Long ownCardId = request.card() == null || request.context() == QueryContext.PERSISTENCE_REFRESH || request.pivot()
                ? null : request.card().id();
        QueryProcessor.Prepared prepared = processor.compile(run.resolved(), request.caller(), run.purpose(), run.savedCard(), ownCardId);
        return next.proceed(run.withPrepared(prepared));
    }
}
