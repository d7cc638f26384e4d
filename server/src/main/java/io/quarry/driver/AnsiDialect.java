package io.quarry.driver;

import java.time.DayOfWeek;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What most engines share: double-quoted identifiers, {@code DATE_TRUNC}, {@code EXTRACT}, {@code INTERVAL '3 month'}
 * arithmetic, standard casts and aggregates. Engines override only what they do differently; what an engine lacks is
 * a {@link Feature} missing from the set it is built with, and the methods of that feature fail with
 * {@link UnsupportedFeature}. {@link JdbcDriver} uses it as it is for an engine without a dialect of its own.
 */
public class AnsiDialect implements SqlDialect {
    private final String engine;
    private final String displayName;
    private final Set<Feature> features;

    /** A dialect for {@code engine} ({@code "mysql"}, named {@code "MySQL"} in messages) that can compile {@code features}. */
    public AnsiDialect(String engine, String displayName, Set<Feature> features) {
        this.engine = engine;
        this.displayName = displayName;
        Set<Feature> copy = EnumSet.noneOf(Feature.class);
        copy.addAll(features);
        this.features = Collections.unmodifiableSet(copy);
    }

    @Override
    public final String engine() {
        return engine;
    }

    @Override
    public final String displayName() {
        return displayName;
    }

    @Override
    public boolean supports(Feature feature) {
        return features.contains(feature);
    }

    /** Fails with "{@code what} is not supported by {@code <engine>}." when the engine lacks {@code feature}. */
    protected final void require(Feature feature, String what) {
        if (!supports(feature)) {
            throw unsupported(what, displayName);
        }
    }

    @Override
    public String quote(String identifier) {
        if (identifier.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("An identifier may not contain NUL characters");
        }
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** {@code DATE_TRUNC('unit', expr)}; the engine's own weeks start on Monday. */
    protected Sql dateTrunc(String unit, Sql expr) {
        return Sql.format("DATE_TRUNC('" + unit + "', %s)", expr);
    }

    @Override
    public Sql truncate(TemporalUnit unit, Sql expr, DayOfWeek firstDayOfWeek) {
        return switch (unit) {
            case MILLISECOND -> dateTrunc("millisecond", expr);
            case SECOND -> dateTrunc("second", expr);
            case MINUTE -> dateTrunc("minute", expr);
            case HOUR -> dateTrunc("hour", expr);
            case DAY -> dateTrunc("day", expr);
            case WEEK -> weekFromMonday(expr, firstDayOfWeek);
            case MONTH -> dateTrunc("month", expr);
            case QUARTER -> dateTrunc("quarter", expr);
            case YEAR -> dateTrunc("year", expr);
            default -> throw new IllegalArgumentException("Not a truncation unit: " + unit.key);
        };
    }

    /**
     * Weeks from an engine whose weeks start on Monday: shift forward by the days from the first day of the week to
     * Monday, truncate, shift back.
     */
    protected Sql weekFromMonday(Sql expr, DayOfWeek firstDayOfWeek) {
        int offset = (8 - firstDayOfWeek.getValue()) % 7;
        if (offset == 0) {
            return dateTrunc("week", expr);
        }
        return addInterval(dateTrunc("week", addInterval(expr, offset, TemporalUnit.DAY)), -offset, TemporalUnit.DAY);
    }

    @Override
    public Sql extract(Part part, Sql expr) {
        String field = switch (part) {
            case YEAR -> "YEAR";
            case QUARTER -> "QUARTER";
            case MONTH -> "MONTH";
            case DAY -> "DAY";
            case DAY_OF_YEAR -> "DOY";
            case HOUR -> "HOUR";
            case MINUTE -> "MINUTE";
            case SECOND -> "SECOND";
            case ISO_DAY_OF_WEEK -> "ISODOW";
            case ISO_WEEK -> "WEEK";
        };
        return Sql.format("EXTRACT(" + field + " FROM %s)", expr);
    }

    @Override
    public Sql addInterval(Sql expr, long amount, TemporalUnit unit) {
        String interval = intervalLiteral(amount, unit);
        return Sql.format("(%s + INTERVAL '" + interval + "')", expr);
    }

    @Override
    public Sql secondsBetween(Sql from, Sql to) {
        return Sql.format("EXTRACT(EPOCH FROM (CAST(%s AS TIMESTAMP) - CAST(%s AS TIMESTAMP)))", to, from);
    }

    @Override
    public Sql now() {
        return Sql.raw("NOW()");
    }

    @Override
    public Sql unixSecondsToTimestamp(Sql seconds) {
        return Sql.format("TO_TIMESTAMP(%s)", seconds);
    }

    protected String floatType() {
        return "DOUBLE PRECISION";
    }

    @Override
    public Sql toFloat(Sql expr) {
        return Sql.format("CAST(%s AS " + floatType() + ")", expr);
    }

    @Override
    public Sql toInteger(Sql expr) {
        return Sql.format("CAST(%s AS BIGINT)", expr);
    }

    @Override
    public Sql toText(Sql expr) {
        return Sql.format("CAST(%s AS VARCHAR)", expr);
    }

    @Override
    public Sql toDate(Sql expr) {
        return Sql.format("CAST(%s AS DATE)", expr);
    }

    @Override
    public Sql toTimestamp(Sql expr) {
        return Sql.format("CAST(%s AS TIMESTAMP)", expr);
    }

    @Override
    public Sql truncateNumber(Sql expr) {
        return Sql.format("TRUNC(%s)", expr);
    }

    @Override
    public Sql concat(List<Sql> parts) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        return Sql.format("CONCAT(%s)", Sql.join(", ", parts));
    }

