package io.quarry.web.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.boot.Resources;
import io.quarry.core.Json;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every resource method of the API is in /api/docs/openapi.json, with its path and query parameters. */
class ApiDocsTest {
    private final JsonNode document = new ApiDocs(Resources.ALL, Json.MAPPER).document();

    @Test
    void everyResourceMethodIsDescribedWithItsParameters() {
        List<String> missing = new ArrayList<>();
        int methods = 0;
        for (Class<?> resource : Resources.ALL) {
            for (Method method : resource.getMethods()) {
                String verb = verb(method);
                if (verb == null) {
                    continue;
                }
                methods++;
                String path = path(resource, method);
                JsonNode op = document.path("paths").path(path).path(verb);
                if (op.isMissingNode()) {
                    missing.add(verb.toUpperCase() + " " + path + " (" + resource.getSimpleName() + "." + method.getName() + ")");
                    continue;
                }
                Set<String> described = new HashSet<>();
                op.path("parameters").forEach(p -> described.add(p.get("in").asText() + ":" + p.get("name").asText()));
                for (Parameter parameter : method.getParameters()) {
                    PathParam pathParam = parameter.getAnnotation(PathParam.class);
                    QueryParam queryParam = parameter.getAnnotation(QueryParam.class);
                    if (pathParam != null && !described.contains("path:" + pathParam.value())) {
                        missing.add(verb + " " + path + " path parameter " + pathParam.value());
                    }
                    if (queryParam != null && !described.contains("query:" + queryParam.value())) {
                        missing.add(verb + " " + path + " query parameter " + queryParam.value());
                    }
                }
            }
        }
        assertTrue(methods > 100, "the resources were read: " + methods);
        assertEquals(List.of(), missing, "missing from the API description");
    }

    @Test
    void isOpenApi31WithTypedParametersAndExamples() {
        assertEquals("3.1.0", document.get("openapi").asText());
        JsonNode card = document.path("paths").path("/api/card/{id}").path("get");
        JsonNode id = card.path("parameters").get(0);
        assertEquals("id", id.get("name").asText());
        assertFalse(id.path("schema").path("type").asText().isEmpty());
        JsonNode dataset = document.path("paths").path("/api/dataset").path("post");
        assertTrue(dataset.path("requestBody").path("content").path("application/json").has("example"), dataset.toString());
        assertEquals("public", document.path("paths").path("/api/session").path("post").path("x-quarry-access").asText());
    }

    @Test
    void jsonAndFormVariantsOfOneEndpointShareAnOperation() {
        JsonNode content = document.path("paths").path("/api/dataset/{export-format}").path("post").path("requestBody").path("content");
        assertTrue(content.has("application/json") && content.has("application/x-www-form-urlencoded"), content.toString());
    }

    @Test
    void everyExampleBelongsToAnEndpoint() throws Exception {
        JsonNode examples = Json.MAPPER.readTree(ApiDocs.class.getResourceAsStream("examples.json"));
        for (Map.Entry<String, JsonNode> example : (Iterable<Map.Entry<String, JsonNode>>) examples::fields) {
            String[] verbPath = example.getKey().split(" ", 2);
            assertFalse(document.path("paths").path(verbPath[1]).path(verbPath[0].toLowerCase()).isMissingNode(), example.getKey());
        }
    }

