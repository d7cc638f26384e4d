package io.quarry.qp.run;

import io.quarry.qp.ApiResultWriter;
import io.quarry.qp.CompiledQuery;
import io.quarry.qp.PivotQueries;
import io.quarry.qp.QueryCache;
import io.quarry.qp.QueryProcessor;
import io.quarry.qp.ResultWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The shared result cache, for a saved card with a {@code cache_ttl}: while its result is younger than that many hours
 * it answers from the cache (unless {@code ignore_cache}); otherwise the rest runs and the fresh result is recorded for
 * the next caller — {@code ignore_cache} skips reading the cache, not refreshing it. The key is the compiled SQL, its
 * bind values and row limit (every subset query for a pivot query).
 */
final class ResultCache implements QueryStep {
    private final QueryCache cache;

    ResultCache(QueryCache cache) {
        this.cache = cache;
    }

    @Override
    public QueryOutcome apply(QueryRun run, Chain next) {
        Integer ttlHours = run.request().cacheRules().ttlHours();
        if (ttlHours == null || run.request().card() == null) {
            return next.proceed(run);
        }
        String key = run.plan() != null ? pivotKey(run.plan())
                : QueryCache.key(run.prepared().database().id, run.prepared().compiled(), run.prepared().rowLimit());
        if (!run.request().cacheRules().ignoreCache()) {
            QueryCache.Hit hit = cache.find(key, Duration.ofHours(ttlHours));
            if (hit != null) {
                return replay(hit, run.envelope(Map.of("cached", hit.cachedAt().toString())));
            }
        }
        boolean jsIntToString = run.plan() != null ? run.plan().query().jsIntToString() : run.prepared().query().jsIntToString();
        return next.proceed(run.withRecorder(writer -> cache.new Recording(writer, key, jsIntToString)));
    }

    /** The cache key of a pivot query: every subset query, so it never collides with a plain query's key. */
    private static String pivotKey(PivotQueries.Plan plan) {
        StringBuilder sql = new StringBuilder("pivot");
        long rowLimit = 0;
        for (PivotQueries.Subset subset : plan.subsets()) {
            QueryProcessor.Prepared p = subset.prepared();
            sql.append('\n').append(subset.grouping()).append(':').append(QueryCache.key(p.database().id, p.compiled(), p.rowLimit()));
            rowLimit = p.rowLimit();
        }
        return QueryCache.key(plan.database().id, new CompiledQuery(sql.toString(), List.of(), List.of()), rowLimit);
    }

    /** A cached result, streamed as a fresh one (202), its envelope saying when it was computed. */
    private static QueryOutcome replay(QueryCache.Hit hit, ApiResultWriter.Envelope envelope) {
        return ExecuteWithKeepAlive.apiAnswer(out -> {
            ResultWriter writer = new ApiResultWriter(out, envelope);
            writer.begin(hit.columns());
            for (Object[] row : hit.rows()) {
                writer.row(row);
            }
            writer.end(new ResultWriter.Summary(hit.rows().size(), hit.truncated(), hit.rowLimit(), 0));
        });
    }
}
