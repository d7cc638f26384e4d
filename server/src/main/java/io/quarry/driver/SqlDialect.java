package io.quarry.driver;

import java.time.DayOfWeek;
import java.util.List;

/**
 * The SQL an engine speaks, for all the SQL Quarry generates: compiled structured queries (quoting, date truncation
 * and extraction, interval arithmetic, casts and the aggregate functions that differ between engines), sync's
 * profiling queries and uploads. Every driver returns its own ({@link Driver#dialect()}); {@link AnsiDialect} holds
 * what most engines share, and each engine package overrides only what it does differently.
 *
 * <p>Everything here returns {@link Sql} fragments built from the engine's own keywords and the fragments passed in;
 * amounts that must be literals in SQL ({@code INTERVAL '3 month'}) are integers Quarry validated, never text a caller
 * sent. Only identifiers are ever spliced into SQL, and only through {@link #quote}; values are bind parameters.
 *
 * <p>What an engine can compile is asked by {@link Feature} ({@link #supports}); the methods for an optional feature
 * (percentiles, standard deviation) fail with {@link AnsiDialect.UnsupportedFeature} for engines without it.
 */
public interface SqlDialect {
    /** Date parts {@link #extract} knows. Days of week are ISO (Monday = 1 … Sunday = 7), weeks ISO weeks. */
    enum Part { YEAR, QUARTER, MONTH, DAY, DAY_OF_YEAR, HOUR, MINUTE, SECOND, ISO_DAY_OF_WEEK, ISO_WEEK }

    /** The engine key ({@code "postgres"}). */
    String engine();

    /** The engine's name in messages ({@code "MySQL"}): "Median is not supported by MySQL." */
    String displayName();

    /**
     * The SQL the engine speaks, named for someone (or a language model) writing it: {@link #displayName()}, with the
     * version where the SQL of versions differs ({@code "H2 (2.x)"}).
     */
    default String sqlName() {
        return displayName();
    }

    /**
     * Whether the engine can run what a feature stands for, as the compiler emits it. The compiler asks before it
     * emits an optional feature (full joins, percentiles, standard deviation, ...).
     */
    boolean supports(Feature feature);

    /** A quoted identifier; embedded quote characters are doubled. */
    default String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** {@code "schema"."table"}, or only the table for engines or tables without a schema. */
    default String qualify(String schema, String table) {
        return schema == null || schema.isEmpty() ? quote(table) : quote(schema) + "." + quote(table);
    }

    /** The longest identifier the engine keeps; longer aliases are shortened by the compiler. */
    default int maxIdentifierLength() {
        return 60;
    }

    /** {@code expr} truncated to the start of a truncation unit; weeks start on {@code firstDayOfWeek}. */
    Sql truncate(TemporalUnit unit, Sql expr, DayOfWeek firstDayOfWeek);

    /** A date part of {@code expr}, as an integer. */
    Sql extract(Part part, Sql expr);

    /** {@code expr} plus {@code amount} units (a truncation unit, second through year). */
    Sql addInterval(Sql expr, long amount, TemporalUnit unit);

    /** The seconds from {@code from} to {@code to} (negative when {@code to} is earlier), possibly fractional. */
    Sql secondsBetween(Sql from, Sql to);

    /** The current date and time. */
    Sql now();

    Sql toFloat(Sql expr);

    Sql toInteger(Sql expr);

    Sql toText(Sql expr);

    Sql toDate(Sql expr);

    Sql toTimestamp(Sql expr);

    /** A number truncated toward zero. */
    Sql truncateNumber(Sql expr);

    /** The strings concatenated. */
    Sql concat(List<Sql> parts);

    /** {@code length} characters of {@code text} from 1-based {@code start}; all characters from there when null. */
    Sql substring(Sql text, Sql start, Sql length);

    /** The number of characters. */
    Sql length(Sql text);

    Sql log10(Sql expr);

    Sql power(Sql base, Sql exponent);

    /** Population standard deviation; fails for engines without one. */
    Sql stddev(Sql expr);

    /** Population variance; fails for engines without one. */
    Sql variance(Sql expr);