    /**
     * The document against the routes Jersey itself builds from the registered classes ({@code Resource.from}, its
     * resource model: class paths, sub-resource methods, verbs): the same set of (verb, path), each way. A route given
     * as a list of words ({@code {action: persist|unpersist}}) must be a documented enum of those words.
     */
    @Test
    void theDocumentListsExactlyTheRoutesJerseyServes() {
        java.util.TreeSet<String> served = new java.util.TreeSet<>();
        List<String> problems = new ArrayList<>();
        for (Class<?> resource : Resources.ALL) {
            org.glassfish.jersey.server.model.Resource model = org.glassfish.jersey.server.model.Resource.from(resource);
            assertTrue(model != null, resource + " is a resource");
            routes(model, "", served, problems);
        }
        java.util.TreeSet<String> documented = new java.util.TreeSet<>();
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fieldNames()
                .forEachRemaining(verb -> documented.add(verb.toUpperCase() + " " + path.getKey())));
        java.util.TreeSet<String> undocumented = new java.util.TreeSet<>(served);
        undocumented.removeAll(documented);
        java.util.TreeSet<String> notServed = new java.util.TreeSet<>(documented);
        notServed.removeAll(served);
        assertEquals(List.of(), new ArrayList<>(undocumented), "served but not in openapi.json");
        assertEquals(List.of(), new ArrayList<>(notServed), "in openapi.json but not served");
        assertEquals(List.of(), problems);
        assertTrue(served.size() > 300, served.size() + " routes");
        // the spec's paths that were once missing
        for (String route : List.of("POST /api/card/{id}/persist", "POST /api/card/{id}/refresh", "POST /api/card/{id}/unpersist",
                "POST /api/database/{id}/persist", "POST /api/database/{id}/unpersist", "GET /api/database/{id}/datasets",
                "GET /api/database/{id}/datasets/{schema}", "GET /api/activity/recent_views", "GET /api/activity/popular_items")) {
            assertTrue(documented.contains(route), route);
        }
    }

    private void routes(org.glassfish.jersey.server.model.Resource resource, String parent, java.util.Set<String> served,
                        List<String> problems) {
        String here = parent + "/" + resource.getPath().replaceAll("^/+|/+$", "");
        for (org.glassfish.jersey.server.model.ResourceMethod method : resource.getResourceMethods()) {
            String path = ("/api" + here).replaceAll("/+$", "").replaceAll("//+", "/");
            String openApi = path.replaceAll("\\{\\s*([^}:\\s]+)\\s*:(?:[^{}]|\\{[^{}]*})*}", "{$1}");
            served.add(method.getHttpMethod() + " " + openApi);
            java.util.regex.Matcher words = Pattern.compile("\\{\\s*([^}:\\s]+)\\s*:\\s*([\\w-]+(?:\\|[\\w-]+)+)\\s*}").matcher(path);
            while (words.find()) {
                JsonNode parameters = document.path("paths").path(openApi).path(method.getHttpMethod().toLowerCase()).path("parameters");
                List<String> listed = new ArrayList<>();
                parameters.forEach(p -> {
                    if (p.path("name").asText().equals(words.group(1))) {
                        p.path("schema").path("enum").forEach(v -> listed.add(v.asText()));
                    }
                });
                if (!listed.equals(List.of(words.group(2).split("\\|")))) {
                    problems.add(method.getHttpMethod() + " " + openApi + ": {" + words.group(1) + "} is not the enum " + words.group(2));
                }
            }
        }
        if (resource.getResourceLocator() != null) {
            problems.add(here + ": a sub-resource locator (its routes are not known before a request)");
        }
        for (org.glassfish.jersey.server.model.Resource child : resource.getChildResources()) {
            routes(child, here, served, problems);
        }
    }

    private static String verb(Method method) {
        if (method.isAnnotationPresent(GET.class)) {
            return "get";
        }
        if (method.isAnnotationPresent(POST.class)) {
            return "post";
        }
        if (method.isAnnotationPresent(PUT.class)) {
            return "put";
        }
        if (method.isAnnotationPresent(DELETE.class)) {
            return "delete";
        }
        if (method.isAnnotationPresent(PATCH.class)) {
            return "patch";
        }
        return null;
    }

    /** The path as OpenAPI writes it: {@code /api/<class path>/<method path>}, templates without their patterns. */
    private static String path(Class<?> resource, Method method) {
        StringBuilder path = new StringBuilder("/api");
        for (Path part : new Path[]{resource.getAnnotation(Path.class), method.getAnnotation(Path.class)}) {
            if (part != null) {
                for (String segment : part.value().split("/")) {
                    if (!segment.isEmpty()) {
                        path.append('/').append(segment);
                    }
                }
            }
        }
        return path.toString().replaceAll("\\{\\s*([^}:\\s]+)\\s*:[^}]*}", "{$1}");
    }
}
