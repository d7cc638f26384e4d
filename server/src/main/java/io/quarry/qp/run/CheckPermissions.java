package io.quarry.qp.run;

import io.quarry.qp.QueryProcessor;

/**
 * Data permissions: the caller must be signed in and may run the query on its database (ad-hoc native SQL, ad-hoc
 * structured, or a saved question) — else MISSING_PERMISSIONS (403), before anything is compiled or recorded. Public
 * and embedded queries run with their card's own rights: the resource that built them checked the link or token.
 */
final class CheckPermissions implements QueryStep {
    private final QueryProcessor processor;

    CheckPermissions(QueryProcessor processor) {
        this.processor = processor;
    }

    @Override
    public QueryOutcome apply(QueryRun run, Chain next) {
        if (run.request().trusted()) {
            // a public link or signed embed: the card runs with its own rights, as Metabase runs them as an admin
            return next.proceed(run);
        }
        processor.checkPermissions(run.request().caller(), run.resolved(), run.savedCard());
        return next.proceed(run);
    }
}
