package io.quarry.qp.run;

import io.quarry.qp.QueryProcessor;

/**
 * Data permissions: the caller must be signed in and may run the query on its database (ad-hoc native SQL, ad-hoc
 * structured, or a saved question) — else MISSING_PERMISSIONS (403), before anything is compiled or recorded.
 */
final class CheckPermissions implements QueryStep {
    private final QueryProcessor processor;

    CheckPermissions(QueryProcessor processor) {
        this.processor = processor;
    }

    @Override
    public QueryOutcome apply(QueryRun run, Chain next) {
        processor.checkPermissions(run.request().caller(), run.resolved(), run.savedCard());
        return next.proceed(run);
    }
}
