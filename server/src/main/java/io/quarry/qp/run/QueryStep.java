package io.quarry.qp.run;

/**
 * One around-step of the query runner, as Metabase's execute middleware: it sees the run so far, may answer itself
 * (a cached result), fail it (throw a {@link io.quarry.qp.QueryFailure}), add to it and pass it on, or act once the
 * rest has answered. The steps and their order are assembled in one place, {@link QueryRunner}.
 */
public interface QueryStep {
    QueryOutcome apply(QueryRun run, Chain next);

    /** The steps after this one. */
    interface Chain {
        QueryOutcome proceed(QueryRun run);
    }
}
