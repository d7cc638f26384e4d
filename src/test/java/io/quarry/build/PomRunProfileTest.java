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
 * {@code mvn -Drun jetty:run} resolves no test-scoped artifact and compiles no test: every test dependency sits in the
 * {@code tests} profile, which {@code -Drun} switches off, and the {@code run} profile skips test compilation.
 * (jetty:run itself always asks for the test scope; with the profile off that scope is empty.)
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
