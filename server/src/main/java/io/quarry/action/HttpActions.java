package io.quarry.action;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.quarry.core.Json;
import io.quarry.outbound.OutboundHttp;
import io.quarry.outbound.RefusedHostException;
import io.quarry.qp.nativeq.Substitution;
import io.quarry.qp.nativeq.Template;
import io.quarry.qp.nativeq.TemplateException;
import io.quarry.web.error.ApiException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * HTTP actions (Metabase's {@code http_action.clj}): a request template ({@code method}, {@code url}, {@code body},
 * {@code headers} as JSON text) whose {@code {{param}}} and {@code [[optional {{param}}]]} are filled in — URL-encoded
 * in the URL, JSON-encoded in the body and headers — then sent through the {@link OutboundHttp} guard, so a URL that
 * reaches a refused host is refused before and after substitution. The answer {@code {status, headers, body}} goes
 * through {@code error_handle} (default {@code .status >= 400}: truthy → 400) and {@code response_handle} (its value,
 * or 204 without one).
 */
final class HttpActions {
    static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "DELETE", "PATCH");
    static final Set<String> TEMPLATE_KEYS = Set.of("method", "url", "body", "headers", "parameters", "parameter_mappings");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final JsonQuery DEFAULT_ERROR = JsonQuery.parse(".status >= 400");

    /** What an HTTP action answers: a value (200) or nothing (204). */
    record Outcome(boolean hasBody, Object body) {
    }

    private final OutboundHttp outbound;

    HttpActions(OutboundHttp outbound) {
        this.outbound = outbound;
    }

    /** 400 naming the field unless the template and handles are valid; a fixed URL must reach an allowed host. */
    void validate(Map<String, Object> template, String responseHandle, String errorHandle) {
        if (template == null) {
            throw ApiException.invalidField("template", "HTTP actions need a template: {\"method\": ..., \"url\": ...}.");
        }
        Set<String> unknown = new TreeSet<>(template.keySet());
        unknown.removeAll(TEMPLATE_KEYS);
        if (!unknown.isEmpty()) {
            throw ApiException.invalidField("template", "disallowed keys: " + unknown);
        }
        if (!(template.get("method") instanceof String method) || !METHODS.contains(method)) {
            throw ApiException.invalidField("template", "method should be one of GET, POST, PUT, DELETE, PATCH");
        }
        if (!(template.get("url") instanceof String url) || url.isEmpty()) {
            throw ApiException.invalidField("template", "url should be a string with length >= 1");
        }
        for (String key : List.of("body", "headers")) {
            if (template.get(key) != null && !(template.get(key) instanceof String)) {
                throw ApiException.invalidField("template", key + " should be a string");
            }
        }
        try {
            for (String key : List.of("url", "body", "headers")) {
                if (template.get(key) instanceof String text) {
                    Template.parse(text);
                }
            }
        } catch (TemplateException e) {
            throw ApiException.invalidField("template", e.getMessage());
        }
        if (template.get("headers") instanceof String headers && !headers.isBlank() && !headers.contains("{{")) {
            headers(headers);
        }
        if (responseHandle != null && !JsonQuery.isValid(responseHandle)) {
            throw ApiException.invalidField("response_handle", JsonQuery.INVALID);
        }
        if (errorHandle != null && !JsonQuery.isValid(errorHandle)) {
            throw ApiException.invalidField("error_handle", JsonQuery.INVALID);
        }
        if (!url.contains("{{")) {
            try {
                outbound.check(new URI(url));
            } catch (RefusedHostException e) {
                throw ApiException.invalidField("template", e.getMessage());
            } catch (URISyntaxException | IllegalArgumentException e) {
                throw ApiException.invalidField("template", "url is not a valid http or https URL: " + e.getMessage());
            }
        }
    }

    /** The parameters of an HTTP action: one per tag of its url, body and headers. */
    static List<Map<String, Object>> parameters(Map<String, Object> template) {
        Set<String> names = new LinkedHashSet<>();
        for (String key : List.of("url", "body", "headers")) {
            if (template.get(key) instanceof String text) {
                names.addAll(Template.tagNames(Template.parse(text)));
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (String name : names) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("id", name);
            p.put("slug", name);
            p.put("type", "string/=");
            p.put("target", List.of("variable", List.of("template-tag", name)));
            out.add(p);
        }
        return out;
    }

    Outcome execute(String actionName, Map<String, Object> template, String responseHandle, String errorHandle,
            List<Object> parameters, Map<String, Object> given) {
        // parameter id -> tag name
        Map<String, String> tagOf = new LinkedHashMap<>();
        for (Object p : parameters.isEmpty() ? new ArrayList<Object>(parameters(template)) : parameters) {
            if (p instanceof Map<?, ?> param && param.get("id") != null) {
                String tag = null;
                if (param.get("target") instanceof List<?> t && t.size() >= 2 && t.get(1) instanceof List<?> ref && ref.size() >= 2) {
                    tag = String.valueOf(ref.get(1));
                }
                tagOf.put(String.valueOf(param.get("id")), tag == null ? String.valueOf(param.get("id")) : tag);
            }
        }
        Set<String> unknown = new TreeSet<>(given.keySet());
        unknown.removeAll(tagOf.keySet());
        if (!unknown.isEmpty()) {
            throw ApiException.badRequest("No destination parameter found for #{" + String.join(" ", unknown.stream()
                    .map(n -> "\"" + n + "\"").toList()) + "}. Found: #{" + String.join(" ", tagOf.keySet().stream()
                    .map(n -> "\"" + n + "\"").toList()) + "}");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        given.forEach((id, value) -> {
            if (value != null) {
                values.put(tagOf.get(id), value);
            }
        });
        Set<String> missing = new TreeSet<>();
        for (String key : List.of("url", "body", "headers")) {
            if (template.get(key) instanceof String text) {
                requiredTags(Template.parse(text), missing);
            }
        }
        missing.removeAll(values.keySet());
        if (!missing.isEmpty()) {
            throw ApiException.badRequest("Cannot call the service: missing required parameters: #{"
                    + String.join(" ", missing.stream().map(n -> "\"" + n + "\"").toList()) + "}");
        }
        String url = fill((String) template.get("url"), values, true);
        String body = template.get("body") instanceof String b ? fill(b, values, false) : null;
        Map<String, String> headers = new LinkedHashMap<>();
        if (template.get("headers") instanceof String h && !h.isBlank()) {
            headers.putAll(headers(fill(h, values, false)));
        }
        headers.put("X-Metabase-Action", actionName);
        if (body != null && headers.keySet().stream().noneMatch(k -> k.equalsIgnoreCase("Content-Type"))) {
            headers.put("Content-Type", "application/json");
        }
        OutboundHttp.Response response;
        try {
            response = outbound.send(new OutboundHttp.Request((String) template.get("method"), new URI(url), headers,
                    body == null ? null : body.getBytes(StandardCharsets.UTF_8), TIMEOUT));
        } catch (RefusedHostException e) {
            throw ApiException.badRequest(e.getMessage());
        } catch (URISyntaxException | java.net.MalformedURLException | IllegalArgumentException e) {
            throw ApiException.badRequest("Problem building request: " + e.getMessage());
        } catch (IOException e) {
            throw ApiException.badRequest("Problem calling the service: " + e);
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("status", response.status());
        Map<String, Object> answerHeaders = new LinkedHashMap<>();
        response.headers().forEach((k, v) -> answerHeaders.put(k, v.size() == 1 ? v.get(0) : v));
        answer.put("headers", answerHeaders);
        answer.put("body", parsedBody(response.bodyText()));
        JsonQuery error = errorHandle == null ? DEFAULT_ERROR : JsonQuery.parse(errorHandle);
        Object failed = error.evaluate(answer);
        if (JsonQuery.truthy(failed)) {
            Map<String, Object> errorBody = new LinkedHashMap<>();
            if (failed instanceof Boolean) {
                errorBody.put("remote-status", response.status());
                throw new ApiException(400, "Remote service answered " + response.status(), errorBody);
            }
            errorBody.put("message", failed instanceof String s ? s : Json.write(failed));
            throw new ApiException(400, String.valueOf(errorBody.get("message")), errorBody);
        }
        if (responseHandle == null) {
            return new Outcome(false, null);
        }
        return new Outcome(true, JsonQuery.parse(responseHandle).evaluate(answer));
    }

    private static void requiredTags(List<Template.Part> parts, Set<String> into) {
        for (Template.Part part : parts) {
            if (part instanceof Template.Tag tag) {
                into.add(tag.name());
            }
        }
    }

    private static String fill(String text, Map<String, Object> values, boolean url) {
        return Substitution.apply(Template.parse(text), (name, optional) -> {
            Object value = values.get(name);
            if (value == null) {
                return null;
            }
            String encoded = url ? URLEncoder.encode(value instanceof String s ? s : Json.write(value), StandardCharsets.UTF_8)
                    : Json.write(value);
            return new Substitution.Bound(encoded, List.of());
        }).sql();
    }

    private static Map<String, String> headers(String json) {
        try {
            Object parsed = Json.MAPPER.readValue(json, Object.class);
            if (!(parsed instanceof Map<?, ?> map)) {
                throw ApiException.invalidField("template", "headers should be a JSON object");
            }
            Map<String, String> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), v instanceof String s ? s : Json.write(v)));
            return out;
        } catch (JsonProcessingException e) {
            throw ApiException.invalidField("template", "headers should be a JSON object");
        }
    }

    private static Object parsedBody(String text) {
        if (text.isBlank()) {
            return text;
        }
        try {
            return Json.MAPPER.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            return text;
        }
    }
}
