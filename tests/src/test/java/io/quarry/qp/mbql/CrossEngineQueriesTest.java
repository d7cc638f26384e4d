package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.driver.SqlDialect;
import io.quarry.qp.CompiledQuery;
import io.quarry.qp.QueryFailure;
import io.quarry.sample.SampleDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The key structured queries compiled for each embedded engine and run on the Sample Database's rows (the H2 file
 * itself, and copies in SQLite and DuckDB when their JDBC drivers are on the class path), checked against reference
 * SQL written by hand and run on the H2 file.
 */
class CrossEngineQueriesTest {
    private static final LocalDateTime NOW = LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS);
    private static Connection reference;

    @BeforeAll
    static void openReference() throws Exception {
        reference = SampleDatabase.connect(SampleCopy.sample());
    }

    @AfterAll
    static void closeReference() throws Exception {
        reference.close();
    }

    private static boolean driverPresent(String className) {
        try {
            Class.forName(className);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static Connection open(String engine) throws Exception {
        switch (engine) {
            case "h2":
                return SampleDatabase.connect(SampleCopy.sample());
            case "sqlite": {
                assertTrue(driverPresent("org.sqlite.JDBC"), "the SQLite JDBC driver is not on the class path");
                Path file = Files.createTempDirectory("mbql-sqlite").resolve("sample.sqlite");
                Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                SampleCopy.copy(c, "sqlite");
                return c;
            }
            default: {
                assertTrue(driverPresent("org.duckdb.DuckDBDriver"), "the DuckDB JDBC driver is not on the class path");
                Path file = Files.createTempDirectory("mbql-duckdb").resolve("sample.duckdb");
                Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
                SampleCopy.copy(c, "duckdb");
                return c;
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "sqlite", "duckdb"})
    void keyQueriesAnswerWhatTheReferenceSqlAnswers(String engine) throws Exception {
        try (Connection c = open(engine)) {
            SqlDialect dialect = MbqlDialects.forEngine(engine);
            JdbcMetadata metadata = new JdbcMetadata(c, engine.equals("h2") ? "PUBLIC" : null, dialect);
            metadata.semanticType("PEOPLE", "LATITUDE", "type/Latitude");
            KeyQueries.Ids ids = new KeyQueries.Ids() {
                @Override
                public long table(String table) {
                    return metadata.tableId(table);
                }

                @Override
                public long field(String table, String column) {
                    return metadata.fieldId(table, column);
                }
            };
            MbqlCompiler compiler = new MbqlCompiler(new MbqlCompiler.Context(dialect, metadata, MbqlReferences.NONE, 1, NOW,
                    DayOfWeek.SUNDAY, 8, 10.0));
            int checked = 0;
            for (KeyQueries.KeyQuery query : KeyQueries.all(NOW)) {
                if (query.withoutPercentiles() && engine.equals("sqlite")) {
                    QueryFailure refused = assertThrows(QueryFailure.class, () -> compiler.compile(query.mbql(ids)));
                    assertTrue(refused.getMessage().contains("not supported by SQLite"), refused.getMessage());
                    continue;
                }
                CompiledQuery compiled = compiler.compile(query.mbql(ids));
                List<Object> params = compiled.params().stream().map(dialect::bindValue).toList();
                List<List<Object>> actual;
                try {
                    actual = KeyQueries.rows(c, compiled.sql(), params);
                } catch (java.sql.SQLException e) {
                    throw new AssertionError(engine + ": " + query.name() + " failed: " + e.getMessage() + "\n" + compiled.sql(), e);
                }
                List<List<Object>> expected = KeyQueries.rows(reference, query.referenceSql(), query.referenceParams());
                KeyQueries.assertSameRows(engine + ": " + query.name() + "\n" + compiled.sql(), expected, actual);
                checked++;
            }
            assertTrue(checked >= 12, "checked " + checked);
        }
    }
}
