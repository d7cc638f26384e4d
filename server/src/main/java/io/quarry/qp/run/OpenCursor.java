package io.quarry.qp.run;

import io.quarry.qp.QueryProcessor;

/**
 * Executes a download's query on the request thread: a query the database refuses fails with its status before the
 * download starts (downloads have no keep-alive: their first bytes follow the first rows).
 */
final class OpenCursor implements QueryStep {
    private final QueryProcessor processor;

    OpenCursor(QueryProcessor processor) {
        this.processor = processor;
    }

    @Override
    public QueryOutcome apply(QueryRun run, Chain next) {
        return next.proceed(run.withCursor(processor.open(run.prepared())));
    }
}
