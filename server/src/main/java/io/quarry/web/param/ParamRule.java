package io.quarry.web.param;

/** Each parameter type's description, exactly as Metabase words it in a 400 {@code errors} map. */
public enum ParamRule {
    POS_INT("value must be an integer greater than zero.", "should be a positive int"),
    INT("value must be an integer.", "should be an integer"),
    NON_NEGATIVE_INT("value must be an integer greater than zero.", "should be an integer greater than or equal to zero"),
    NON_BLANK("value must be a non-blank string.", "non-blank string"),
    STRING("value must be a string.", "should be a string"),
    BOOL_STR("value must be a valid boolean string ('true' or 'false').", "should be either \"true\" or \"false\""),
    BOOLEAN("value must be a boolean.", "should be a boolean"),
    EMAIL("value must be a valid email address.", "should be a valid email address"),
    MAP("Value must be a map.", "should be a map"),
    JSON_STRING("value must be a valid JSON string.", "should be a valid JSON string"),
    LOCALE("String must be a valid two-letter ISO language or language-country code e.g. 'en' or 'en_US'.",
            "should be a valid locale"),
    PASSWORD("password is too common.", "password is too common"),
    ARRAY("value must be an array.", "should be a sequence");

    private final String message;
    private final String specific;

    ParamRule(String message, String specific) {
        this.message = message;
        this.specific = specific;
    }

    public String message(boolean nullable) {
        return nullable ? "nullable " + message : message;
    }

    public String specific(Object received) {
        return specific + ", received: " + render(received);
    }

    static String render(Object received) {
        if (received == null) {
            return "nil";
        }
        if (received instanceof String s) {
            return "\"" + s + "\"";
        }
        return String.valueOf(received);
    }
}
