package io.quarry.sync;

import java.math.BigDecimal;
import java.net.URI;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A field's fingerprint, computed from a sample of its values, in Metabase's shape:
 * <pre>
 * {"global": {"distinct-count": 4, "nil%": 0.0},
 *  "type": {"type/Text": {"percent-json": 0.0, "percent-url": 0.0, "percent-email": 0.0, "percent-state": 0.0,
 *                         "average-length": 6.4}}}
 * </pre>
 * Numbers get {@code type/Number} ({@code min, q1, q3, max, sd, avg}), temporal values {@code type/DateTime}
 * ({@code earliest, latest}), text {@code type/Text}; primary keys get no fingerprint at all and other types only the
 * global part. Distinct counts are exact over the sample and do not count null (as SQL's {@code COUNT(DISTINCT)}).
 * Pure computation; the values come from {@link Analyzer}.
 */
public final class Fingerprints {
    /** Metabase's latest fingerprint version: fields fingerprinted with an older version are fingerprinted again. */
    public static final int VERSION = 5;

    /** What kind of fingerprint a field gets. */
    public enum Kind { NONE, GLOBAL, NUMBER, TEXT, TEMPORAL }

    private static final Pattern EMAIL = Pattern.compile(
            "^[\\w!#$%&'*+/=?`{|}~^-]+(?:\\.[\\w!#$%&'*+/=?`{|}~^-]+)*@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\\.)+"
                    + "[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$");
    private static final Pattern JSON_ARRAY_OF_WORD = Pattern.compile("^\\[\\s*[a-zA-Z].*", Pattern.DOTALL);
    private static final Pattern JSON_ARRAY_OF_BOOLEAN = Pattern.compile("^\\[\\s*(?:true|false).*", Pattern.DOTALL);

    /** US states and territories: two-letter codes and names, lower case. */
    static final Set<String> STATES = Set.of(
            "al", "ak", "az", "ar", "ca", "co", "ct", "de", "fl", "ga", "hi", "id", "il", "in", "ia", "ks", "ky", "la", "me",
            "md", "ma", "mi", "mn", "ms", "mo", "mt", "ne", "nv", "nh", "nj", "nm", "ny", "nc", "nd", "oh", "ok", "or", "pa",
            "ri", "sc", "sd", "tn", "tx", "ut", "vt", "va", "wa", "wv", "wi", "wy", "dc", "as", "gu", "mp", "pr", "vi",
            "alabama", "alaska", "arizona", "arkansas", "california", "colorado", "connecticut", "delaware", "florida",
            "georgia", "hawaii", "idaho", "illinois", "indiana", "iowa", "kansas", "kentucky", "louisiana", "maine",
            "maryland", "massachusetts", "michigan", "minnesota", "mississippi", "missouri", "montana", "nebraska",
            "nevada", "new hampshire", "new jersey", "new mexico", "new york", "north carolina", "north dakota", "ohio",
            "oklahoma", "oregon", "pennsylvania", "rhode island", "south carolina", "south dakota", "tennessee", "texas",
            "utah", "vermont", "virginia", "washington", "west virginia", "wisconsin", "wyoming", "district of columbia",
            "american samoa", "guam", "northern mariana islands", "puerto rico", "virgin islands");

    private Fingerprints() {
    }

    /** The fingerprint kind for a field's base type and (key) semantic type. */
    public static Kind kindOf(String baseType, String semanticType) {
        if ("type/PK".equals(semanticType)) {
            return Kind.NONE;
        }
        if ("type/FK".equals(semanticType)) {
            return Kind.GLOBAL;
        }
        if (BaseTypes.isTemporal(baseType)) {
            return Kind.TEMPORAL;
        }
        if (BaseTypes.isNumber(baseType)) {
            return Kind.NUMBER;
        }
        if (BaseTypes.isText(baseType)) {
            return Kind.TEXT;
        }
        return Kind.GLOBAL;
    }

    /** The fingerprint of a sample of values ({@link #normalize normalized}); null for {@link Kind#NONE}. */
    public static Map<String, Object> of(Kind kind, List<?> values) {
        if (kind == Kind.NONE) {
            return null;
        }
        Map<String, Object> fingerprint = new LinkedHashMap<>();
        fingerprint.put("global", global(values));
        Map<String, Object> typed = switch (kind) {
            case NUMBER -> Map.of("type/Number", number(values));
            case TEXT -> Map.of("type/Text", text(values));
            case TEMPORAL -> Map.of("type/DateTime", temporal(values));
            default -> null;
        };
        if (typed != null) {
            fingerprint.put("type", typed);
        }
        return fingerprint;
    }

    static Map<String, Object> global(List<?> values) {
        Set<Object> distinct = new HashSet<>();
        int nulls = 0;
        for (Object value : values) {
            if (value == null) {
                nulls++;
            } else {
                distinct.add(value instanceof BigDecimal d ? d.stripTrailingZeros() : value);
            }
        }
        Map<String, Object> global = new LinkedHashMap<>();
        global.put("distinct-count", distinct.size());
        global.put("nil%", values.isEmpty() ? null : (double) nulls / values.size());
        return global;
    }

    static Map<String, Object> number(List<?> values) {
        double[] numbers = values.stream().filter(v -> v instanceof Number).mapToDouble(v -> ((Number) v).doubleValue())
                .filter(d -> !Double.isNaN(d) && !Double.isInfinite(d)).toArray();
        Map<String, Object> out = new LinkedHashMap<>();
        if (numbers.length == 0) {
            for (String key : List.of("min", "q1", "q3", "max", "sd", "avg")) {
                out.put(key, null);
            }
            return out;
        }
        double[] sorted = numbers.clone();
        Arrays.sort(sorted);
        double sum = 0;
        for (double d : numbers) {
            sum += d;
        }
        double avg = sum / numbers.length;
        double squares = 0;
        for (double d : numbers) {
            squares += (d - avg) * (d - avg);
        }
        // the sample standard deviation (n - 1), as commons-math's SummaryStatistics that Metabase uses
        double sd = numbers.length > 1 ? Math.sqrt(squares / (numbers.length - 1)) : 0.0;
        out.put("min", sorted[0]);
        out.put("q1", quantile(sorted, 0.25));
        out.put("q3", quantile(sorted, 0.75));
        out.put("max", sorted[sorted.length - 1]);
        out.put("sd", sd);
        out.put("avg", avg);
        return out;
    }

    /** The value at rank {@code q} of sorted values (the lower of two when it falls between, as a KLL sketch). */
    static double quantile(double[] sorted, double q) {
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    static Map<String, Object> text(List<?> values) {
        int n = values.size();
        int json = 0;
        int url = 0;
        int email = 0;
        int state = 0;
        long length = 0;
        int maxLength = 0;
        for (Object value : values) {
            String s = value == null ? "" : value.toString();
            if (isJson(s)) {
                json++;
            }
            if (isUrl(s)) {
                url++;
            }
            if (isEmail(s)) {
                email++;
            }
            if (isState(s)) {
                state++;
            }
            length += s.length();
            maxLength = Math.max(maxLength, s.length());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("percent-json", share(json, n));
        out.put("percent-url", share(url, n));
        out.put("percent-email", share(email, n));
        out.put("percent-state", share(state, n));
        out.put("average-length", n == 0 ? null : (double) length / n);
        out.put("max-length", n == 0 ? null : maxLength);
        return out;
    }

    static Map<String, Object> temporal(List<?> values) {
        Comparable<Object> earliest = null;
        Comparable<Object> latest = null;
        Object earliestValue = null;
        Object latestValue = null;
        for (Object value : values) {
            Comparable<Object> key = temporalKey(value);
            if (key == null) {
                continue;
            }
            if (earliest == null || key.compareTo(earliest) < 0) {
                earliest = key;
                earliestValue = value;
            }
            if (latest == null || key.compareTo(latest) > 0) {
                latest = key;
                latestValue = value;
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("earliest", format(earliestValue));
        out.put("latest", format(latestValue));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Comparable<Object> temporalKey(Object value) {
        if (value instanceof LocalDateTime t) {
            return (Comparable<Object>) (Comparable<?>) t.toInstant(ZoneOffset.UTC);
        }
        if (value instanceof OffsetDateTime t) {
            return (Comparable<Object>) (Comparable<?>) t.toInstant();
        }
        if (value instanceof ZonedDateTime t) {
            return (Comparable<Object>) (Comparable<?>) t.toInstant();
        }
        if (value instanceof Instant t) {
            return (Comparable<Object>) (Comparable<?>) t;
        }
        if (value instanceof LocalDate t) {
            return (Comparable<Object>) (Comparable<?>) t.atStartOfDay().toInstant(ZoneOffset.UTC);
        }
        if (value instanceof LocalTime t) {
            return (Comparable<Object>) (Comparable<?>) t;
        }
        if (value instanceof OffsetTime t) {
            return (Comparable<Object>) (Comparable<?>) t.withOffsetSameInstant(ZoneOffset.UTC).toLocalTime();
        }
        return null;
    }

    /** ISO-8601 text: date-times as UTC instants ({@code 2016-04-30T18:56:13.352Z}), dates and times as they are. */
    private static String format(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof LocalDateTime t) {
            return t.toInstant(ZoneOffset.UTC).toString();
        }
        if (value instanceof OffsetDateTime t) {
            return t.toInstant().toString();
        }
        if (value instanceof ZonedDateTime t) {
            return t.toInstant().toString();
        }
        return value.toString();
    }

    private static Double share(int count, int total) {
        return total == 0 ? null : (double) count / total;
    }

    /**
     * A JDBC value as analysis sees it: {@code java.sql} date/time classes become {@code java.time} ones, character
     * large objects become text; everything else is kept.
     */
    public static Object normalize(Object value) {
        if (value instanceof java.sql.Timestamp t) {
            return t.toLocalDateTime();
        }
        if (value instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (value instanceof java.sql.Time t) {
            return t.toLocalTime();
        }
        if (value instanceof java.util.Date d) {
            return d.toInstant();
        }
        return value;
    }

    public static boolean isEmail(String s) {
        return s != null && !s.isEmpty() && EMAIL.matcher(s).matches();
    }

    /** An absolute http(s) or ftp URL with a host. */
    public static boolean isUrl(String s) {
        if (s == null || s.isEmpty() || s.indexOf(' ') >= 0) {
            return false;
        }
        try {
            URI uri = new URI(s);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            String host = uri.getHost();
            return (scheme.equals("http") || scheme.equals("https") || scheme.equals("ftp")) && host != null
                    && (host.contains(".") || host.equals("localhost"));
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    public static boolean isState(String s) {
        return s != null && STATES.contains(s.trim().toLowerCase(Locale.ROOT));
    }

    /** A serialized JSON object or array (a heuristic: {@code {...}}, or {@code [...]} not starting with a bare word). */
    public static boolean isJson(String s) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        char first = s.charAt(0);
        if (first == '{') {
            return true;
        }
        if (first == '[') {
            return JSON_ARRAY_OF_BOOLEAN.matcher(s).matches() || !JSON_ARRAY_OF_WORD.matcher(s).matches();
        }
        return false;
    }

    /** The typed part of a fingerprint ({@code fingerprint.type["type/Text"]}), or null. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> typed(Map<String, Object> fingerprint, String type) {
        if (fingerprint == null || !(fingerprint.get("type") instanceof Map<?, ?> types)) {
            return null;
        }
        Object part = types.get(type);
        return part instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }

    /** {@code fingerprint.global[key]} as a number, or null. */
    static Number global(Map<String, Object> fingerprint, String key) {
        if (fingerprint == null || !(fingerprint.get("global") instanceof Map<?, ?> global)) {
            return null;
        }
        return global.get(key) instanceof Number n ? n : null;
    }

    /** Values of one column from rows (for tests and callers holding rows). */
    static List<Object> column(List<Object[]> rows, int index) {
        List<Object> out = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            out.add(row[index]);
        }
        return out;
    }
}