    /** The median (continuous); fails for engines without percentiles. */
    Sql median(Sql expr);

    /** The continuous percentile {@code p} (a literal between 0 and 1); fails for engines without percentiles. */
    Sql percentile(Sql expr, double p);

    /** A timestamp from seconds since the Unix epoch (possibly fractional). */
    Sql unixSecondsToTimestamp(Sql seconds);

    /** A boolean literal. */
    Sql booleanLiteral(boolean value);

    /**
     * The whole units from {@code from} to {@code to}, truncated toward zero (Metabase's {@code datetime-diff}); unit
     * is second, minute, hour, day, week, month, quarter or year.
     */
    default Sql datetimeDiff(TemporalUnit unit, Sql from, Sql to) {
        return switch (unit) {
            case SECOND -> truncateNumber(secondsBetween(from, to));
            case MINUTE -> truncateNumber(Sql.format("(%s / 60.0)", secondsBetween(from, to)));
            case HOUR -> truncateNumber(Sql.format("(%s / 3600.0)", secondsBetween(from, to)));
            case DAY -> truncateNumber(Sql.format("(%s / 86400.0)", secondsBetween(from, to)));
            case WEEK -> truncateNumber(Sql.format("(%s / 604800.0)", secondsBetween(from, to)));
            case MONTH -> monthsBetween(from, to);
            case QUARTER -> truncateNumber(Sql.format("(%s / 3.0)", monthsBetween(from, to)));
            case YEAR -> truncateNumber(Sql.format("(%s / 12.0)", monthsBetween(from, to)));
            default -> throw new IllegalArgumentException("datetime-diff does not support the unit " + unit.key);
        };
    }

    /** Whole calendar months from {@code from} to {@code to}, truncated toward zero. */
    private Sql monthsBetween(Sql from, Sql to) {
        Sql a = toTimestamp(from);
        Sql b = toTimestamp(to);
        Sql raw = Sql.format("((%s - %s) * 12 + %s - %s)", extract(Part.YEAR, b), extract(Part.YEAR, a), extract(Part.MONTH, b),
                extract(Part.MONTH, a));
        Sql restA = remainderInMonth(a);
        Sql restB = remainderInMonth(b);
        return Sql.format("(%s - CASE WHEN %s > 0 AND %s < %s THEN 1 WHEN %s < 0 AND %s > %s THEN -1 ELSE 0 END)",
                raw, raw, restB, restA, raw, restB, restA);
    }

    /** Seconds since the start of the month, for comparing two instants' positions within their months. */
    private Sql remainderInMonth(Sql t) {
        return Sql.format("(%s * 86400 + %s * 3600 + %s * 60 + %s)", extract(Part.DAY, t), extract(Part.HOUR, t),
                extract(Part.MINUTE, t), extract(Part.SECOND, t));
    }

    /** The value to bind for a Java value: engines without date types get text. */
    default Object bindValue(Object value) {
        return value;
    }

    /** {@code LIMIT n OFFSET m}; either may be absent (null limit, zero offset). */
    default String limitOffset(Long limit, long offset) {
        StringBuilder sql = new StringBuilder();
        if (limit != null) {
            sql.append("LIMIT ").append(limit);
        }
        if (offset > 0) {
            sql.append(sql.length() > 0 ? " " : "").append("OFFSET ").append(offset);
        }
        return sql.toString();
    }

    /** The clause that caps a query's rows (appended at the end). */
    default String limit(long rows) {
        return "LIMIT " + rows;
    }

    /** Whether the engine has a UUID column type, so that a UUID column is compared with a bound {@link java.util.UUID}. */
    default boolean hasUuidType() {
        return false;
    }

    /** Whether string literals escape backslashes too (MySQL and MariaDB by default), as an inlined value must. */
    default boolean backslashEscapes() {
        return false;
    }

    /**
     * Whether an INSERT answers its new row's key through {@code RETURNING} (used by implicit actions) rather than
     * through JDBC's generated keys, which some drivers do not fill from the primary key.
     */
    default boolean insertReturning() {
        return false;
    }
}
