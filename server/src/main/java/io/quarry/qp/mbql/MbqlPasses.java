package io.quarry.qp.mbql;

import io.quarry.qp.QueryFailure;
import java.util.List;
import java.util.Map;

/**
 * Every pass of the MBQL compiler, in order — the one place that decides what runs before SQL generation and why in
 * that order. Query passes run once on the whole query ({@link MbqlCompiler}); stage passes run on every stage
 * (the query itself, each source query and each joined query) before {@link StageCompiler} turns it into SQL.
 *
 * <p>After the stage passes, in order (in {@link StageCompiler#compile}; not MBQL rewrites, so not listed here):
 * <ol>
 *   <li>The implicit-joins pre-pass ({@link ImplicitJoins}, ImplicitJoinsTest): after the rewrites, because cards,
 *       metrics and segments bring clauses that may reach fields through foreign keys; before any SQL, because the
 *       {@link StageScope} is immutable. It walks the clauses in the order the compilers will read them (each join's
 *       condition, then the filter, breakouts, order and aggregations, or the fields), and that order is the order of
 *       the LEFT JOINs.</li>
 *   <li>SQL generation over that scope: the column compiler ({@link ColumnCompiler}) with temporal bucketing
 *       ({@link TemporalBucketing}, TemporalBucketingTest) then binning ({@link ColumnBinner} and {@link Binning},
 *       BinningTest) of each reference, bucketing first because an extracted unit (month-of-year) is an integer that
 *       binning may then read; and the expression, filter and aggregation compilers, which read their columns
 *       through it (StageCompilersTest; the filter compiles first, then the breakouts, order and aggregations).
 *       Cumulative aggregations are no rewrite here: {@link AggregationCompiler} compiles {@code cum-sum} and
 *       {@code cum-count} as window functions over the breakouts and order of the grouped stage
 *       (CumulativeAggregationsTest), so a grouped stage compiles its breakouts before its aggregations.</li>
 * </ol>
 * The default row limit is no pass of the compiler either: the query runner's {@code CompileQuery} step
 * ({@code io.quarry.qp.run}) gets it with the compiled query from {@code QueryProcessor.rowLimit} (RowLimitTest), and
 * the executor applies it to the statement; a query's own {@code limit} and {@code page} stay in its SQL.
 *
 * <p>A pass's failure keeps its message (clients and tests read it) and records the pass: the failure carries a
 * suppressed {@link PassTrace} "Error in pass resolve-source-cards", which logs show and {@link #failedPass} reads.
 */
final class MbqlPasses {
    /** Once per query, in order. */
    static final List<MbqlPass> QUERY = List.of(
            // First: every later pass (and the normaliser) walks the query recursively, so a hostile depth must be
            // refused before any of them runs.
            new CheckNestingPass(),
            // MBQL 5 stages and legacy shorthands become canonical legacy clauses, the form every later pass reads.
            new NormalizePass(),
            // After normalize: parameters target canonical field references and become filters of the last stage.
            new ApplyParametersPass());

    /** On every stage, in order, before its SQL is generated. */
    static final List<MbqlPass> STAGE = List.of(
            // First: a card whose source is itself would otherwise resolve forever, one stage deeper each time.
            new LimitStageDepthPass(),
            // Before the expansions: a card's stored query becomes this stage's source query or join query.
            new ResolveSourceCardsPass(),
            // Before expand-segments: a metric's definition may count rows matching a segment.
            new ExpandMetricsPass(),
            // After expand-metrics: segment definitions are plain filters, nothing after this needs expanding.
            new ExpandSegmentsPass(),
            // Last: cards, metrics and segments brought in their own clauses, which may nest the stage deeper.
            new CheckNestingPass());

    private MbqlPasses() {
    }

    /** The query after every pass of {@code passes}, in order. */
    static Map<String, Object> run(List<MbqlPass> passes, Map<String, Object> query, MbqlPass.Input input) {
        Map<String, Object> current = query;
        for (MbqlPass pass : passes) {
            try {
                current = pass.apply(current, input);
            } catch (QueryFailure e) {
                if (failedPass(e) == null) {
                    e.addSuppressed(new PassTrace(pass.name()));
                }
                throw e;
            }
        }
        return current;
    }

    /** The name of the pass a failure came from, or null when it came from SQL generation. */
    static String failedPass(Throwable failure) {
        for (Throwable suppressed : failure.getSuppressed()) {
            if (suppressed instanceof PassTrace trace) {
                return trace.pass;
            }
        }
        return null;
    }

    /** Which pass failed, attached to the failure without changing its message. */
    static final class PassTrace extends RuntimeException {
        final String pass;

        PassTrace(String pass) {
            super("Error in pass " + pass, null, false, false);
            this.pass = pass;
        }
    }
}
