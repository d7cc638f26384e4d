package io.quarry.qp.run;

import io.quarry.core.Clocks;
import io.quarry.qp.Column;
import io.quarry.qp.CompiledQuery;
import io.quarry.qp.QueryCache;
import io.quarry.qp.QueryExecutor;
import io.quarry.qp.QueryFailure;
import io.quarry.qp.QueryProcessor;
import io.quarry.qp.ResultWriter;
import io.quarry.warehouse.Database;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The one way an HTTP request runs a query: {@link #run} takes a {@link QueryRequest} through an ordered list of
 * around-steps ({@link QueryStep}, as Metabase's {@code process-query-for-card} and execute middleware) and answers a
 * {@link QueryOutcome}. A {@link QueryFailure} thrown by any step before the answer starts becomes
 * {@link QueryOutcome.Failed} with Metabase's failure body. The steps of each kind of request are listed, in order,
 * in {@code apiSteps}, {@code downloadSteps}, {@code subscriptionSteps} and {@code internalSteps}, with why each comes
 * where it does.
 *
 * <p>Besides answers to clients, the runner runs the queries Quarry reads itself: a persisted model's refresh
 * ({@link #materialize}), a saved card's result metadata ({@link #columns}) and a filter's values ({@link #rows}).
 * What only compiles never comes here: {@code POST /api/dataset/native} answers a query's SQL without running it (no
 * rights beyond the query's, no connection, nothing to record or cache), so it asks the query processor directly.
 */
public final class QueryRunner {
    /** Records that a saved card was viewed or run (its view count and last use); the cards module's. */
    public interface CardUsage {
        void record(long cardId);
    }

    private final Clock clock;
    private final QueryStep resolve;
    private final QueryStep compile;
    private final List<QueryStep> apiSteps;
    private final List<QueryStep> downloadSteps;
    private final List<QueryStep> subscriptionSteps;
    private final List<QueryStep> subscriptionDownloadSteps;
    /** Null in a runner built from given steps (tests of the runner itself): it runs no internal query. */
    private final QueryProcessor processor;

    public QueryRunner(QueryProcessor processor, QueryCache cache, CardUsage usage, Clock clock) {
        this(clock, apiSteps(Objects.requireNonNull(processor, "processor is null"), Objects.requireNonNull(cache, "cache is null"),
                Objects.requireNonNull(usage, "usage is null")), downloadSteps(processor, usage), subscriptionSteps(processor),
                subscriptionDownloadSteps(processor), new ResolveQuery(processor), new CompileQuery(processor), processor);
    }

    /** A runner with the given steps (for tests of the runner itself); subscriptions take the API's; it cannot materialize. */
    QueryRunner(Clock clock, List<QueryStep> apiSteps, List<QueryStep> downloadSteps) {
        this(clock, apiSteps, downloadSteps, apiSteps, downloadSteps);
    }

    /** A runner with the given steps (for tests of the runner itself); it cannot materialize. */
    QueryRunner(Clock clock, List<QueryStep> apiSteps, List<QueryStep> downloadSteps, List<QueryStep> subscriptionSteps,
                List<QueryStep> subscriptionDownloadSteps) {
        this(clock, apiSteps, downloadSteps, subscriptionSteps, subscriptionDownloadSteps, null, null, null);
    }

    /** {@code resolve}, {@code compile}: a refresh's steps, the API's own first ones (no caller's rights, usage or cache). */
    private QueryRunner(Clock clock, List<QueryStep> apiSteps, List<QueryStep> downloadSteps, List<QueryStep> subscriptionSteps,
                        List<QueryStep> subscriptionDownloadSteps, QueryStep resolve, QueryStep compile, QueryProcessor processor) {
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.apiSteps = List.copyOf(apiSteps);
        this.downloadSteps = List.copyOf(downloadSteps);
        this.subscriptionSteps = List.copyOf(subscriptionSteps);
        this.subscriptionDownloadSteps = List.copyOf(subscriptionDownloadSteps);
        this.resolve = resolve;
        this.compile = compile;
        this.processor = processor;
    }

    /** An API answer (ad-hoc, question, dashcard; plain or pivot). */
    private static List<QueryStep> apiSteps(QueryProcessor processor, QueryCache cache, CardUsage usage) {
        return List.of(
                // the database a query names must exist before rights on it can be checked
                new ResolveQuery(processor),
                // rights before compiling: a caller without them learns nothing from compile errors (403, not 400)
                new CheckPermissions(processor),
                new CompileQuery(processor),
                // a pivot query's subsets compile before usage is recorded, so that a bad pivot counts no view
                new PlanPivot(processor),
                // a view is counted once the query is ready to run, before the cache: a cached answer is a view too
                new RecordUsage(usage),
                // the cache key is the compiled SQL (every subset of a pivot query); a hit answers without executing
                new ResultCache(cache),
                // last: execute (keeping the connection alive) or stream the pivot subsets
                new ExecuteOrPivot(new ExecuteWithKeepAlive(processor), new StreamPivot(processor)));
    }

    /** A download (ad-hoc, card, dashcard): no result cache, no keep-alive. */
    private static List<QueryStep> downloadSteps(QueryProcessor processor, CardUsage usage) {
        return List.of(
                new ResolveQuery(processor),
                new CheckPermissions(processor),
                new CompileQuery(processor),
                // a download executes on the request thread: a query the database refuses fails with its status
                new OpenCursor(processor),
                // usage only once the download's query runs (a refused query is no download)
                new RecordUsage(usage),
                new StreamDownload());
    }

    /**
     * A card rendered for a subscription, an alert or a preview of one (Metabase's {@code :pulse} context): the API's
     * result and row limits, but no view counted (a person receiving an e-mail did not open the card) and no result
     * cache (a scheduled send reports the data as it is now).
     */
    private static List<QueryStep> subscriptionSteps(QueryProcessor processor) {
        return List.of(
                new ResolveQuery(processor),
                new CheckPermissions(processor),
                new CompileQuery(processor),
                new ExecuteWithKeepAlive(processor));
    }

    /** A subscription's CSV or XLSX attachment: a download as the creator, no view counted. */
    private static List<QueryStep> subscriptionDownloadSteps(QueryProcessor processor) {
        return List.of(
                new ResolveQuery(processor),
                new CheckPermissions(processor),
                new CompileQuery(processor),
                new OpenCursor(processor),
                new StreamDownload());
    }

    /**
     * A query Quarry reads itself ({@link QueryContext#INTERNAL}, {@link QueryContext#PARAMETER_VALUES},
     * {@link QueryContext#SHARED_PARAMETER_VALUES}), then {@code read}: rights as the request's context says, then the
     * compiled query; no view counted (nobody looked at a card), no result cache (its key is a client's answer) and no
     * keep-alive (nothing is streamed to a client while it runs).
     */
    private List<QueryStep> internalSteps(QueryStep read) {
        if (processor == null) {
            throw new UnsupportedOperationException("This runner was built from given steps: it runs no internal query.");
        }
        return List.of(
                new ResolveQuery(processor),
                // as for an API answer: no compile error reaches a caller without the rights (a public link's filter
                // values are read with the link's rights)
                new CheckPermissions(processor),
                new CompileQuery(processor),
                read);
    }

    /**
     * The columns of a query a caller is saving as a card ({@link QueryContext#INTERNAL}): as the compiler knows them,
     * or, when only the database can tell (native SQL), as it describes them running the query for one row. A failure
     * is thrown as the {@link QueryFailure} it is (MISSING_PERMISSIONS when the caller may not run the query).
     */
    public List<Column> columns(QueryRequest request) {
        requireContext(request, QueryContext.INTERNAL);
        List<Column> found = new ArrayList<>();
        proceed(internalSteps((run, next) -> {
            QueryProcessor.Prepared prepared = run.prepared();
            List<Column> columns = prepared.compiled().columns();
            if (columns.isEmpty()) {
                QueryProcessor.Prepared one = new QueryProcessor.Prepared(prepared.query(), prepared.database(), prepared.compiled(), 1);
                try (QueryExecutor.Cursor cursor = processor.open(one)) {
                    columns = cursor.columns();
                }
            }
            found.addAll(columns);
            return new QueryOutcome.Read(prepared.database().id);
        }), 0, QueryRun.start(request, Clocks.now(clock)));
        return found;
    }

    /**
     * Runs a filter's values query ({@link QueryContext#PARAMETER_VALUES} or {@link QueryContext#SHARED_PARAMETER_VALUES})
     * and writes its rows to {@code writer}. A failure is thrown as the {@link QueryFailure} it is.
     */
    public void rows(QueryRequest request, ResultWriter writer) {
        requireContext(request, QueryContext.PARAMETER_VALUES, QueryContext.SHARED_PARAMETER_VALUES);
        proceed(internalSteps((run, next) -> {
            QueryExecutor.Cursor cursor = processor.open(run.prepared());
            try {
                // the stream closes the cursor
                cursor.stream(writer);
            } catch (IOException e) {
                throw new QueryFailure(QueryFailure.Type.DRIVER, e.getMessage());
            }
            return new QueryOutcome.Read(run.prepared().database().id);
        }), 0, QueryRun.start(request, Clocks.now(clock)));
    }

    private static void requireContext(QueryRequest request, QueryContext... contexts) {
        if (!List.of(contexts).contains(request.context())) {
            throw new IllegalArgumentException("A " + request.context() + " query does not run here");
        }
    }

    /**
     * Where a persisted model's refresh puts its result: given the model's query compiled for its database (SQL and
     * bind values), it builds the model's table there. A failure is a {@link QueryFailure}.
     */
    public interface Materializer {
        void materialize(Database database, CompiledQuery compiled);
    }

    /**
     * Runs a persisted model's query for a refresh ({@link QueryContext#PERSISTENCE_REFRESH}): resolved and compiled as
     * the saved card it is (with its own rights, as Metabase's refresh runs it as an administrator; the models it
     * reads are read as any query reads them), then handed to {@code materializer} instead of to a client. Answers
     * {@link QueryOutcome.Materialized}, or {@link QueryOutcome.Failed} with the database's message.
     */
    public QueryOutcome materialize(QueryRequest request, Materializer materializer) {
        if (request.context() != QueryContext.PERSISTENCE_REFRESH || request.card() == null) {
            throw new IllegalArgumentException("Only a saved model's refresh is materialized");
        }
        QueryRun run = QueryRun.start(request, Clocks.now(clock));
        try {
            return proceed(List.of(resolve, compile, new Materialize(materializer)), 0, run);
        } catch (QueryFailure failure) {
            return new QueryOutcome.Failed(failure, run.failureQuery(), run.failureDatabaseId());
        }
    }

    /** Runs the request through its steps; a failure before the answer starts is {@link QueryOutcome.Failed}. */
    public QueryOutcome run(QueryRequest request) {
        QueryRun run = QueryRun.start(request, Clocks.now(clock));
        try {
            return proceed(steps(request), 0, run);
        } catch (QueryFailure failure) {
            return new QueryOutcome.Failed(failure, run.failureQuery(), run.failureDatabaseId());
        }
    }

    /** The steps of a request, by its context. */
    List<QueryStep> steps(QueryRequest request) {
        return switch (request.context()) {
            case AD_HOC, TABLE_GRID, QUESTION, DASHBOARD_CARD -> apiSteps;
            case EXPORT -> downloadSteps;
            // a public link or signed embed runs as the private API does (its row limits), or as a download
            case PUBLIC, EMBED -> request.download() != null ? downloadSteps : apiSteps;
            // a subscription's attachment is a download, as its creator, with no view counted
            case SUBSCRIPTION -> request.download() != null ? subscriptionDownloadSteps : subscriptionSteps;
            // a refresh has no answer to stream: it goes through materialize
            case PERSISTENCE_REFRESH ->
                    throw new UnsupportedOperationException("A persisted model's refresh runs through materialize, not run.");
            // what Quarry reads itself goes to it, not to a client
            case INTERNAL, PARAMETER_VALUES, SHARED_PARAMETER_VALUES ->
                    throw new UnsupportedOperationException("A " + request.context() + " query runs through columns or rows, not run.");
        };
    }

    private static QueryOutcome proceed(List<QueryStep> steps, int index, QueryRun run) {
        if (index == steps.size()) {
            throw new IllegalStateException("No step answered the query");
        }
        return steps.get(index).apply(run, next -> proceed(steps, index + 1, next));
    }

    /** The last step of a refresh: the compiled query goes to the materializer, which builds the table. */
    private record Materialize(Materializer materializer) implements QueryStep {
        @Override
        public QueryOutcome apply(QueryRun run, Chain next) {
            materializer.materialize(run.prepared().database(), run.prepared().compiled());
            return new QueryOutcome.Materialized(run.prepared().database().id);
        }
    }

    /** The last step of an API answer: a pivot query streams its subsets, any other executes with keep-alive. */
    private record ExecuteOrPivot(QueryStep execute, QueryStep pivot) implements QueryStep {
        @Override
        public QueryOutcome apply(QueryRun run, Chain next) {
            return (run.plan() != null ? pivot : execute).apply(run, next);
        }
    }
}
