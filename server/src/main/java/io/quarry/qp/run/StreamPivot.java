package io.quarry.qp.run;

import io.quarry.qp.ApiResultWriter;
import io.quarry.qp.PivotQueries;
import io.quarry.qp.QueryProcessor;
import java.util.Map;

/** Runs a planned pivot query's subsets one after another as one API result (202), the last step of a pivot answer. */
final class StreamPivot implements QueryStep {
    private final QueryProcessor processor;

    StreamPivot(QueryProcessor processor) {
        this.processor = processor;
    }

    @Override
    public QueryOutcome apply(QueryRun run, Chain next) {
        ApiResultWriter.Envelope envelope = run.envelope(Map.of());
        return ExecuteWithKeepAlive.apiAnswer(out ->
                new PivotQueries(processor).stream(run.plan(), run.recording(new ApiResultWriter(out, envelope))));
    }
}
