package io.quarry.qp.mbql;

import io.quarry.driver.Feature;
import io.quarry.driver.SqlDialect;
import io.quarry.driver.TemporalUnit;
import io.quarry.qp.QueryFailure;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Small checks and helpers shared by the passes and the SQL compilers of legacy MBQL clauses. */
final class Clauses {
    private Clauses() {
    }

    static QueryFailure invalid(String message) {
        return new QueryFailure(QueryFailure.Type.INVALID_QUERY, message);
    }

    /**
     * Asks the engine for a feature before its SQL is emitted: "{@code what} is not supported by {@code <engine>}." as
     * an invalid query when the engine lacks it.
     */
    static void requireFeature(SqlDialect dialect, Feature feature, String what) {
        if (!dialect.supports(feature)) {
            throw invalid(what + " is not supported by " + dialect.displayName() + ".");
        }
    }

    /** A value as a failure message quotes it, shortened to 80 characters. */
    static String describe(Object value) {
        String text = value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
        return text.length() > 80 ? text.substring(0, 80) + "…" : text;
    }

    static void need(List<?> args, int count, String op) {
        if (args.size() < count) {
            throw invalid("\"" + op + "\" needs " + count + " argument" + (count == 1 ? "" : "s") + ".");
        }
    }

    /** The clause's operator when it is a non-empty list headed by a string, else null. */
    static String operator(Object clause) {
        return clause instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof String op ? op : null;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }

    static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

    static TemporalUnit intervalUnit(Object key) {
        TemporalUnit unit = TemporalUnit.of(key);
        if (unit == null || !unit.truncates()) {
            throw invalid("Unknown interval unit " + describe(key) + ": use second, minute, hour, day, week, month, quarter or year.");
        }
        return unit;
    }

    static long wholeNumber(Object value, String what) {
        if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && Math.abs(n.doubleValue()) < 1e12) {
            return n.longValue();
        }
        throw invalid("The " + what + " must be a whole number.");
    }

    static Object number(Number n) {
        if (n instanceof Double dbl && dbl == Math.rint(dbl) && Math.abs(dbl) < 1e15) {
            return dbl.longValue();
        }
        if (n instanceof Integer || n instanceof Short || n instanceof Byte) {
            return n.longValue();
        }
        if (n instanceof BigInteger b) {
            return b.bitLength() < 63 ? (Object) b.longValue() : new BigDecimal(b);
        }
        if (n instanceof Float f) {
            return f.doubleValue();
        }
        return n;
    }

    static boolean integral(Number n) {
        return number(n) instanceof Long || n instanceof BigInteger;
    }

    static Object parseNumber(String s) {
        try {
            BigDecimal b = new BigDecimal(s.trim());
            if (b.scale() <= 0 && b.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) < 0) {
                return b.longValueExact();
            }
            return b.doubleValue();
        } catch (NumberFormatException | ArithmeticException e) {
            throw invalid("\"" + s + "\" is not a number.");
        }
    }

    /** A date or date-time literal ({@code 2024-01-31}, {@code 2024-01-31T10:00:00}, with an offset or Z). */
    static Object temporalLiteral(Object v) {
        if (v instanceof String s) {
            Object t = parseTemporal(s);
            if (t != null) {
                return t;
            }
        }
        throw invalid(describe(v) + " is not a date.");
    }

    static Object parseTemporal(String s) {
        String text = s.trim();
        try {
            if (DATE.matcher(text).matches()) {
                return LocalDate.parse(text);
            }
            String iso = text.length() > 10 && text.charAt(10) == ' ' ? text.substring(0, 10) + "T" + text.substring(11) : text;
            if (iso.endsWith("Z") || iso.matches(".*[+-]\\d{2}:?\\d{2}$")) {
                return OffsetDateTime.parse(iso).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
            }
            return LocalDateTime.parse(iso);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    static LocalDateTime asDateTime(Object t) {
        if (t instanceof LocalDate date) {
            return date.atStartOfDay();
        }
        return (LocalDateTime) t;
    }

    static List<?> list(Object value, String what) {
        if (value == null) {
            return List.of();
        }
        if (value instanceof List<?> l) {
            return l;
        }
        throw invalid("\"" + what + "\" must be a list.");
    }

    static List<Object> ref(Object... parts) {
        List<Object> out = new ArrayList<>(parts.length);
        for (Object p : parts) {
            out.add(p instanceof Map<?, ?> m ? new LinkedHashMap<>(m) : p);
        }
        return out;
    }

    static List<Object> withRefOption(List<Object> fieldRef, String key, Object value) {
        List<Object> out = new ArrayList<>(fieldRef);
        if (out.get(0).equals("expression")) {
            if (out.size() < 3) {
                out.add(new LinkedHashMap<>());
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> opts = out.get(2) instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
        opts.put(key, value);
        out.set(2, opts);
        return out;
    }
}
