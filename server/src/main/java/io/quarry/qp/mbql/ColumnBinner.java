package io.quarry.qp.mbql;

import static io.quarry.qp.mbql.Clauses.invalid;
import static io.quarry.qp.mbql.Clauses.withRefOption;

import io.quarry.driver.Sql;
import io.quarry.driver.SqlDialect;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Binning of a numeric column: {@code floor((x - min) / width) * width + min}, with Metabase's bin info.
 */
final class ColumnBinner {
    private final MbqlCompiler.Context ctx;
    private final SqlDialect d;

    ColumnBinner(StageScope scope) {
        this.ctx = scope.ctx;
        this.d = scope.d;
    }

    /** Applies a reference's binning: {@code floor((x - min) / width) * width + min}. */
    Col bin(Col col, Map<String, Object> opts) {
        if (!(opts.get("binning") instanceof Map<?, ?> binning)) {
            return col;
        }
        if (!MbqlTypes.isNumber(col.effectiveType)) {
            throw invalid("The column " + col.name + " is not a number: it can't be binned.");
        }
        String strategy = String.valueOf(binning.get("strategy") == null ? "default" : binning.get("strategy"));
        Double param = null;
        switch (strategy) {
            case "num-bins" -> param = positive(binning.get("num-bins"), "num-bins");
            case "bin-width" -> param = positive(binning.get("bin-width"), "bin-width");
            case "default" -> { }
            default -> throw invalid("Unknown binning strategy \"" + strategy + "\": use default, num-bins or bin-width.");
        }
        double[] range = null;
        if (binning.get("min-value") instanceof Number min && binning.get("max-value") instanceof Number max) {
            range = new double[]{min.doubleValue(), max.doubleValue()};
        } else if (col.field != null) {
            range = ctx.metadata().numberRange(col.field);
        }
        if (range == null) {
            throw invalid("The column " + col.name + " can't be binned: its smallest and largest values are unknown.");
        }
        boolean coordinate = MbqlTypes.isCoordinate(col.semanticType);
        Binning.Resolved r = Binning.resolve(strategy, param, coordinate, range[0], range[1], ctx.defaultBins(), ctx.defaultBinWidth());
        Sql shifted = r.minValue() == 0 ? col.sql : Sql.format("(%s - " + Binning.literal(r.minValue()) + ")", col.sql);
        Sql binned = Sql.format("(FLOOR(%s / " + Binning.literal(r.binWidth()) + ") * " + Binning.literal(r.binWidth()) + ")", shifted);
        col.sql = d.toFloat(r.minValue() == 0 ? binned : Sql.format("(%s + " + Binning.literal(r.minValue()) + ")", binned));
        col.displayName = col.displayName + ": " + Binning.displayName(strategy, r, param, coordinate);
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("binning_strategy", r.strategy());
        info.put("bin_width", r.binWidth());
        info.put("num_bins", r.numBins());
        info.put("min_value", r.minValue());
        info.put("max_value", r.maxValue());
        col.binningInfo = info;
        Map<String, Object> refBinning = new LinkedHashMap<>();
        refBinning.put("strategy", strategy);
        if (param != null) {
            refBinning.put(strategy, strategy.equals("num-bins") ? (Object) param.intValue() : param);
        }
        refBinning.put("min-value", r.minValue());
        refBinning.put("max-value", r.maxValue());
        refBinning.put("bin-width", r.binWidth());
        refBinning.put("num-bins", r.numBins());
        col.fieldRef = withRefOption(col.fieldRef, "binning", refBinning);
        return col;
    }

    private static double positive(Object value, String what) {
        if (value instanceof Number n && n.doubleValue() > 0 && Double.isFinite(n.doubleValue())) {
            return n.doubleValue();
        }
        throw invalid("Binning by " + what + " needs a positive \"" + what + "\".");
    }
}
