package io.quarry.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Sources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue #25's one door, read from the main sources: only the engines ({@code driver}) and the query runner's door
 * ({@code qp.Warehouses}, {@code qp.WarehouseSession}, {@code qp.QueryExecutor}) open or hold warehouse connections,
 * and no engine's name is spelled outside {@code driver}. The application database is not a warehouse: its classes
 * are listed below with the reason, and a new file outside those places fails here.
 */
class WarehouseDoorTest {
    private static final Path MAIN = Sources.server("src/main/java/io/quarry");

    /** What opens, holds or borrows a JDBC connection or pool. */
    private static final Pattern CONNECTS = Pattern.compile(
            "\\bDriverManager\\b|\\bjavax\\.sql\\.DataSource\\b|\\bDataSource\\s+\\w+\\s*[,;=)]|\\bDatabasePools\\b|\\.getConnection\\(");

    /** The door itself. */
    private static final Set<String> DOOR = Set.of("qp/Warehouses.java", "qp/WarehouseSession.java", "qp/QueryExecutor.java");

    /** Connections that are not to a warehouse, file by file. */
    private static final Map<String, String> NOT_A_WAREHOUSE = Map.of(
            "sample/SampleDatabase.java", "writes the bundled sample file before it is a connected database (and opens it for tests)",
            "schedule/ClusterJobs.java", "the application database's advisory locks",
            "util/Diagnostics.java", "the application database's product name",
            "boot/QuarryListener.java", "the application database; deregisters JDBC drivers at shutdown",
            "boot/Quarry.java", "the composition root builds the warehouse pools and hands them to the door only");

    /** Engine names spelled outside {@code driver}, file by file: all of them about the application database. */
    private static final Map<String, String> ENGINE_NAMES_ALLOWED = Map.of(
            "core/AppConfig.java", "MB_DB_TYPE names the application database's kind",
            "util/Diagnostics.java", "the application database's kind",
            "sample/SampleDatabase.java", "the engine the bundled sample is (SampleDatabase.ENGINE, read by warehouse)");

    @Test
    void onlyTheEnginesAndTheDoorOpenWarehouseConnections() throws IOException {
        Map<String, String> offenders = new TreeMap<>();
        for (Path file : sources()) {
            String rel = relative(file);
            if (rel.startsWith("driver/") || rel.startsWith("appdb/") || DOOR.contains(rel) || NOT_A_WAREHOUSE.containsKey(rel)) {
                continue;
            }
            Matcher m = CONNECTS.matcher(code(file));
            if (m.find()) {
                offenders.put(rel, m.group());
            }
        }
        assertEquals(Map.of(), offenders, "classes outside driver/ and the runner's door that open warehouse connections");
    }

    @Test
    void noEngineNameOutsideTheDrivers() throws IOException {
        Set<String> engines = engineNames();
        assertTrue(engines.containsAll(Set.of("h2", "postgres", "mysql", "duckdb", "sqlite")), engines.toString());
        Pattern literal = Pattern.compile("\"([A-Za-z0-9_-]+)\"");
        Map<String, Set<String>> offenders = new TreeMap<>();
        for (Path file : sources()) {
            String rel = relative(file);
            if (rel.startsWith("driver/") || rel.startsWith("appdb/") || ENGINE_NAMES_ALLOWED.containsKey(rel)) {
                continue;
            }
            Matcher m = literal.matcher(code(file));
            while (m.find()) {
                if (engines.contains(m.group(1).toLowerCase(Locale.ROOT))) {
                    offenders.computeIfAbsent(rel, k -> new TreeSet<>()).add(m.group());
                }
            }
        }
        assertEquals(Map.of(), offenders, "engine names outside driver/");
    }

    @Test
    void theCheckSeesWhatItLooksFor() {
        assertTrue(CONNECTS.matcher("try (Connection c = DriverManager.getConnection(url))").find());
        assertTrue(CONNECTS.matcher("private final DataSource source;").find());
        assertTrue(CONNECTS.matcher("pools.connection(id); dataSource.getConnection()").find());
        assertTrue(!CONNECTS.matcher("new ByteArrayDataSource(bytes, type)").find());
    }

    /** The engine names: what each driver's {@code engine()} returns. */
    private static Set<String> engineNames() throws IOException {
        Set<String> names = new TreeSet<>();
        Pattern engine = Pattern.compile("String engine\\(\\)\\s*\\{\\s*return \"([^\"]+)\"");
        for (Path file : sources()) {
            if (relative(file).startsWith("driver/")) {
                Matcher m = engine.matcher(Files.readString(file));
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        names.add("mariadb");
        names.add("postgresql");
        return names;
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    private static String relative(Path file) {
        return MAIN.relativize(file).toString().replace('\\', '/');
    }

    /** The source without comments (a Javadoc may name an engine or a connection). */
    private static String code(Path file) throws IOException {
        return Files.readString(file).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
    }
}
