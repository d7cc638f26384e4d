package io.quarry.web.docs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.core.Version;
import io.quarry.web.security.Access;
import io.quarry.web.security.Credentials;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Quarry's API as an OpenAPI 3.1 document, read at start-up from the JAX-RS annotations of the registered resources
 * (paths, verbs, path/query/header/form parameters and their Java types, body types, access level), so the document
 * cannot drift from the code. Hand-written request examples for the common calls ({@code examples.json} beside this
 * class) are attached by {@code "VERB /api/path"}.
 */
public final class ApiDocs {
    private static final Pattern TEMPLATE = Pattern.compile("\\{\\s*([^}:\\s]+)\\s*(?::\\s*((?:[^{}]|\\{[^{}]*})*))?}");

    private final ObjectNode document;
    private final List<Endpoint> endpoints;

    /** One operation: its verb, OpenAPI path and the Java method serving it. */
    public record Endpoint(String verb, String path, Method method) {
    }

    public ApiDocs(Collection<Class<?>> resources, ObjectMapper json) {
        List<Endpoint> found = new ArrayList<>();
        for (Class<?> resource : resources) {
            found.addAll(endpointsOf(resource));
        }
        found.sort(Comparator.comparing(Endpoint::path).thenComparing(Endpoint::verb));
        endpoints = List.copyOf(found);
        document = build(json, endpoints, loadExamples(json));
    }

    public ObjectNode document() {
        return document.deepCopy();
    }

    public List<Endpoint> endpoints() {
        return endpoints;
    }

    /** Every resource method of a class, with the verb and the full path ({@code /api/...}) it answers. */
    public static List<Endpoint> endpointsOf(Class<?> resource) {
        List<Endpoint> result = new ArrayList<>();
        Path base = resource.getAnnotation(Path.class);
        for (Method method : resource.getMethods()) {
            String verb = verbOf(method);
            if (verb == null) {
                continue;
            }
            Path own = method.getAnnotation(Path.class);
            result.add(new Endpoint(verb, openApiPath(join(base == null ? "" : base.value(), own == null ? "" : own.value())), method));
        }
        return result;
    }

