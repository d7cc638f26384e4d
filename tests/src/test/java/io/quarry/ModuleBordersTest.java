package io.quarry;

import io.quarry.testing.Sources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module borders of Quarry's main code, read from its sources. A module is a package directly under
 * {@code io.quarry} with its sub-packages ({@code qp} holds {@code qp.mbql}, {@code web} holds {@code web.param}).
 * A new dependency between modules fails here until it is added to {@link #ALLOWED} (and an edge that is no longer
 * used must be removed from it, so the table always shows the real graph).
 *
 * <p>The layers, bottom up: {@code core} (JSON, configuration, the caller identity, kernel value types) and
 * {@code sample}; {@code appdb} and {@code web} (the HTTP kernel: errors, parameters, access annotations); the domain
 * modules; {@code boot}, the composition root, which alone may see everything.
 */
class ModuleBordersTest {
    private static final Path MAIN = Sources.server("src/main/java/io/quarry");

    /** Module → the modules it may use. */
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("core", Set.of()),
            Map.entry("sample", Set.of()),
            Map.entry("outbound", Set.of()),
            Map.entry("schedule", Set.of("appdb", "core")),
            Map.entry("appdb", Set.of("core")),
            Map.entry("web", Set.of("appdb", "core")),
            Map.entry("ui", Set.of("web")),
            Map.entry("setting", Set.of("appdb", "core", "web")),
            Map.entry("mail", Set.of("core", "setting", "web")),
            Map.entry("driver", Set.of("appdb", "core", "setting", "web")),
            Map.entry("revision", Set.of("appdb", "core", "web")),
            Map.entry("collection", Set.of("appdb", "core", "web")),
            Map.entry("bookmark", Set.of("appdb", "collection", "core", "web")),
            Map.entry("warehouse", Set.of("appdb", "core", "driver", "permission", "sample", "web")),
            Map.entry("sync", Set.of("appdb", "core", "driver", "permission", "qp", "schedule", "warehouse", "web")),
            Map.entry("user", Set.of("appdb", "auth", "collection", "core", "mail", "setting", "web")),
            Map.entry("auth", Set.of("appdb", "core", "mail", "setting", "user", "web")),
            Map.entry("notification", Set.of("appdb", "auth", "card", "collection", "core", "dashboard", "mail", "outbound", "qp",
                    "render", "schedule", "setting", "user", "warehouse", "web")),
            Map.entry("util", Set.of("appdb", "auth", "core", "mail", "qp", "schedule", "setting", "sync", "warehouse", "web")),
            Map.entry("qp", Set.of("appdb", "core", "driver", "setting", "warehouse", "web")),
            Map.entry("permission", Set.of("appdb", "core", "web")),
            Map.entry("parameters", Set.of("core", "permission", "qp", "sync", "warehouse", "web")),
            Map.entry("savedquestion", Set.of("appdb", "card", "collection", "core", "driver", "permission", "warehouse")),
            Map.entry("search", Set.of("appdb", "collection", "core", "permission", "web")),
            Map.entry("card", Set.of("appdb", "collection", "core", "driver", "parameters", "permission", "qp", "revision", "setting",
                    "sync", "warehouse", "web")),
            Map.entry("dashboard", Set.of("appdb", "collection", "core", "parameters", "qp", "revision", "setting", "user",
                    "web")),
            Map.entry("publicsharing", Set.of("card", "core", "dashboard", "parameters", "qp", "setting", "web")),
            Map.entry("embed", Set.of("card", "core", "dashboard", "parameters", "publicsharing", "qp", "setting", "web")),
            Map.entry("segment", Set.of("appdb", "core", "permission", "revision", "user", "warehouse", "web")),
            Map.entry("snippet", Set.of("appdb", "collection", "core", "user", "web")),
            Map.entry("timeline", Set.of("appdb", "collection", "core", "dashboard", "user", "web")),
            Map.entry("setup", Set.of("appdb", "auth", "core", "driver", "mail", "setting", "sync", "user", "warehouse", "web")),
            Map.entry("action", Set.of("appdb", "card", "collection", "core", "driver", "outbound", "permission", "qp", "setting", "user",
                    "warehouse", "web")),
            Map.entry("render", Set.of("card", "core", "qp", "setting", "web")),
            Map.entry("persistence", Set.of("appdb", "card", "core", "driver", "qp", "schedule", "setting", "sync", "user", "warehouse",
                    "web")),
            Map.entry("assistant", Set.of("appdb", "card", "core", "driver", "permission", "qp", "setting", "warehouse", "web")),
            Map.entry("mcp", Set.of("card", "collection", "core", "dashboard", "permission", "qp", "render", "search", "setting",
                    "warehouse", "web")),
            Map.entry("boot", Set.of("*")));

    /**
     * The module cycles that stay, each with its reason. Any other cycle fails.
     */
    private static final Map<Set<String>, String> ALLOWED_CYCLES = Map.of(
            Set.of("auth", "user"),
            "Authentication reads users; user management hashes passwords and, in the same transaction as a password change "
                    + "or a deactivation, revokes the user's sessions, and answers a password change with a new session.");

    /**
     * A module's mappers are its own: other modules go through its services. Boot registers every mapper with MyBatis.
     * These uses by other modules remain, each with its reason; a new one fails.
     */
    private static final Map<String, String> MAPPER_USES_ALLOWED = Map.ofEntries(
            Map.entry("sync -> warehouse.WarehouseMapper", "sync writes the warehouse metadata it discovers"),
            Map.entry("auth -> user.UserMapper", "auth and user form one cycle (see ALLOWED_CYCLES)"),
            Map.entry("user -> auth.SessionMapper", "auth and user form one cycle (see ALLOWED_CYCLES)"),
            Map.entry("setup -> user.UserMapper", "setup creates the first user in its own transaction"),
            Map.entry("setup -> setting.SettingMapper", "setup stores the first settings in the same transaction"));

    private static final Pattern PACKAGE = Pattern.compile("^package io\\.quarry\\.(\\w+)[\\w.]*;", Pattern.MULTILINE);
    /** Imports and fully qualified names in code alike (comments are dropped first: a Javadoc link is no dependency). */
    private static final Pattern REFERENCE = Pattern.compile("\\bio\\.quarry\\.(\\w+)((?:\\.[a-z]\\w*)*)\\.([A-Z]\\w*)");
    private static final Pattern NEW_RESOURCE = Pattern.compile("\\bnew (\\w+Resource)\\(");

    private static Map<String, Set<String>> dependencies;
    /** "module -> otherModule.Class" for every class of another module that a module names. */
    private static Set<String> classUses;
    private static Map<Path, String> sources;

    @BeforeAll
    static void readSources() throws IOException {
        dependencies = new TreeMap<>();
        classUses = new TreeSet<>();
        sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> {
                try {
                    sources.put(f, withoutComments(Files.readString(f)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        for (var source : sources.entrySet()) {
            Matcher pkg = PACKAGE.matcher(source.getValue());
            assertTrue(pkg.find(), "no io.quarry package in " + source.getKey());
            String module = pkg.group(1);
            Set<String> uses = dependencies.computeIfAbsent(module, m -> new TreeSet<>());
            Matcher ref = REFERENCE.matcher(source.getValue().substring(pkg.end()));
            while (ref.find()) {
                String other = ref.group(1);
                if (!other.equals(module)) {
                    uses.add(other);
                    classUses.add(module + " -> " + other + "." + ref.group(3));
                }
            }
        }
    }

    @Test
    void everyModuleIsInTheTable() {
        assertEquals(new TreeSet<>(ALLOWED.keySet()), new TreeSet<>(dependencies.keySet()),
                "ALLOWED must name exactly the modules under " + MAIN);
    }

    @Test
    void modulesUseOnlyWhatTheTableAllows() {
        List<String> forbidden = new ArrayList<>();
        List<String> unused = new ArrayList<>();
        for (var entry : dependencies.entrySet()) {
            Set<String> allowed = ALLOWED.getOrDefault(entry.getKey(), Set.of());
            if (allowed.contains("*")) {
                continue;
            }
            for (String used : entry.getValue()) {
                if (!allowed.contains(used)) {
                    forbidden.add(entry.getKey() + " -> " + used);
                }
            }
            for (String listed : allowed) {
                if (!entry.getValue().contains(listed)) {
                    unused.add(entry.getKey() + " -> " + listed);
                }
            }
        }
        assertEquals(List.of(), forbidden, "dependencies that ModuleBordersTest.ALLOWED does not allow");
        assertEquals(List.of(), unused, "edges listed in ModuleBordersTest.ALLOWED that no code uses any more: remove them");
    }

    @Test
    void noCyclesButTheListedOnes() {
        List<Set<String>> cycles = stronglyConnected(dependencies);
        Set<Set<String>> unexpected = new java.util.HashSet<>(cycles);
        unexpected.removeAll(ALLOWED_CYCLES.keySet());
        assertEquals(Set.of(), unexpected, "module cycles (each module can reach the others)");
        Set<Set<String>> gone = new java.util.HashSet<>(ALLOWED_CYCLES.keySet());
        gone.removeAll(cycles);
        assertEquals(Set.of(), gone, "cycles listed in ALLOWED_CYCLES that are gone: remove them");
    }

    @Test
    void mappersArePrivateToTheirModule() {
        List<String> leaks = new ArrayList<>();
        for (String use : classUses) {
            if (use.endsWith("Mapper") && !use.startsWith("boot ->") && !MAPPER_USES_ALLOWED.containsKey(use)) {
                leaks.add(use);
            }
        }
        assertEquals(List.of(), leaks, "mappers used outside their module (go through the module's services)");
        List<String> stale = new ArrayList<>(MAPPER_USES_ALLOWED.keySet());
        stale.removeAll(classUses);
        assertEquals(List.of(), stale, "MAPPER_USES_ALLOWED entries no code needs any more: remove them");
    }

    @Test
    void resourcesNeverConstructOtherResources() {
        List<String> found = new ArrayList<>();
        for (var source : sources.entrySet()) {
            String own = source.getKey().getFileName().toString().replace(".java", "");
            Matcher m = NEW_RESOURCE.matcher(source.getValue());
            while (m.find()) {
                if (!m.group(1).equals(own)) {
                    found.add(own + " constructs " + m.group(1));
                }
            }
        }
        assertEquals(List.of(), found, "a resource's collaborators are services, built once by boot");
    }

    @Test
    void onlyBootSeesResourcesOfOtherModules() {
        List<String> found = new ArrayList<>();
        for (String use : classUses) {
            if (use.endsWith("Resource") && !use.startsWith("boot ->")) {
                found.add(use);
            }
        }
        assertEquals(List.of(), found, "resources are registered by boot and used by nobody else");
    }

    /** The source with its comments blanked out, string and character literals kept as they are. */
    static String withoutComments(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
                while (i < n && source.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (c == '"' || c == '\'') {
                int start = i++;
                boolean textBlock = c == '"' && source.startsWith("\"\"\"", start);
                if (textBlock) {
                    int end = source.indexOf("\"\"\"", start + 3);
                    i = end < 0 ? n : end + 3;
                } else {
                    while (i < n && source.charAt(i) != c) {
                        i += source.charAt(i) == '\\' ? 2 : 1;
                    }
                    i = Math.min(n, i + 1);
                }
                out.append(source, start, i);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** Tarjan's algorithm: the sets of two or more modules that can each reach the others. */
    private static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new java.util.HashSet<>();
        List<Set<String>> result = new ArrayList<>();
        int[] counter = {0};
        for (String node : graph.keySet()) {
            if (!index.containsKey(node)) {
                connect(node, graph, index, low, stack, onStack, result, counter);
            }
        }
        return result;
    }

    private static void connect(String node, Map<String, Set<String>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> result, int[] counter) {
        index.put(node, counter[0]);
        low.put(node, counter[0]);
        counter[0]++;
        stack.push(node);
        onStack.add(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            if (!index.containsKey(next)) {
                connect(next, graph, index, low, stack, onStack, result, counter);
                low.put(node, Math.min(low.get(node), low.get(next)));
            } else if (onStack.contains(next)) {
                low.put(node, Math.min(low.get(node), index.get(next)));
            }
        }
        if (low.get(node).equals(index.get(node))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                onStack.remove(member);
                component.add(member);
            } while (!member.equals(node));
            if (component.size() > 1) {
                result.add(Set.copyOf(component));
            }
        }
    }
}
