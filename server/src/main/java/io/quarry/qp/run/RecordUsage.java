package io.quarry.qp.run;

/**
 * A saved card's usage: its view count and last use are bumped once its query is ready to run (Metabase's
 * {@code update-used-cards}). Ad-hoc queries record nothing.
 */
final class RecordUsage implements QueryStep {
    private final QueryRunner.CardUsage usage;

    RecordUsage(QueryRunner.CardUsage usage) {
        this.usage = usage;
    }

    @Override
    public QueryOutcome apply(QueryRun run, Chain next) {
        if (run.request().card() != null) {
            usage.record(run.request().card().id());
        }
        return next.proceed(run);
    }
}
