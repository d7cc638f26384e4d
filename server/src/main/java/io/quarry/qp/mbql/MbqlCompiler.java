package io.quarry.qp.mbql;

import io.quarry.driver.AnsiDialect;
import io.quarry.driver.SqlDialect;
import io.quarry.qp.CompiledQuery;
import io.quarry.qp.QueryFailure;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Structured queries to SQL: legacy MBQL (the inner query of {@code {"type": "query"}}) or MBQL 5 stages, normalised,
 * then compiled stage by stage for the database's dialect. The result carries the SQL, its bind values and Metabase's
 * {@code data.cols} for every column (empty when a native source makes them unknown).
 */
public final class MbqlCompiler {
    /** Metabase's defaults for automatic binning: 8 bins, or 10 degrees for coordinates. */
    public static final int DEFAULT_BINS = 8;
    public static final double DEFAULT_BIN_WIDTH = 10.0;

    /** Everything compilation depends on besides the query. */
    public record Context(SqlDialect dialect, MbqlMetadata metadata, MbqlReferences references, long databaseId,
                          LocalDateTime now, DayOfWeek firstDayOfWeek, int defaultBins, double defaultBinWidth) {
    }

    private final Context context;

    public MbqlCompiler(Context context) {
        this.context = context;
    }

    /** The compiled query; an invalid query fails with an {@code invalid-query} {@link QueryFailure}. */
    public CompiledQuery compile(Map<String, Object> mbql) {
        return compile(mbql, List.of());
    }

    /** As {@link #compile(Map)}, with the query's parameters (filters on columns) added to its last stage. */
    public CompiledQuery compile(Map<String, Object> mbql, List<Map<String, Object>> parameters) {
        return compile(mbql, parameters, null);
    }

    /**
     * As {@link #compile(Map, List)}, for the query of a persisted model ({@code persisted} not null): read from the
     * model's table when it has exactly the query's columns, as a {@code card__N} source is.
     */
    public CompiledQuery compile(Map<String, Object> mbql, List<Map<String, Object>> parameters, MbqlReferences.PersistedTable persisted) {
        try {
            Map<String, Object> inner = MbqlPasses.run(MbqlPasses.QUERY, mbql, new MbqlPass.Input(context, parameters, 0));
            StageCompiler.Stage stage = new StageCompiler(context, inner, 0).compile();
            if (persisted != null) {
                stage = StageCompiler.readingTable(stage, persisted, context.dialect());
            }
            List<io.quarry.qp.Column> columns = new ArrayList<>();
            if (stage.columns() != null) {
                for (OutColumn c : stage.columns()) {
                    columns.add(c.toColumn());
                }
            }
            return new CompiledQuery(stage.sql().text(), new ArrayList<>(stage.sql().params()), columns);
        } catch (AnsiDialect.UnsupportedFeature e) {
            // The compilers ask the dialect for a feature before emitting it; this is the dialect's own guard.
            throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, e.getMessage());
        } catch (IllegalArgumentException | ClassCastException e) {
            // A safety net for the untyped MBQL 5 and legacy conversions (LegacyNormalizer, Mbql5, MbqlParameters);
            // the passes and the stage compiler check their clauses' shapes themselves. Depth is checked by the
            // check-nesting and limit-stage-depth passes, so no StackOverflowError is caught any more.
            throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "Invalid query: " + e.getMessage());
        }
    }

    /** The query as a canonical legacy inner query (MBQL 5 stages converted first). */
    public static Map<String, Object> legacy(Map<String, Object> mbql) {
        if (mbql == null) {
            throw new QueryFailure(QueryFailure.Type.INVALID_QUERY, "A structured query needs its MBQL in \"query\": {...}.");
        }
        if (mbql.get("stages") instanceof List<?> stages) {
            return LegacyNormalizer.query(Mbql5.toLegacy(stages));
        }
        return LegacyNormalizer.query(mbql);
    }

    /**
     * Whether the query's last stage aggregates or breaks out (it then answers at most the aggregated row limit), or has
     * a limit of its own; plain rows without a limit get the smaller cap.
     */
    public static boolean aggregatedOrLimited(Map<String, Object> mbql) {
        Map<String, Object> inner;
        try {
            inner = legacy(mbql);
        } catch (QueryFailure e) {
            return false;
        }
        return nonEmpty(inner.get("aggregation")) || nonEmpty(inner.get("breakout")) || inner.get("limit") != null
                || inner.get("page") != null;
    }

    private static boolean nonEmpty(Object value) {
        return value instanceof List<?> l && !l.isEmpty();
    }
}
