package io.quarry.web.param;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.quarry.appdb.ColumnLengths;
import io.quarry.core.Json;
import io.quarry.web.body.FormFields;
import io.quarry.web.error.ApiException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Reads and validates a JSON request body. Every accessor records a violation instead of throwing, so that
 * {@link #throwIfInvalid()} answers one 400 naming every bad field, as Metabase does:
 * <pre>
 *   Body body = Body.of(json);
 *   String name = body.nonBlank("name");
 *   Long group = body.optPosInt("group_id");
 *   body.throwIfInvalid();
 * </pre>
 * Methods named {@code opt…} accept an absent key or JSON null and return null for both; use {@link #has} to tell
 * "absent" (leave unchanged) from "null" (clear) where that matters.
 */
public final class Body {
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() { };

    private final JsonNode node;
    /** Form fields: every value is a string that the accessor decodes by its type, as Metabase's schemas do. */
    private final boolean form;
    /** Where this body sits in the request body: "" at the top, {@code "database."} for a nested one. */
    private final String at;
    private final Map<String, Object> errors = new LinkedHashMap<>();
    private final Map<String, List<String>> specific = new LinkedHashMap<>();
    /** The longest text each string field may be ({@link #storedIn}); none checked unless the body says where it goes. */
    private Map<String, Integer> maxLengths = Map.of();

    /** The JSON type an accessor expects of a field. */
    public enum Kind { BOOLEAN, POS_INT, POS_INTS, STRING, MAP, OBJECTS }

    /**
     * Told of every field an accessor reads (its path, key and expected type) and of every {@link #throwIfInvalid()}:
     * the declarations the endpoints validate with, as they run. The property test over every resource method
     * ({@code EveryResourceMethodIT}) learns each method's body fields from it, so a field added later is swept without
     * editing the test. None is installed in production.
     */
    public interface Observer {
        void read(String at, String key, Kind kind);

        void checking();
    }

    private static volatile Observer observer;

    /** Installs (or, with null, removes) the one observer. */
    public static void observe(Observer newObserver) {
        observer = newObserver;
    }

    private Body(JsonNode node) {
        this(node, false, "");
    }

    private Body(JsonNode node, boolean form, String at) {
        this.node = node;
        this.form = form;
        this.at = at;
    }

    private void seen(String key, Kind kind) {
        Observer current = observer;
        if (current != null) {
            current.read(at, key, kind);
        }
    }

    /** A body; a missing body counts as {@code {}}, and anything but an object is a 400. */
    public static Body of(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return new Body(Json.object());
        }
        if (!node.isObject()) {
            throw ApiException.invalidField("body", ParamRule.MAP.message(false));
        }
        return new Body(node, node instanceof FormFields, "");
    }

    /**
     * Says where this body's string fields are stored: each field named like a {@code VARCHAR(n)} column of the
     * application database's {@code table} ({@code name}, {@code display}, ...) may hold at most n characters, as the
     * changelog declares ({@link ColumnLengths}); a longer one is a 400 naming the field, recorded like any other
     * violation, before anything is written. With {@code columns}, only those fields (where other keys of the body do
     * not go into the column of their name, as a password into its hash). Returns this body.
     */
    public Body storedIn(String table, String... columns) {
        Map<String, Integer> lengths = ColumnLengths.of(table);
        if (columns.length > 0) {
            Map<String, Integer> some = new LinkedHashMap<>();
            for (String column : columns) {
                Integer length = lengths.get(column);
                if (length == null) {
                    throw new IllegalArgumentException("No VARCHAR column " + table + "." + column);
                }
                some.put(column, length);
            }
            lengths = some;
        }
        Map<String, Integer> all = new LinkedHashMap<>(maxLengths);
        all.putAll(lengths);
        maxLengths = Map.copyOf(all);
        return this;
    }

    public JsonNode raw() {
        return node;
    }

    /** The body came as form fields: every value is a string for the accessor to decode by its type. */
    public boolean fromForm() {
        return form;
    }

    /** The key is present, possibly with JSON null. */
    public boolean has(String key) {
        return node.has(key);
    }

    /** The key is present and not JSON null. */
    public boolean hasValue(String key) {
        return node.hasNonNull(key);
    }

    public JsonNode get(String key) {
        JsonNode value = node.get(key);
        return value == null ? NullNode.instance : value;
    }

    /** The raw value of a field its caller checks by hand as {@code kind} (told to the {@link Observer}). */
    public JsonNode get(String key, Kind kind) {
        seen(key, kind);
        return get(key);
    }

    public Body nested(String key) {
        seen(key, Kind.MAP);
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return new Body(Json.object(), false, at + key + ".");
        }
        if (!value.isObject()) {
            fail(key, ParamRule.MAP, true, value);
            return new Body(Json.object(), false, at + key + ".");
        }
        return new Body(value, false, at + key + ".");
    }

    // --- strings -------------------------------------------------------------------------------------------------

    public String nonBlank(String key) {
        return string(key, false, ParamRule.NON_BLANK, s -> !s.isBlank());
    }

    public String optNonBlank(String key) {
        return string(key, true, ParamRule.NON_BLANK, s -> !s.isBlank());
    }

    public String optString(String key) {
        return string(key, true, ParamRule.STRING, s -> true);
    }

    public String string(String key) {
        return string(key, false, ParamRule.STRING, s -> true);
    }

    public String email(String key) {
        return string(key, false, ParamRule.EMAIL, Validation::isEmail);
    }

    public String optEmail(String key) {
        return string(key, true, ParamRule.EMAIL, Validation::isEmail);
    }

    public String optLocale(String key) {
        String value = string(key, true, ParamRule.LOCALE, Validation::isLocale);
        return value == null ? null : Validation.normalizeLocale(value);
    }

    /** One of {@code allowed}; errors read "enum of a, b, c" as Metabase's do. */
    public String optEnum(String key, String... allowed) {
        return enumOf(key, true, allowed);
    }

    public String enumOf(String key, boolean nullable, String... allowed) {
        seen(key, Kind.STRING);
        Set<String> set = Set.of(allowed);
        JsonNode value = node.get(key);
        if (isNull(value)) {
            if (!nullable) {
                missing(key, "enum of " + String.join(", ", allowed));
            }
            return null;
        }
        if (!value.isTextual() || !set.contains(value.asText())) {
            addError(key, (nullable ? "nullable " : "") + "enum of " + String.join(", ", allowed),
                    "should be either " + String.join(" or ", quoted(allowed)) + ", received: " + ParamRule.render(plain(value)));
            return null;
        }
        return value.asText();
    }

    private String string(String key, boolean nullable, ParamRule rule, Predicate<String> ok) {
        seen(key, Kind.STRING);
        JsonNode value = node.get(key);
        if (isNull(value)) {
            if (!nullable) {
                missing(key, rule.message(false));
            }
            return null;
        }
        if (!value.isTextual() || !ok.test(value.asText())) {
            fail(key, rule, nullable, value);
            return null;
        }
        return withinLength(key, value.asText());
    }

    /**
     * The text, or null with a violation recorded when it is longer than its column holds ({@link #storedIn}): for a
     * field its caller reads by hand ({@link #get(String, Kind)}).
     */
    public String withinLength(String key, String text) {
        Integer max = maxLengths.get(key);
        // UTF-16 units, as H2 counts a VARCHAR's length (PostgreSQL counts code points: never more)
        if (max != null && text.length() > max) {
            addError(key, Validation.tooLong(max), "should be at most " + max + " characters, received: "
                    + text.length() + " characters");
            return null;
        }
        return text;
    }

    // --- numbers and booleans ------------------------------------------------------------------------------------

    public Long posInt(String key) {
        return posInt(key, false);
    }

    public Long optPosInt(String key) {
        return posInt(key, true);
    }

    private Long posInt(String key, boolean nullable) {
        seen(key, Kind.POS_INT);
        JsonNode value = node.get(key);
        if (isNull(value)) {
            if (!nullable) {
                missing(key, ParamRule.POS_INT.message(false));
            }
            return null;
        }
        Long number = form && value.isTextual() ? Validation.parsePosInt(value.asText()) : exactLong(value);
        if (number == null || number <= 0 || number > maxOf(key)) {
            fail(key, ParamRule.POS_INT, nullable, value);
            return null;
        }
        return number;
    }

    /**
     * A required array of ids (positive integers), as Metabase's {@code [:sequential ms/PositiveInt]}: anything else,
     * an element included, is a 400 naming the key; answers null then.
     */
    public List<Long> posInts(String key) {
        seen(key, Kind.POS_INTS);
        JsonNode value = node.get(key);
        String message = "sequence of value must be an integer greater than zero.";
        if (isNull(value)) {
            missing(key, message);
            return null;
        }
        if (!value.isArray()) {
            addError(key, message, ParamRule.ARRAY.specific(plain(value)));
            return null;
        }
        List<Long> result = new ArrayList<>();
        for (JsonNode element : value) {
            Long number = exactLong(element);
            if (number == null || number <= 0) {
                addError(key, message, ParamRule.POS_INT.specific(plain(element)));
                return null;
            }
            result.add(number);
        }
        return result;
    }

    /** A JSON integer that fits a long; a fraction, a string or anything bigger is not one. */
    private static Long exactLong(JsonNode value) {
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            return null;
        }
        return value.asLong();
    }

    /**
     * The largest value the key's column holds: ids are BIGINT; {@code collection_position} is SMALLINT; every other
     * positive integer (cache_ttl, position, sizes) is an INTEGER column. A bigger number is the caller's mistake
     * (400), not a database error (500) or a silently truncated value.
     */
    static long maxOf(String key) {
        if (key.equals("id") || key.endsWith("_id") || key.endsWith("-id")) {
            return Long.MAX_VALUE;
        }
        if (key.equals("collection_position")) {
            return Short.MAX_VALUE;
        }
        return Integer.MAX_VALUE;
    }

    /**
     * A JSON boolean, or exactly the string "true" or "false" (any case), which Metabase's BooleanValue accepts too
     * and a form field always is. Anything else, {@code "TRUE "} or {@code 1} included, is a 400.
     */
    public Boolean optBool(String key) {
        return bool(key, true);
    }

    public Boolean bool(String key, boolean nullable) {
        seen(key, Kind.BOOLEAN);
        JsonNode value = node.get(key);
        if (isNull(value)) {
            if (!nullable) {
                missing(key, ParamRule.BOOLEAN.message(false));
            }
            return null;
        }
        if (value.isBoolean()) {
            return value.asBoolean();
        }
        if (value.isTextual() && value.asText().equals(value.asText().strip()) && Validation.parseBoolStr(value.asText()) != null) {
            return Validation.parseBoolStr(value.asText());
        }
        fail(key, ParamRule.BOOLEAN, nullable, value);
        return null;
    }

    // --- structures ------------------------------------------------------------------------------------------------

    public Map<String, Object> optMap(String key) {
        seen(key, Kind.MAP);
        JsonNode value = node.get(key);
        if (isNull(value)) {
            return null;
        }
        if (!value.isObject()) {
            fail(key, ParamRule.MAP, true, value);
            return null;
        }
        return Json.MAPPER.convertValue(value, MAP);
    }

    public Map<String, Object> map(String key) {
        seen(key, Kind.MAP);
        JsonNode value = node.get(key);
        if (isNull(value)) {
            missing(key, ParamRule.MAP.message(false));
            return null;
        }
        if (!value.isObject()) {
            fail(key, ParamRule.MAP, false, value);
            return null;
        }
        return Json.MAPPER.convertValue(value, MAP);
    }

    /** An array of objects; each element is handed back as a Body so callers can validate its keys. */
    public List<Body> optObjects(String key, String elementMessage) {
        seen(key, Kind.OBJECTS);
        JsonNode value = node.get(key);
        if (isNull(value)) {
            return null;
        }
        List<Body> result = new ArrayList<>();
        if (!value.isArray()) {
            addError(key, "nullable " + elementMessage, ParamRule.ARRAY.specific(plain(value)));
            return null;
        }
        for (JsonNode element : value) {
            if (!element.isObject()) {
                addError(key, "nullable " + elementMessage, "invalid type, received: " + ParamRule.render(plain(element)));
                return null;
            }
            result.add(new Body(element, false, at + key + "[]."));
        }
        return result;
    }

    // --- errors ------------------------------------------------------------------------------------------------

    /** Records a violation that no accessor checks (cross-field rules, lookups). */
    public void addError(String key, String message, String specificMessage) {
        errors.putIfAbsent(key, message);
        specific.computeIfAbsent(key, k -> new ArrayList<>()).add(specificMessage);
    }

    public boolean valid() {
        return errors.isEmpty();
    }

    public void throwIfInvalid() {
        Observer current = observer;
        if (current != null) {
            current.checking();
        }
        if (!errors.isEmpty()) {
            throw ApiException.withErrors(400, errors, specific);
        }
    }

    /** One 400 naming every bad field of several bodies read from one request (a body and its nested parts). */
    public static void throwIfInvalid(Body... bodies) {
        Body all = new Body(Json.object());
        for (Body body : bodies) {
            body.errors.forEach(all.errors::putIfAbsent);
            body.specific.forEach((key, messages) -> all.specific.computeIfAbsent(key, k -> new ArrayList<>()).addAll(messages));
        }
        all.throwIfInvalid();
    }

    private void fail(String key, ParamRule rule, boolean nullable, JsonNode value) {
        addError(key, rule.message(nullable), rule.specific(plain(value)));
    }

    private void missing(String key, String message) {
        addError(key, message, "missing required key, received: nil");
    }

    private static boolean isNull(JsonNode value) {
        return value == null || value.isNull() || value.isMissingNode();
    }

    private static Object plain(JsonNode value) {
        return value.isTextual() ? value.asText() : value.toString();
    }

    private static List<String> quoted(String... values) {
        List<String> result = new ArrayList<>();
        for (String v : values) {
            result.add("\"" + v + "\"");
        }
        return result;
    }
}
