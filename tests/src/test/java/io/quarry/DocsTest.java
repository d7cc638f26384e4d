package io.quarry;

import io.quarry.testing.Sources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README and {@code docs/*.md} against the checkout (issue #28): the README is a front door — at most
 * {@value #README_MAX_LINES} lines, starting with the two set-up commands, with a map of every module naming a real
 * entry class — and every relative link, every {@code io.quarry...} class or package, every {@code server/...},
 * {@code tests/...}, {@code bench/...}, {@code tools/...} or {@code docs/...} path and every test class
 * ({@code ...IT}, {@code ...Test}) the documents name exists. A rename or a move that leaves a document behind fails
 * here. {@link #theChecksFindWhatIsWrong} proves each check can fail.
 */
class DocsTest {
    static final int README_MAX_LINES = 150;
    private static final List<String> SETUP_COMMANDS = List.of("mvn jetty:run", "mvn -B verify");

    private static final Path REPO = Sources.repo("");
    private static final Path MAIN_JAVA = Sources.server("src/main/java");
    private static final Path TEST_JAVA = REPO.resolve("tests/src/test/java");
    private static final Path MODULES = MAIN_JAVA.resolve("io/quarry");

    /** A Markdown link or image: {@code [text](target)}, {@code ![alt](target "title")}. */
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    /** {@code io.quarry.qp.Warehouses}, {@code io.quarry.driver.{h2,postgres}}, {@code io.quarry.qp.mbql}. */
    private static final Pattern JAVA_NAME = Pattern.compile(
            "(?<![\\w.])io\\.quarry((?:\\.(?:\\{[A-Za-z0-9_,]+\\}|[A-Za-z_][A-Za-z0-9_]*))*)");
    /** A path from the checkout's root. */
    private static final Pattern REPO_PATH = Pattern.compile("(?<![\\w./-])((?:server|tests|bench|tools|docs)/[A-Za-z0-9_./{},*<>-]*)");
    /** A test class named in backticks. */
    private static final Pattern TEST_CLASS = Pattern.compile("`([A-Z][A-Za-z0-9]*(?:IT|Test))`");
    /** A row of the README's module map: {@code | `qp` | what it does | `QueryModule` |}. */
    private static final Pattern MODULE_ROW = Pattern.compile("(?m)^\\| `([a-z]+)` \\|.*\\| `([A-Z][A-Za-z0-9]*)` \\|\\s*$");

    @Test
    void theReadmeIsAFrontDoor() throws IOException {
        String readme = Files.readString(REPO.resolve("README.md"));
        assertEquals(List.of(), frontDoorProblems(readme));
    }

    @Test
    void theModuleMapNamesEveryModuleAndARealEntryClass() throws IOException {
        String readme = Files.readString(REPO.resolve("README.md"));
        assertEquals(List.of(), moduleMapProblems(readme, modules()));
    }

    @Test
    void everyRelativeLinkPointsToAnExistingFile() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path doc : documents()) {
            problems.addAll(linkProblems(REPO.relativize(doc).toString(), Files.readString(doc), doc.getParent()));
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void everyClassPackageAndPathNamedExists() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path doc : documents()) {
            problems.addAll(nameProblems(REPO.relativize(doc).toString(), Files.readString(doc)));
        }
        assertEquals(List.of(), problems);
    }

    /** A document with one mistake of each kind: every check names its mistake, and the real documents pass them. */
    @Test
    void theChecksFindWhatIsWrong() throws IOException {
        String bad = """
                # Quarry

                ```
                mvn jetty:run
                mvn verify
                ```

                | Module | What | Entry |
                |---|---|---|
                | `qp` | queries | `NoSuchQueryModule` |

                See [the guide](docs/no-such-page.md), [running](docs/running.md#no-such-heading) and
                `io.quarry.qp.NoSuchRunner`, `io.quarry.nosuchmodule`, `io.quarry.driver.{h2,nosuchengine}`,
                `server/src/main/java/io/quarry/NoSuch.java` and `NoSuchThingIT`.
                """ + "line\n".repeat(README_MAX_LINES);
        List<String> problems = new ArrayList<>();
        problems.addAll(frontDoorProblems(bad));
        problems.addAll(moduleMapProblems(bad, modules()));
        problems.addAll(linkProblems("BAD.md", bad, REPO));
        problems.addAll(nameProblems("BAD.md", bad));
        String all = String.join("\n", problems);
        for (String expected : List.of("lines", "[mvn jetty:run, mvn verify]", "NoSuchQueryModule", "no row for module",
                "docs/no-such-page.md", "#no-such-heading", "io.quarry.qp.NoSuchRunner", "io.quarry.nosuchmodule",
                "io.quarry.driver.nosuchengine", "server/src/main/java/io/quarry/NoSuch.java", "NoSuchThingIT")) {
            assertTrue(all.contains(expected), "no problem reported for " + expected + " in:\n" + all);
        }
        assertFalse(all.contains("io.quarry.driver.h2"), all);
        assertFalse(all.contains("docs/running.md:"), all);

        // what exists passes
        String good = """
                # Quarry

                ```
                mvn jetty:run   # run it
                mvn -B verify   # test it
                ```

                [Running](docs/running.md#setting-up-a-fresh-instance), `io.quarry.qp.Warehouses#read`,
                `io.quarry.qp.mbql`, `io.quarry.testing.Sources`, `server/src/main/webapp/ui`, `server/target/quarry.war`,
                `ModuleBordersTest`.
                """;
        assertEquals(List.of(), frontDoorProblems(good));
        assertEquals(List.of(), linkProblems("GOOD.md", good, REPO));
        assertEquals(List.of(), nameProblems("GOOD.md", good));
    }

    // ---- the checks, on a document's text

    static List<String> frontDoorProblems(String readme) {
        List<String> problems = new ArrayList<>();
        long lines = readme.lines().count();
        if (lines > README_MAX_LINES) {
            problems.add("README.md has " + lines + " lines, more than " + README_MAX_LINES);
        }
        List<String> text = readme.lines().filter(l -> !l.isBlank()).toList();
        if (text.size() < 2 || !text.get(0).startsWith("# ") || !text.get(1).startsWith("```")) {
            problems.add("README.md does not start with its title and then the set-up commands' code block");
        }
        List<String> commands = commands(readme);
        List<String> first = commands.subList(0, Math.min(2, commands.size()));
        if (!first.equals(SETUP_COMMANDS)) {
            problems.add("README.md's first two commands are " + first + ", not " + SETUP_COMMANDS);
        }
        return problems;
    }

    static List<String> moduleMapProblems(String readme, Set<String> modules) {
        List<String> problems = new ArrayList<>();
        Set<String> mapped = new TreeSet<>();
        Matcher row = MODULE_ROW.matcher(readme);
        while (row.find()) {
            String module = row.group(1);
            String entry = row.group(2);
            mapped.add(module);
            Path dir = MODULES.resolve(module);
            if (!Files.isDirectory(dir)) {
                problems.add("module map: no package io.quarry." + module);
            } else if (!containsFile(dir, entry + ".java")) {
                problems.add("module map: no class " + entry + " in io.quarry." + module);
            }
        }
        for (String module : modules) {
            if (!mapped.contains(module)) {
                problems.add("module map: no row for module " + module);
            }
        }
        return problems;
    }

    static List<String> linkProblems(String name, String markdown, Path dir) {
        List<String> problems = new ArrayList<>();
        Matcher link = LINK.matcher(withoutCodeBlocks(markdown));
        while (link.find()) {
            String target = link.group(1);
            if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
                continue; // http:, https:, mailto:
            }
            String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
            String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
            Path resolved = file.isEmpty() ? null : dir.resolve(file).normalize();
            if (resolved != null && !Files.exists(resolved)) {
                problems.add(name + ": link to " + target + ": no file " + resolved);
                continue;
            }
            if (anchor != null && (resolved == null || resolved.toString().endsWith(".md"))) {
                String text = resolved == null ? markdown : read(resolved);
                if (!headingAnchors(text).contains(anchor)) {
                    problems.add(name + ": link to " + target + ": no heading #" + anchor);
                }
            }
        }
        return problems;
    }

    static List<String> nameProblems(String name, String markdown) {
        List<String> problems = new ArrayList<>();
        Matcher java = JAVA_NAME.matcher(markdown);
        while (java.find()) {
            for (String expanded : expandBraces("io.quarry" + java.group(1))) {
                if (!javaNameExists(expanded)) {
                    problems.add(name + ": no class or package " + expanded);
                }
            }
        }
        Matcher path = REPO_PATH.matcher(markdown);
        while (path.find()) {
            String p = path.group(1).replaceAll("[.,]+$", "");
            if (p.contains("target") || p.contains("*") || p.contains("<") || p.contains("{")) {
                continue; // built files, globs and placeholders
            }
            if (!Files.exists(REPO.resolve(p))) {
                problems.add(name + ": no file or directory " + p);
            }
        }
        Matcher test = TEST_CLASS.matcher(markdown);
        while (test.find()) {
            if (!containsFile(TEST_JAVA, test.group(1) + ".java")) {
                problems.add(name + ": no test class " + test.group(1));
            }
        }
        return problems;
    }

    // ---- helpers

    /** {@code io.quarry.a.b.Class.member}: the packages must be directories, the class a source file, in main or tests. */
    private static boolean javaNameExists(String name) {
        String[] parts = name.split("\\.");
        StringBuilder dir = new StringBuilder();
        String type = null;
        for (String part : parts) {
            if (Character.isUpperCase(part.charAt(0))) {
                type = part;
                break;
            }
            dir.append(dir.length() == 0 ? "" : "/").append(part);
        }
        for (Path root : List.of(MAIN_JAVA, TEST_JAVA)) {
            Path pkg = root.resolve(dir.toString());
            if (type == null ? Files.isDirectory(pkg) : Files.isRegularFile(pkg.resolve(type + ".java"))) {
                return true;
            }
        }
        return false;
    }

    /** {@code io.quarry.driver.{h2,duckdb}.X} → {@code io.quarry.driver.h2.X}, {@code io.quarry.driver.duckdb.X}. */
    private static List<String> expandBraces(String name) {
        int open = name.indexOf('{');
        if (open < 0) {
            return List.of(name);
        }
        int close = name.indexOf('}', open);
        List<String> names = new ArrayList<>();
        for (String option : name.substring(open + 1, close).split(",")) {
            names.addAll(expandBraces(name.substring(0, open) + option + name.substring(close + 1)));
        }
        return names;
    }

    /** The shell commands of the fenced code blocks, in order, without comments. */
    private static List<String> commands(String markdown) {
        List<String> commands = new ArrayList<>();
        boolean inBlock = false;
        for (String line : markdown.lines().toList()) {
            if (line.trim().startsWith("```")) {
                inBlock = !inBlock;
                continue;
            }
            String command = line.replaceAll("(^|\\s)#.*$", "").trim();
            if (inBlock && !command.isEmpty()) {
                commands.add(command.replaceAll("\\s+", " "));
            }
        }
        return commands;
    }

    private static String withoutCodeBlocks(String markdown) {
        return markdown.replaceAll("(?ms)^\\s*```.*?^\\s*```[^\\n]*$", "");
    }

    /** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as dashes. */
    private static Set<String> headingAnchors(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        for (String line : withoutCodeBlocks(markdown).lines().toList()) {
            if (line.matches("^#{1,6} .*")) {
                String heading = line.replaceFirst("^#+ ", "").trim().toLowerCase(Locale.ROOT);
                anchors.add(heading.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
            }
        }
        return anchors;
    }

    private static boolean containsFile(Path dir, String fileName) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().equals(fileName));
        } catch (IOException e) {
            return false;
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The modules: the packages directly under {@code io.quarry}. */
    private static Set<String> modules() throws IOException {
        try (Stream<Path> dirs = Files.list(MODULES)) {
            return dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).collect(TreeSet::new, Set::add, Set::addAll);
        }
    }

    /** README.md and every docs/*.md. */
    private static List<Path> documents() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(REPO.resolve("README.md")));
        try (Stream<Path> files = Files.list(REPO.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }
}
