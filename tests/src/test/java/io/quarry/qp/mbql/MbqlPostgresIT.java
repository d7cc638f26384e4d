package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.driver.postgres.PostgresDialect;
import io.quarry.qp.CompiledQuery;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The key structured queries against a PostgreSQL target: the Sample Database's store tables loaded into a database
 * of the embedded PostgreSQL, queries compiled with the PostgreSQL dialect and run there, rows checked against
 * reference SQL run on the H2 file. When the running Quarry knows the {@code postgres} engine, the same queries also
 * go through {@code POST /api/dataset}.
 */
class MbqlPostgresIT {
    private static final LocalDateTime NOW = LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
    private static String url;
    private static String dbName;

    @BeforeAll
    static void load() throws Exception {
        dbName = "mbql_shop_" + ProcessHandle.current().pid() + "_" + (TestAppDb.isPostgres() ? "p" : "h");
        url = "jdbc:postgresql://localhost:" + TestAppDb.postgres().getPort() + "/" + dbName;
        try (Connection admin = TestAppDb.postgres().getPostgresDatabase().getConnection(); Statement s = admin.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + dbName);
            s.execute("CREATE DATABASE " + dbName);
        }
        try (Connection c = connect()) {
            SampleCopy.copy(c, "postgres");
        }
    }

    @AfterAll
    static void drop() throws Exception {
        try (Connection admin = TestAppDb.postgres().getPostgresDatabase().getConnection(); Statement s = admin.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + dbName);
        }
    }

    private static Connection connect() throws Exception {
        return DriverManager.getConnection(url, "postgres", "postgres");
    }

    @Test
    void keyQueriesAnswerWhatTheReferenceSqlAnswers() throws Exception {
        try (Connection c = connect(); Connection reference = SampleDatabase.connect(SampleCopy.sample())) {
            PostgresDialect dialect = new PostgresDialect();
            JdbcMetadata metadata = new JdbcMetadata(c, "public", dialect);
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
                CompiledQuery compiled = compiler.compile(query.mbql(ids));
                List<List<Object>> actual;
                try {
                    actual = KeyQueries.rows(c, compiled.sql(), compiled.params());
                } catch (java.sql.SQLException e) {
                    throw new AssertionError("postgres: " + query.name() + " failed: " + e.getMessage() + "\n" + compiled.sql(), e);
                }
                List<List<Object>> expected = KeyQueries.rows(reference, query.referenceSql(), query.referenceParams());
                KeyQueries.assertSameRows("postgres: " + query.name() + "\n" + compiled.sql(), expected, actual);
                checked++;
            }
            assertEquals(KeyQueries.all(NOW).size(), checked);
        }
    }

    @Test
    void hostileFilterValuesMatchNothingAndChangeNothing() throws Exception {
        try (Connection c = connect()) {
            PostgresDialect dialect = new PostgresDialect();
            JdbcMetadata metadata = new JdbcMetadata(c, "public", dialect);
            MbqlCompiler compiler = new MbqlCompiler(new MbqlCompiler.Context(dialect, metadata, MbqlReferences.NONE, 1, NOW,
                    DayOfWeek.SUNDAY, 8, 10.0));
            long people = metadata.tableId("PEOPLE");
            long name = metadata.fieldId("PEOPLE", "NAME");
            for (String hostile : List.of("x'; DROP TABLE \"PEOPLE\"; --", "' OR '1'='1", "%' OR 1=1 --", "\\'; SELECT pg_sleep(5); --")) {
                for (String op : List.of("=", "contains", "starts-with")) {
                    Map<String, Object> q = new LinkedHashMap<>();
                    q.put("source-table", people);
                    q.put("filter", List.of(op, List.of("field", name, Map.of()), hostile));
                    q.put("aggregation", List.of(List.of("count")));
                    CompiledQuery compiled = compiler.compile(q);
                    assertTrue(!compiled.sql().contains(hostile), compiled.sql());
                    assertEquals("[[0]]", KeyQueries.rows(c, compiled.sql(), compiled.params()).toString(), op + " " + hostile);
                }
            }
            assertEquals("[[2500]]", KeyQueries.rows(c, "SELECT COUNT(*) FROM \"PEOPLE\"", List.of()).toString());
        }
    }

    /** Through HTTP, on Quarry's PostgreSQL engine. */
    @Test
    void keyQueriesOverHttp() throws Exception {
        try (TestServer server = TestServer.start()) {
            PostgresTargets.ensureDriver(server.quarry());
            Api admin = server.api().as(Fixtures.setUp(server.api()));
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("host", "localhost");
            details.put("port", TestAppDb.postgres().getPort());
            details.put("dbname", dbName);
            details.put("user", "postgres");
            details.put("password", "postgres");
            long dbId = admin.post(200, "database", Map.of("engine", "postgres", "name", "Shop PG", "details", details))
                    .json().get("id").asLong();
            server.quarry().sync.syncInBackground(dbId).get();
            KeyQueries.Ids ids = ServerIds.of(server, dbId);
            try (Connection reference = SampleDatabase.connect(SampleCopy.sample())) {
                for (KeyQueries.KeyQuery query : KeyQueries.all(LocalDateTime.now(ZoneOffset.UTC))) {
                    Map<String, Object> request = Map.of("database", dbId, "type", "query", "query", query.mbql(ids));
                    JsonNode result = admin.post(202, "dataset", request).json();
                    List<List<Object>> expected = KeyQueries.rows(reference, query.referenceSql(), query.referenceParams());
                    assertEquals(expected.toString(), ServerIds.rows(result).toString(), query.name());
                }
            }
        }
    }
}