    @Override
    public Sql substring(Sql text, Sql start, Sql length) {
        return length == null ? Sql.format("SUBSTRING(%s, %s)", text, start)
                : Sql.format("SUBSTRING(%s, %s, %s)", text, start, length);
    }

    @Override
    public Sql length(Sql text) {
        return Sql.format("CHAR_LENGTH(%s)", text);
    }

    @Override
    public Sql log10(Sql expr) {
        return Sql.format("LOG10(%s)", expr);
    }

    @Override
    public Sql power(Sql base, Sql exponent) {
        return Sql.format("POWER(%s, %s)", base, exponent);
    }

    @Override
    public Sql stddev(Sql expr) {
        require(Feature.STANDARD_DEVIATION_AGGREGATIONS, "Standard deviation");
        return Sql.format("STDDEV_POP(%s)", expr);
    }

    @Override
    public Sql variance(Sql expr) {
        require(Feature.STANDARD_DEVIATION_AGGREGATIONS, "Variance");
        return Sql.format("VAR_POP(%s)", expr);
    }

    @Override
    public Sql median(Sql expr) {
        require(Feature.PERCENTILE_AGGREGATIONS, "Median");
        return percentile(expr, 0.5);
    }

    @Override
    public Sql percentile(Sql expr, double p) {
        require(Feature.PERCENTILE_AGGREGATIONS, "Percentile");
        return Sql.format("PERCENTILE_CONT(" + p + ") WITHIN GROUP (ORDER BY %s)", expr);
    }

    @Override
    public Sql booleanLiteral(boolean value) {
        return Sql.raw(value ? "TRUE" : "FALSE");
    }

    /** An unsupported feature, as the invalid-query failure the caller sees. */
    protected static UnsupportedFeature unsupported(String what, String engine) {
        return new UnsupportedFeature(what + " is not supported by " + engine + ".");
    }

    /** Thrown for a clause the engine cannot run; the compiler reports it as an invalid query. */
    public static final class UnsupportedFeature extends RuntimeException {
        public UnsupportedFeature(String message) {
            super(message);
        }
    }

    /** {@code amount} of {@code unit} as the text of a SQL {@code INTERVAL '...'} literal ({@code "3 month"}). */
    protected static String intervalLiteral(long amount, TemporalUnit unit) {
        return switch (unit) {
            case MILLISECOND -> amount + " millisecond";
            case SECOND -> amount + " second";
            case MINUTE -> amount + " minute";
            case HOUR -> amount + " hour";
            case DAY -> amount + " day";
            case WEEK -> amount * 7 + " day";
            case MONTH -> amount + " month";
            case QUARTER -> amount * 3 + " month";
            case YEAR -> amount + " year";
            default -> throw new IllegalArgumentException("Not an interval unit: " + unit.key);
        };
    }
}
