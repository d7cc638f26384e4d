package io.quarry.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.param.Body;
import io.quarry.web.param.Validation;
import java.util.List;
import java.util.Map;

/**
 * Body rules for content endpoints that Metabase describes with plain malli types ({@code [:maybe :string]} reads
 * "nullable string", {@code [:maybe :boolean]} "nullable boolean"), and the shape of dashboard parameters. Public so
 * that timelines share the wording.
 */
public final class BodyRules {
    public static final String PARAMETERS = "nullable sequence of parameter must be a map with :id and :type keys";

    private BodyRules() {
    }

    /** {@code [:maybe :string]}. */
    public static String optText(Body body, String key) {
        JsonNode value = body.get(key, Body.Kind.STRING);
        if (value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            body.addError(key, "nullable string", "should be a string, received: " + render(value));
            return null;
        }
        return body.withinLength(key, value.asText());
    }

    /** {@code :string}, required. */
    public static String text(Body body, String key) {
        JsonNode value = body.get(key, Body.Kind.STRING);
        if (value.isNull()) {
            body.addError(key, "string", "missing required key, received: nil");
            return null;
        }
        if (!value.isTextual()) {
            body.addError(key, "string", "should be a string, received: " + render(value));
            return null;
        }
        return body.withinLength(key, value.asText());
    }

    /** {@code [:maybe :boolean]}: a JSON boolean. */
    public static Boolean optBoolean(Body body, String key) {
        JsonNode value = body.get(key, Body.Kind.BOOLEAN);
        if (value.isNull()) {
            return null;
        }
        if (body.fromForm() && value.isTextual() && Validation.parseBoolStr(value.asText()) != null
                && value.asText().equals(value.asText().strip())) {
            return Validation.parseBoolStr(value.asText()); // a form field is a string; Metabase decodes it by type
        }
        if (!value.isBoolean()) {
            body.addError(key, "nullable boolean", "should be a boolean, received: " + render(value));
            return null;
        }
        return value.asBoolean();
    }

    /** Dashboard parameters: a list of maps, each with a non-blank string {@code id} and a {@code type}. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> optParameters(Body body, String key) {
        JsonNode value = body.get(key, Body.Kind.OBJECTS);
        if (value.isNull()) {
            return null;
        }
        boolean ok = value.isArray();
        if (ok) {
            for (JsonNode p : value) {
                if (!p.isObject() || !p.path("id").isTextual() || p.path("id").asText().isBlank()
                        || !p.path("type").isTextual() || p.path("type").asText().isBlank()) {
                    ok = false;
                    break;
                }
            }
        }
        if (!ok) {
            body.addError(key, PARAMETERS, "invalid parameter, received: " + value);
            return null;
        }
        return io.quarry.core.Json.MAPPER.convertValue(value, List.class);
    }

    static String render(JsonNode value) {
        return value.isTextual() ? "\"" + value.asText() + "\"" : value.toString();
    }
}
