package io.quarry.qp;

import io.quarry.qp.mbql.MbqlCompiler;
import io.quarry.warehouse.Database;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pivot tables: a structured query with breakouts is run once per subset of its breakouts — the full breakout, every
 * subtotal, the grand total — and the results are streamed as one, with Metabase's {@code pivot-grouping} column: a
 * bitmask of the breakouts left out of that row's group (0 = the full breakout). Every subset is compiled before
 * anything runs, so a bad query fails before the response starts.
 */
public final class PivotQueries {
    /** 2^5 = 32 queries at most. */
    static final int MAX_BREAKOUTS = 5;

    private final QueryProcessor processor;

    public PivotQueries(QueryProcessor processor) {
        this.processor = processor;
    }

    /** The subset queries of a pivot query, compiled, and the columns of the combined result. */
    public record Plan(Database database, List<Subset> subsets, List<Column> columns, Query query) {
    }

    /** One breakout subset: its grouping bitmask and compiled query. */
    public record Subset(int grouping, List<Integer> kept, QueryProcessor.Prepared prepared) {
    }

    public Plan plan(QueryProcessor.Prepared full) {
        Query query = full.query();
        if (query.type() != Query.Type.MBQL) {
            throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "Pivot tables need a structured (MBQL) query.");
        }
        Map<String, Object> inner = MbqlCompiler.legacy(query.mbql());
        List<Object> breakouts = list(inner.get("breakout"));
        int n = breakouts.size();
        if (n > MAX_BREAKOUTS) {
            throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "Pivot tables support at most " + MAX_BREAKOUTS + " breakouts.");
        }
        List<Object> aggregations = list(inner.get("aggregation"));
        List<Subset> subsets = new ArrayList<>();
        for (int grouping = 0; grouping < (1 << n); grouping++) {
            List<Integer> kept = new ArrayList<>();
            List<Object> subsetBreakouts = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if ((grouping & (1 << i)) == 0) {
                    kept.add(i);
                    subsetBreakouts.add(breakouts.get(i));
                }
            }
            Map<String, Object> subsetQuery = new LinkedHashMap<>(inner);
            if (subsetBreakouts.isEmpty()) {
                subsetQuery.remove("breakout");
            } else {
                subsetQuery.put("breakout", subsetBreakouts);
            }
            subsetQuery.put("order-by", orderBy(inner.get("order-by"), subsetBreakouts));
            if (aggregations.isEmpty() && subsetBreakouts.isEmpty()) {
                continue; // nothing to total
            }
            Query subset = new Query(query.databaseId(), Query.Type.MBQL, null, Map.of(), subsetQuery, query.parameters(),
                    query.maxResults(), query.jsIntToString());
            CompiledQuery compiled = processor.compile(subset, full.database());
            subsets.add(new Subset(grouping, kept, new QueryProcessor.Prepared(subset, full.database(), compiled, full.rowLimit())));
        }
        List<Column> fullColumns = full.compiled().columns();
        List<Column> columns = new ArrayList<>(fullColumns.subList(0, n));
        columns.add(new Column("pivot-grouping", "pivot-grouping", "type/Integer", "type/Integer", null,
                List.of("expression", "pivot-grouping"), "breakout", null, null, null, Map.of()));
        columns.addAll(fullColumns.subList(n, fullColumns.size()));
        return new Plan(full.database(), subsets, columns, query);
    }

    /** Keeps the orderings that still apply: by a kept breakout, or by an aggregation. */
    private static List<Object> orderBy(Object orderBy, List<Object> keptBreakouts) {
        List<Object> kept = new ArrayList<>();
        for (Object clause : list(orderBy)) {
            if (clause instanceof List<?> c && c.size() == 2 && (keptBreakouts.contains(c.get(1))
                    || c.get(1) instanceof List<?> ref && !ref.isEmpty() && "aggregation".equals(ref.get(0)))) {
                kept.add(clause);
            }
        }
        return kept;
    }

    /** Runs the subsets one after another into one writer. */
    public void stream(Plan plan, ResultWriter writer) throws IOException {
        int breakouts = plan.columns().indexOf(plan.columns().stream().filter(c -> c.name().equals("pivot-grouping"))
                .findFirst().orElseThrow());
        writer.begin(plan.columns());
        long rows = 0;
        long began = System.nanoTime();
        for (Subset subset : plan.subsets()) {
            QueryExecutor.Cursor cursor = processor.open(subset.prepared());
            Expander expander = new Expander(writer, subset, breakouts, plan.columns().size());
            cursor.stream(expander);
            rows += expander.rows;
        }
        writer.end(new ResultWriter.Summary(rows, false, plan.subsets().isEmpty() ? 0 : plan.subsets().get(0).prepared().rowLimit(),
                (System.nanoTime() - began) / 1_000_000));
    }

    /** Widens a subset's rows to the full pivot row: left-out breakouts null, then the grouping, then aggregations. */
    private static final class Expander implements ResultWriter {
        private final ResultWriter out;
        private final Subset subset;
        private final int breakouts;
        private final Object[] row;
        long rows;

        Expander(ResultWriter out, Subset subset, int breakouts, int width) {
            this.out = out;
            this.subset = subset;
            this.breakouts = breakouts;
            this.row = new Object[width];
        }

        @Override
        public void begin(List<Column> columns) {
            // the combined result's columns were written once
        }

        @Override
        public void row(Object[] values) throws IOException {
            java.util.Arrays.fill(row, null);
            int kept = subset.kept().size();
            for (int i = 0; i < kept; i++) {
                row[subset.kept().get(i)] = values[i];
            }
            row[breakouts] = subset.grouping();
            System.arraycopy(values, kept, row, breakouts + 1, values.length - kept);
            out.row(row);
            rows++;
        }

        @Override
        public void end(Summary summary) {
            // the combined summary is written once, at the end
        }
    }

    private static List<Object> list(Object value) {
        return value instanceof List<?> l ? new ArrayList<>(l) : new ArrayList<>();
    }
}
