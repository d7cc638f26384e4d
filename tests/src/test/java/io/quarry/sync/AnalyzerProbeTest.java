package io.quarry.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarry.core.ConnectionPools;
import io.quarry.driver.DatabasePools;
import io.quarry.driver.Drivers;
import io.quarry.driver.h2.H2Dialect;
import io.quarry.qp.Warehouses;
import io.quarry.warehouse.Database;
import io.quarry.warehouse.Table;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@link Analyzer#emptyTables}: which tables analysis need not sample, asked many tables per query. */
class AnalyzerProbeTest {
    private static Table table(long id, String name) {
        Table t = new Table();
        t.id = id;
        t.schemaName = "PUBLIC";
        t.name = name;
        return t;
    }

    /** Runs the work on a read session of a door over the H2 file (the probes are Quarry's own reads). */
    private static <T> T throughQuarry(Path file, Warehouses.SessionWork<T> work) throws Exception {
        Database database = new Database();
        database.id = 1L;
        database.name = "probe";
        database.engine = "h2";
        database.details = Map.of("db", "file:" + file, "user", "sa", "password", "");
        try (DatabasePools pools = new DatabasePools(new ConnectionPools())) {
            return new Warehouses(Drivers.standard(), pools, d -> false, 30).read(database, work);
        }
    }

    @Test
    void findsTheEmptyTablesAcrossSeveralProbeQueries() throws Exception {
        Path file = Files.createTempDirectory("quarry-probe").resolve("probe1");
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + file, "sa", ""); Statement s = c.createStatement()) {
            List<Table> tables = new ArrayList<>();
            // more tables than one probe query holds; every third has a row; one has a quoted, mixed-case name
            int count = Analyzer.PROBE_CHUNK + 25;
            for (int i = 0; i < count; i++) {
                String name = i == 7 ? "Mixed Case" : "T" + i;
                s.execute("CREATE TABLE \"" + name + "\" (id INT)");
                if (i % 3 == 0) {
                    s.execute("INSERT INTO \"" + name + "\" VALUES (1), (2)");
                }
                tables.add(table(100 + i, name));
            }
            Set<Long> expected = IntStream.range(0, count).filter(i -> i % 3 != 0).mapToObj(i -> 100L + i).collect(Collectors.toSet());
            assertEquals(expected, throughQuarry(file, session -> Analyzer.emptyTables(session, new H2Dialect(), tables)));
        }
    }

    @Test
    void aProbeTheDatabaseRefusesLeavesItsTablesToBeSampled() throws Exception {
        Path file = Files.createTempDirectory("quarry-probe").resolve("probe2");
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + file, "sa", ""); Statement s = c.createStatement()) {
            List<Table> tables = new ArrayList<>();
            for (int i = 0; i < Analyzer.PROBE_CHUNK; i++) {
                s.execute("CREATE TABLE A" + i + " (id INT)");
                tables.add(table(i, "A" + i));
            }
            // the second chunk names a table that is gone: that probe fails, its empty tables are not reported
            s.execute("CREATE TABLE B0 (id INT)");
            tables.add(table(1000, "B0"));
            tables.add(table(1001, "GONE"));
            Set<Long> empty = throughQuarry(file, session -> Analyzer.emptyTables(session, new H2Dialect(), tables));
            assertEquals(Analyzer.PROBE_CHUNK, empty.size());
            assertEquals(Set.of(), empty.stream().filter(id -> id >= 1000).collect(Collectors.toSet()));
        }
    }
}
