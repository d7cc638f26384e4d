package io.quarry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.boot.Resources;
import io.quarry.core.Json;
import io.quarry.testing.Sources;
import io.quarry.web.docs.ApiDocs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * README's "Not yet" section lists every Metabase v0.63 route of {@value #ROUTES} that {@code /api/docs/openapi.json}
 * (read from the registered resources, as the server builds it) does not serve. The test fails when the section is
 * not what it computes, and prints the section it should be. To rewrite the section in place (after adding
 * endpoints): {@code mvn -B -o test -pl server,tests -Dtest=ReadmeNotYetTest -Dquarry.readme.write=true}.
 */
class ReadmeNotYetTest {
    static final String ROUTES = "tests/src/test/resources/io/quarry/metabase-v0.63-routes.txt";
    private static final String HEADING = "## Not yet";

    /** One route: its verb and its path segments, a parameter as {@code null}. */
    record Route(String verb, String path, List<String> segments) {
        static Route parse(String verb, String path, boolean openApi) {
            List<String> segments = new ArrayList<>();
            for (String segment : path.replaceAll("^/+|/+$", "").split("/")) {
                boolean parameter = openApi ? segment.contains("{") : segment.contains(":");
                segments.add(parameter ? null : segment);
            }
            return new Route(verb, path, segments);
        }
    }

    @Test
    void theReadmeListsEveryV063RouteNotServed() throws IOException {
        String expected = section(notServed(), routes().size());
        Path readmePath = Sources.repo("README.md");
        String readme = Files.readString(readmePath);
        String actual = currentSection(readme);
        if (!expected.equals(actual) && Boolean.getBoolean("quarry.readme.write")) {
            Files.writeString(readmePath, withSection(readme, expected));
            actual = expected;
        }
        assertEquals(expected, actual, "README.md's \"" + HEADING + "\" section should be (regenerate with -Dquarry.readme.write=true):\n\n"
                + expected);
    }

    @Test
    void routesAreMatchedByTheirShape() {
        Map<String, String> patterns = Map.of("/api/database/{id}/datasets#id", "-1337");
        List<Route> served = List.of(Route.parse("GET", "/api/card/{id}", true), Route.parse("GET", "/api/collection/root", true),
                Route.parse("GET", "/api/database/{id}/datasets", true));
        assertTrue(matched(Route.parse("GET", "/api/card/:card-id", false), served, patterns));
        assertTrue(matched(Route.parse("GET", "/api/collection/root", false), served, patterns));
        assertTrue(matched(Route.parse("GET", "/api/database/-1337/datasets", false), served, patterns));
        assertTrue(!matched(Route.parse("GET", "/api/card/embeddable", false), served, patterns), "a literal is not an {id}");
        assertTrue(!matched(Route.parse("POST", "/api/card/:id", false), served, patterns), "the verb counts");
        assertTrue(!matched(Route.parse("GET", "/api/database/7/datasets", false), served, patterns), "the pattern counts");
    }

    /** The routes of the list that the API description does not serve, in the list's order. */
    static List<Route> notServed() throws IOException {
        JsonNode document = new ApiDocs(Resources.ALL, Json.MAPPER).document();
        List<Route> served = new ArrayList<>();
        Map<String, String> patterns = new LinkedHashMap<>();
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(operation -> {
            served.add(Route.parse(operation.getKey().toUpperCase(), path.getKey(), true));
            operation.getValue().path("parameters").forEach(p -> {
                if (p.path("schema").has("pattern")) {
                    patterns.put(path.getKey() + "#" + p.path("name").asText(), p.path("schema").path("pattern").asText());
                }
            });
        }));
        List<Route> missing = new ArrayList<>();
        for (Route route : routes()) {
            if (!matched(route, served, patterns)) {
                missing.add(route);
            }
        }
        return missing;
    }

    /**
     * Whether a served route answers the listed one: same verb and length, each segment equal, or a parameter of the
     * list met by a parameter served, or a literal of the list met by a served parameter whose pattern takes it.
     */
    static boolean matched(Route route, List<Route> served, Map<String, String> patterns) {
        for (Route candidate : served) {
            if (!candidate.verb().equals(route.verb()) || candidate.segments().size() != route.segments().size()) {
                continue;
            }
            boolean all = true;
            String[] openApi = candidate.path().replaceAll("^/+|/+$", "").split("/");
            for (int i = 0; i < route.segments().size() && all; i++) {
                String listed = route.segments().get(i);
                String servedSegment = candidate.segments().get(i);
                if (servedSegment != null) {
                    all = servedSegment.equals(listed);
                } else if (listed != null) {
                    String pattern = patterns.get(candidate.path() + "#" + openApi[i].replaceAll("[{}]", ""));
                    all = pattern != null && listed.matches(pattern);
                }
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    static List<Route> routes() throws IOException {
        List<Route> routes = new ArrayList<>();
        for (String line : Files.readAllLines(Sources.repo(ROUTES))) {
            String text = line.replaceAll("#.*$", "").trim();
            if (!text.isEmpty()) {
                String[] verbPath = text.split("\\s+");
                routes.add(Route.parse(verbPath[0], verbPath[1], false));
            }
        }
        return routes;
    }

    /** The section as it should be: one line per first path segment, its routes in the list's order. */
    static String section(List<Route> missing, int listed) {
        Map<String, List<String>> byArea = new TreeMap<>();
        for (Route route : missing) {
            String rest = route.path().replaceFirst("^/api/", "");
            String area = rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : rest;
            String tail = rest.substring(area.length()).replaceFirst("^/", "");
            byArea.computeIfAbsent(area, k -> new ArrayList<>()).add("`" + route.verb() + (tail.isEmpty() ? "" : " " + tail) + "`");
        }
        StringBuilder out = new StringBuilder(HEADING).append("\n\n");
        out.append("The Metabase v0.63 endpoints Quarry does not serve yet: ").append(missing.size()).append(" of the ").append(listed)
                .append(" routes in\n").append(ROUTES).append(" (the file says where they come from), checked against\n")
                .append("`/api/docs/openapi.json` by `ReadmeNotYetTest` (`-Dquarry.readme.write=true` rewrites this section).\n\n");
        byArea.forEach((area, routes) -> out.append("- `/api/").append(area).append("`: ").append(String.join(", ", routes)).append('\n'));
        return out.toString();
    }

    /** The README's section from its heading to the next heading (or the end), or "" when it has none. */
    static String currentSection(String readme) {
        int start = readme.indexOf("\n" + HEADING + "\n");
        if (start < 0) {
            return "";
        }
        int end = readme.indexOf("\n## ", start + 1);
        return readme.substring(start + 1, end < 0 ? readme.length() : end + 1).replaceAll("\n+$", "\n");
    }

    /** The README with its section replaced, or added before "## Documentation". */
    static String withSection(String readme, String section) {
        String current = currentSection(readme);
        if (!current.isEmpty()) {
            int start = readme.indexOf("\n" + HEADING + "\n") + 1;
            int end = readme.indexOf("\n## ", start);
            return readme.substring(0, start) + section + (end < 0 ? "" : "\n" + readme.substring(end + 1));
        }
        int documentation = readme.indexOf("\n## Documentation\n");
        return documentation < 0 ? readme.stripTrailing() + "\n\n" + section
                : readme.substring(0, documentation + 1) + section + "\n" + readme.substring(documentation + 1);
    }
}
