package io.quarry.qp.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.core.Json;
import io.quarry.qp.QueryBody;
import io.quarry.web.param.Body;
import io.quarry.web.param.ParamRule;
import io.quarry.web.param.Validation;
import jakarta.ws.rs.core.MultivaluedMap;
import java.io.IOException;

/**
 * The body of a download request, in either form Metabase accepts: JSON {@code {"query": {...} or "<json>",
 * "visualization_settings": {...}, "format_rows": false, "pivot_results": false, "csv_include_bom": false}}, or
 * form-encoded fields ({@code query=<url-encoded JSON>&format_rows=true}, how Metabase's own downloads post since 0.53).
 * Booleans may be JSON booleans or the strings {@code true}/{@code false}; all of them default to false. Visualization
 * settings are accepted and not applied yet (column titles, currency); {@code pivot_results} is accepted and ignored.
 */
public record ExportRequest(ObjectNode query, Options options) {

    /** How rows are written. */
    public record Options(boolean formatRows, boolean pivotResults, boolean csvIncludeBom) {
        public static final Options DEFAULT = new Options(false, false, false);
    }

    public static ExportRequest fromJson(JsonNode json) {
        Body body = Body.of(json);
        Body[] queryParts = body.get("query").isObject() ? QueryBody.check(body.nested("query")) : new Body[0];
        ObjectNode query = query(body);
        if (queryParts.length == 0 && query != null) {
            queryParts = QueryBody.check(Body.of(query)); // the query sent as a string of JSON (form fields)
        }
        Options options = options(body);
        Body[] all = java.util.Arrays.copyOf(queryParts, queryParts.length + 1);
        all[queryParts.length] = body;
        Body.throwIfInvalid(all);
        return new ExportRequest(query, options);
    }

    /** The options of a saved card's download: {@code query} is the card's own; the body's options are checked. */
    public static ExportRequest withQuery(JsonNode json, ObjectNode query) {
        Body body = Body.of(json);
        Options options = options(body);
        body.throwIfInvalid();
        return new ExportRequest(query, options);
    }

    private static Options options(Body body) {
        boolean formatRows = bool(body, "format_rows");
        boolean pivot = bool(body, "pivot_results");
        boolean bom = bool(body, "csv_include_bom");
        JsonNode settings = jsonValue(body, "visualization_settings");
        if (settings != null && !settings.isObject()) {
            body.addError("visualization_settings", ParamRule.MAP.message(true), ParamRule.MAP.specific(settings.toString()));
        }
        return new Options(formatRows, pivot, bom);
    }

    /** Form fields are all text: JSON values arrive as JSON strings, booleans as "true"/"false". */
    public static ExportRequest fromForm(MultivaluedMap<String, String> form) {
        ObjectNode json = Json.object();
        if (form != null) {
            form.forEach((key, values) -> {
                if (values != null && !values.isEmpty()) {
                    json.put(key, values.get(0));
                }
            });
        }
        return fromJson(json);
    }

    private static ObjectNode query(Body body) {
        JsonNode value = jsonValue(body, "query");
        if (value == null) {
            if (!body.hasValue("query")) {
                body.addError("query", ParamRule.JSON_STRING.message(false), "missing required key, received: nil");
            }
            return null;
        }
        if (!value.isObject()) {
            body.addError("query", ParamRule.JSON_STRING.message(false), ParamRule.MAP.specific(value.toString()));
            return null;
        }
        return (ObjectNode) value;
    }

    /** A value given as JSON or as a string of JSON; null when absent or unparseable (which records an error). */
    private static JsonNode jsonValue(Body body, String key) {
        JsonNode value = body.get(key, Body.Kind.MAP);
        if (value.isNull() || value.isMissingNode()) {
            return null;
        }
        if (!value.isTextual()) {
            return value;
        }
        try {
            return Json.read(value.asText());
        } catch (IOException | RuntimeException e) {
            body.addError(key, ParamRule.JSON_STRING.message(false), ParamRule.JSON_STRING.specific(value.asText()));
            return null;
        }
    }

    private static boolean bool(Body body, String key) {
        JsonNode value = body.get(key, Body.Kind.BOOLEAN);
        if (value.isNull() || value.isMissingNode()) {
            return false;
        }
        if (value.isBoolean()) {
            return value.asBoolean();
        }
        Boolean parsed = value.isTextual() && value.asText().equals(value.asText().strip())
                ? Validation.parseBoolStr(value.asText()) : null;
        if (parsed == null) {
            body.addError(key, ParamRule.BOOL_STR.message(false), ParamRule.BOOL_STR.specific(value.isTextual() ? value.asText() : value));
            return false;
        }
        return parsed;
    }
}