    static String verbOf(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod http = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (http != null) {
                return http.value().toLowerCase(Locale.ROOT);
            }
        }
        return null;
    }

    private static String join(String base, String own) {
        String joined = "/api/" + strip(base) + (strip(own).isEmpty() ? "" : "/" + strip(own));
        return joined.equals("/api/") ? "/api" : joined.replaceAll("/+$", "").replaceAll("//+", "/");
    }

    private static String strip(String path) {
        return path.replaceAll("^/+|/+$", "");
    }

    /** JAX-RS templates with regular expressions ({@code {id: \d+}}) as plain OpenAPI templates ({@code {id}}). */
    static String openApiPath(String path) {
        Matcher m = TEMPLATE.matcher(path);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement("{" + m.group(1) + "}"));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The regular expression of each path template that has one. */
    private static Map<String, String> patternsOf(Method method) {
        Map<String, String> patterns = new TreeMap<>();
        for (Path path : new Path[]{method.getDeclaringClass().getAnnotation(Path.class), method.getAnnotation(Path.class)}) {
            if (path != null) {
                Matcher m = TEMPLATE.matcher(path.value());
                while (m.find()) {
                    if (m.group(2) != null) {
                        patterns.put(m.group(1), m.group(2).trim());
                    }
                }
            }
        }
        return patterns;
    }

    private static ObjectNode build(ObjectMapper json, List<Endpoint> endpoints, JsonNode examples) {
        ObjectNode doc = json.createObjectNode();
        doc.put("openapi", "3.1.0");
        ObjectNode info = doc.putObject("info");
        info.put("title", "Quarry API");
        info.put("version", Version.quarryVersion());
        info.put("description", "Metabase v0.63's HTTP API as Quarry serves it. Sign in with POST /api/session and send the"
                + " returned id as the X-Metabase-Session header (or the metabase.SESSION cookie), or send an API key as"
                + " X-Api-Key. Generated from the server's own resource classes.");
        doc.putArray("servers").addObject().put("url", "..").put("description", "this server (paths start with /api)");
        ObjectNode schemes = doc.putObject("components").putObject("securitySchemes");
        schemes.putObject("session").put("type", "apiKey").put("in", "header").put("name", Credentials.SESSION_HEADER);
        schemes.putObject("apiKey").put("type", "apiKey").put("in", "header").put("name", Credentials.API_KEY_HEADER);
        ObjectNode paths = doc.putObject("paths");
        for (Endpoint endpoint : endpoints) {
            ObjectNode item = paths.has(endpoint.path()) ? (ObjectNode) paths.get(endpoint.path()) : paths.putObject(endpoint.path());
            ObjectNode operation = operation(json, endpoint, examples.path(endpoint.verb().toUpperCase(Locale.ROOT) + " " + endpoint.path()));
            JsonNode existing = item.get(endpoint.verb());
            if (existing instanceof ObjectNode first && first.has("requestBody") && operation.has("requestBody")) {
                // one path and verb served by two methods, one per request type (JSON and form): one operation, both bodies
                ((ObjectNode) first.get("requestBody").get("content")).setAll((ObjectNode) operation.get("requestBody").get("content"));
            } else {
                item.set(endpoint.verb(), operation);
            }
        }
        return doc;
    }

    private static ObjectNode operation(ObjectMapper json, Endpoint endpoint, JsonNode example) {
        Method method = endpoint.method();
        ObjectNode op = json.createObjectNode();
        String tag = endpoint.path().replaceFirst("^/api/?", "").replaceFirst("/.*$", "");
        op.putArray("tags").add(tag.isEmpty() ? "api" : tag);
        op.put("operationId", method.getDeclaringClass().getSimpleName() + "." + method.getName());
        op.put("summary", words(method.getName()));
        Access.Level level = accessOf(method);
        if (level != null) {
            op.put("x-quarry-access", level.name().toLowerCase(Locale.ROOT));
            if (level == Access.Level.PUBLIC) {
                op.putArray("security");
            } else {
                ArrayNode security = op.putArray("security");
                security.addObject().putArray("session");
                security.addObject().putArray("apiKey");
            }
        }
        Map<String, String> patterns = patternsOf(method);
        ArrayNode parameters = json.createArrayNode();
        ObjectNode form = null;
        Type body = null;
        for (Parameter parameter : method.getParameters()) {
            PathParam path = parameter.getAnnotation(PathParam.class);
            QueryParam query = parameter.getAnnotation(QueryParam.class);
            HeaderParam header = parameter.getAnnotation(HeaderParam.class);
            FormParam formParam = parameter.getAnnotation(FormParam.class);
            if (path != null) {
                ObjectNode p = parameters.addObject().put("name", path.value()).put("in", "path").put("required", true);
                ObjectNode schema = schemaOf(json, parameter.getParameterizedType());
                if (patterns.containsKey(path.value())) {
                    String pattern = patterns.get(path.value());
                    schema.put("pattern", "^(" + pattern + ")$");
                    if (pattern.matches("[\\w-]+(\\|[\\w-]+)*")) {
                        // a list of words ({export-format: csv|json|xlsx|api}): the values themselves
                        ArrayNode values = schema.putArray("enum");
                        for (String value : pattern.split("\\|")) {
                            values.add(value);
                        }
                    }
                }
                p.set("schema", schema);
            } else if (query != null) {
                ObjectNode p = parameters.addObject().put("name", query.value()).put("in", "query");
                boolean many = Collection.class.isAssignableFrom(parameter.getType());
                p.set("schema", schemaOf(json, parameter.getParameterizedType()));
                if (many) {
                    p.put("explode", true);
                }
            } else if (header != null) {
                parameters.addObject().put("name", header.value()).put("in", "header").set("schema", schemaOf(json, parameter.getParameterizedType()));
            } else if (formParam != null) {
                if (form == null) {
                    form = json.createObjectNode().put("type", "object");
                    form.putObject("properties");
                }
                ((ObjectNode) form.get("properties")).set(formParam.value(), schemaOf(json, parameter.getParameterizedType()));
            } else if (parameter.getAnnotation(Context.class) == null && parameter.getAnnotation(BeanParam.class) == null
                    && parameter.getAnnotation(jakarta.ws.rs.CookieParam.class) == null
                    && parameter.getAnnotation(jakarta.ws.rs.MatrixParam.class) == null) {
                body = parameter.getParameterizedType();
            }
        }
        if (!parameters.isEmpty()) {
            op.set("parameters", parameters);
        }
        if (body != null || form != null || !example.isMissingNode()) {
            ObjectNode content = op.putObject("requestBody").putObject("content");
            if (form != null) {
                content.putObject(consumes(method, MediaType.APPLICATION_FORM_URLENCODED)).set("schema", form);
            } else {
                ObjectNode media = content.putObject(consumes(method, MediaType.APPLICATION_JSON));
                media.set("schema", body == null ? json.createObjectNode().put("type", "object") : schemaOf(json, body));
                if (!example.isMissingNode()) {
                    media.set("example", example);
                }
            }
        }
        ObjectNode responses = op.putObject("responses");
        responses.putObject("2XX").put("description", "Success");
        responses.putObject("4XX").put("description", "Metabase's error answers: 400 with {\"errors\": {field: message}},"
                + " 401 \"Unauthenticated\", 403 \"You don't have permissions to do that.\", 404 \"Not found.\"");
        return op;
    }

    private static String consumes(Method method, String fallback) {
        Consumes consumes = method.getAnnotation(Consumes.class);
        if (consumes == null) {
            consumes = method.getDeclaringClass().getAnnotation(Consumes.class);
        }
        if (consumes != null && consumes.value().length > 0) {
            String first = consumes.value()[0];
            if (!fallback.equals(MediaType.APPLICATION_JSON) || first.contains("json") || first.contains("multipart")) {
                return first;
            }
            return Arrays.asList(consumes.value()).contains(MediaType.APPLICATION_JSON) ? MediaType.APPLICATION_JSON : first;
        }
        return fallback;
    }

    private static Access.Level accessOf(Method method) {
        Access access = method.getAnnotation(Access.class);
        if (access == null) {
            access = method.getDeclaringClass().getAnnotation(Access.class);
        }
        return access == null ? null : access.value();
    }

    /** A JSON schema for a Java parameter or body type. */
    static ObjectNode schemaOf(ObjectMapper json, Type type) {
        ObjectNode schema = json.createObjectNode();
        Class<?> raw = type instanceof Class<?> c ? c : type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : Object.class;
        String name = raw.getSimpleName();
        if (raw == int.class || raw == Integer.class || raw == long.class || raw == Long.class) {
            schema.put("type", "integer");
        } else if (name.equals("PosInt")) {
            schema.put("type", "integer").put("minimum", 1);
        } else if (raw == boolean.class || raw == Boolean.class || name.equals("BoolStr")) {
            schema.put("type", "boolean");
        } else if (raw == double.class || raw == Double.class || raw == float.class || raw == Float.class || Number.class.isAssignableFrom(raw)) {
            schema.put("type", "number");
        } else if (raw == String.class || name.equals("NonBlank") || CharSequence.class.isAssignableFrom(raw)) {
            schema.put("type", "string");
            if (name.equals("NonBlank")) {
                schema.put("minLength", 1);
            }
        } else if (raw.isEnum()) {
            schema.put("type", "string");
            ArrayNode values = schema.putArray("enum");
            for (Object constant : raw.getEnumConstants()) {
                values.add(constant.toString().toLowerCase(Locale.ROOT));
            }
        } else if (Collection.class.isAssignableFrom(raw) || raw.isArray()) {
            schema.put("type", "array");
            Type item = type instanceof ParameterizedType p ? p.getActualTypeArguments()[0]
                    : raw.isArray() ? raw.getComponentType() : Object.class;
            schema.set("items", schemaOf(json, item));
        } else if (raw.isRecord()) {
            schema.put("type", "object");
            ObjectNode properties = schema.putObject("properties");
            for (RecordComponent component : raw.getRecordComponents()) {
                properties.set(component.getName(), component.getType() == raw ? json.createObjectNode().put("type", "object")
                        : schemaOf(json, component.getGenericType()));
            }
        } else if (raw == InputStream.class || raw.getName().startsWith("jakarta.servlet.http.Part")) {
            schema.put("type", "string").put("format", "binary");
        } else {
            schema.put("type", "object");
        }
        return schema;
    }

    private static String words(String camel) {
        String spaced = camel.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
        return Character.toUpperCase(spaced.charAt(0)) + spaced.substring(1);
    }

    private static JsonNode loadExamples(ObjectMapper json) {
        try (InputStream in = ApiDocs.class.getResourceAsStream("examples.json")) {
            return in == null ? json.createObjectNode() : json.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("examples.json of the API description is not valid JSON", e);
        }
    }
}
