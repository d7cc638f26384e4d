package io.quarry.qp.mbql;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Numeric binning as Metabase resolves it: the strategy ({@code default}, {@code num-bins}, {@code bin-width}) and the
 * column's range give a bin width, then the range is widened to "nice" bounds and, for a fixed number of bins, the
 * width rounded up to a pleasing number (1, 1.25, 2, 2.5, 3, 5, 7.5, 10 times a power of ten), repeated until stable.
 */
final class Binning {
    private static final double[] PLEASING = {1, 1.25, 2, 2.5, 3, 5, 7.5, 10};

    /** A resolved binning: each value falls in {@code floor((x - min) / width) * width + min}. */
    record Resolved(String strategy, double minValue, double maxValue, double binWidth, int numBins) {
    }

    private Binning() {
    }

    /**
     * @param strategy     default, num-bins or bin-width
     * @param param        the number of bins or the width (ignored for default)
     * @param coordinate   whether the column is a latitude or longitude (default strategy bins by width then)
     */
    static Resolved resolve(String strategy, Double param, boolean coordinate, double min, double max, int defaultBins,
                            double defaultWidth) {
        String resolved;
        double width;
        int bins;
        switch (strategy) {
            case "num-bins" -> {
                resolved = "num-bins";
                bins = (int) Math.max(1, Math.round(param));
                width = binWidth(min, max, bins);
            }
            case "bin-width" -> {
                resolved = "bin-width";
                width = param;
                bins = numBins(min, max, width);
            }
            default -> {
                if (coordinate) {
                    resolved = "bin-width";
                    width = defaultWidth;
                    bins = numBins(min, max, width);
                } else {
                    resolved = "num-bins";
                    bins = defaultBins;
                    width = binWidth(min, max, bins);
                }
            }
        }
        return nicer(resolved, min, max, width, bins);
    }

    private static double binWidth(double min, double max, int bins) {
        double width = BigDecimal.valueOf((max - min) / bins).setScale(5, RoundingMode.HALF_UP).doubleValue();
        return width == 0 ? 1 : width;
    }

    private static int numBins(double min, double max, double width) {
        return (int) Math.max(1, (long) Math.ceil((max - min) / width));
    }

    static double nicerBinWidth(double min, double max, int bins) {
        double minWidth = binWidth(min, max, bins);
        double scale = Math.pow(10, Math.floor(Math.log10(minWidth)));
        for (double pleasing : PLEASING) {
            double candidate = pleasing * scale;
            if (candidate >= minWidth) {
                return candidate;
            }
        }
        return minWidth;
    }

    /** Repeats the widening until it no longer changes anything (at most ten times). */
    private static Resolved nicer(String strategy, double min, double max, double width, int bins) {
        Resolved current = new Resolved(strategy, min, max, width, bins);
        for (int step = 0; step < 10; step++) {
            double w = strategy.equals("num-bins") ? nicerBinWidth(current.minValue, current.maxValue, current.numBins)
                    : current.binWidth;
            double lo = Math.floor(current.minValue / w) * w;
            double hi = Math.ceil(current.maxValue / w) * w;
            int n = strategy.equals("num-bins") ? current.numBins : numBins(lo, hi, w);
            Resolved next = new Resolved(strategy, lo, hi, w, n);
            if (next.equals(current)) {
                break;
            }
            current = next;
        }
        return current;
    }

    /** A number as SQL text: always with a decimal point, so that integer columns divide as decimals. */
    static String literal(double value) {
        String text = BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
        return text.contains(".") ? text : text + ".0";
    }

    /** The display suffix: {@code Auto binned}, {@code 10 bins}, {@code 10°}. */
    static String displayName(String requestedStrategy, Resolved resolved, Double param, boolean coordinate) {
        return switch (requestedStrategy) {
            case "num-bins" -> resolved.numBins() + (resolved.numBins() == 1 ? " bin" : " bins");
            case "bin-width" -> plain(param == null ? resolved.binWidth() : param) + (coordinate ? "°" : "");
            default -> "Auto binned";
        };
    }

    private static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
