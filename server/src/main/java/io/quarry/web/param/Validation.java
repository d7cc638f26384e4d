package io.quarry.web.param;

import io.quarry.web.error.ApiException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** The parsing behind each rule, shared by query/path parameters and JSON bodies. */
public final class Validation {
    // Deliberately simple, like Metabase's: something@something.tld, no spaces.
    private static final Pattern EMAIL = Pattern.compile("^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$");
    private static final Pattern LOCALE = Pattern.compile("^[a-zA-Z]{2}([_-][a-zA-Z]{2})?$");

    private Validation() {
    }

    /** The message of a text longer than its column holds (Metabase has none: it answers a database error). */
    public static String tooLong(int max) {
        return "value must be a string of at most " + max + " characters.";
    }

    public static Long parsePosInt(String raw) {
        try {
            long value = Long.parseLong(raw.trim());
            return value > 0 ? value : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * An integer greater than zero read from a raw path segment, for endpoints that take their ids as text so that
     * their own error rules (public links: 400 {@code An error occurred.}) cover a bad one; else a 400 naming it, as
     * the {@link PosInt} converter answers.
     */
    public static long requirePosInt(String name, String raw) {
        Long value = raw == null ? null : parsePosInt(raw);
        if (value == null) {
            throw invalid(name, ParamRule.POS_INT, false, raw);
        }
        return value;
    }

    public static Boolean parseBoolStr(String raw) {
        String lower = raw.trim().toLowerCase(Locale.ROOT);
        return switch (lower) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> null;
        };
    }

    public static boolean isEmail(String raw) {
        return raw != null && raw.length() <= 254 && EMAIL.matcher(raw).matches();
    }

    public static boolean isLocale(String raw) {
        return raw != null && LOCALE.matcher(raw).matches();
    }

    /** Normalises {@code en-us} / {@code en_US} to Metabase's {@code en_US} form. */
    public static String normalizeLocale(String raw) {
        String[] parts = raw.split("[_-]");
        return parts.length == 1 ? parts[0].toLowerCase(Locale.ROOT)
                : parts[0].toLowerCase(Locale.ROOT) + "_" + parts[1].toUpperCase(Locale.ROOT);
    }

    /** One 400 naming one parameter that broke its rule. */
    public static ApiException invalid(String name, ParamRule rule, boolean nullable, Object received) {
        return ApiException.withErrors(400, Map.of(name, rule.message(nullable)), Map.of(name, List.of(rule.specific(received))));
    }

    /** For a required query parameter that was not sent. */
    public static <T> T required(String name, T value, ParamRule rule) {
        if (value == null) {
            throw ApiException.withErrors(400, Map.of(name, rule.message(false)),
                    Map.of(name, List.of("missing required key, received: nil")));
        }
        return value;
    }

    /**
     * An optional enum query parameter: null when absent, else one of {@code allowed} — otherwise the same 400 as
     * {@link Body#optEnum} gives for a body key ("nullable enum of a, b").
     */
    public static String optEnum(String name, String value, String... allowed) {
        if (value == null) {
            return null;
        }
        Body query = Body.of(io.quarry.core.Json.object().put(name, value));
        String chosen = query.optEnum(name, allowed);
        query.throwIfInvalid();
        return chosen;
    }

    /** A repeated enum query parameter ({@code models=card&models=dashboard}): each value one of {@code allowed}. */
    public static List<String> optEnumVector(String name, List<String> values, List<String> allowed) {
        if (values == null) {
            return List.of();
        }
        for (String value : values) {
            if (!allowed.contains(value)) {
                throw ApiException.withErrors(400, Map.of(name, "nullable vector of enum of " + String.join(", ", allowed)),
                        Map.of(name, List.of("should be either " + String.join(" or ", allowed.stream().map(a -> "\"" + a + "\"").toList())
                                + ", received: \"" + value + "\"")));
            }
        }
        return values;
    }
}
