package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.driver.mysql.MySqlDialect;
import io.quarry.qp.CompiledQuery;
import io.quarry.qp.QueryFailure;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.MariaDbServer;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.sql.Connection;
import java.sql.DriverManager;
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
 * The MySQL engine against a real server: MariaDB (the same protocol and SQL, the server MySQL users most often run
 * beside MySQL) started from Maven Central's binaries, loaded with the Sample Database's store tables. The key
 * structured queries are compiled with the MySQL dialect and checked against reference SQL on the H2 file, directly
 * and through {@code POST /api/dataset}; native queries with parameters run through HTTP with hostile values.
 */
class MbqlMySqlIT {
    private static final LocalDateTime NOW = LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
    private static MariaDbServer mariadb;
    private static String dbName;
    private static TestServer server;
    private static Api admin;
    private static long dbId;

    @BeforeAll
    static void load() throws Exception {
        mariadb = MariaDbServer.get();
        dbName = "mbql_shop_" + ProcessHandle.current().pid() + "_" + (TestAppDb.isPostgres() ? "p" : "h");
        mariadb.createDatabase(dbName);
        // the copy quotes identifiers the ANSI way
        try (Connection c = DriverManager.getConnection(mariadb.jdbcUrl(dbName) + "&sessionVariables=sql_mode=ANSI_QUOTES",
                "root", "")) {
            SampleCopy.copy(c, "mysql");
        }
        server = TestServer.start();
        admin = server.api().as(Fixtures.setUp(server.api()));
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("host", "127.0.0.1");
        details.put("port", mariadb.port());
        details.put("dbname", dbName);
        details.put("user", "root");
        dbId = admin.post(200, "database", Map.of("engine", "mysql", "name", "Shop MariaDB", "details", details))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(dbId).get();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        try (Connection c = mariadb.connect(""); var s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + dbName);
        }
    }

    @Test
    void keyQueriesCompiledForMySqlAnswerWhatTheReferenceSqlAnswers() throws Exception {
        try (Connection c = mariadb.connect(dbName); Connection reference = SampleDatabase.connect(SampleCopy.sample())) {
            MySqlDialect dialect = new MySqlDialect();
            JdbcMetadata metadata = new JdbcMetadata(c, null, dialect);
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
            for (KeyQueries.KeyQuery query : KeyQueries.all(NOW)) {
                if (query.withoutPercentiles()) {
                    // MySQL has no percentile aggregate (Metabase's driver lacks the feature too)
                    QueryFailure refused = assertThrows(QueryFailure.class, () -> compiler.compile(query.mbql(ids)));
                    assertTrue(refused.getMessage().contains("not supported by MySQL"), refused.getMessage());
                    continue;
                }
                CompiledQuery compiled = compiler.compile(query.mbql(ids));
                List<List<Object>> actual;
                try {
                    actual = KeyQueries.rows(c, compiled.sql(), compiled.params());
                } catch (java.sql.SQLException e) {
                    throw new AssertionError("mysql: " + query.name() + " failed: " + e.getMessage() + "\n" + compiled.sql(), e);
                }
                List<List<Object>> expected = KeyQueries.rows(reference, query.referenceSql(), query.referenceParams());
                KeyQueries.assertSameRows("mysql: " + query.name() + "\n" + compiled.sql(), expected, actual);
            }
        }
    }

    @Test
    void keyQueriesOverHttp() throws Exception {
        KeyQueries.Ids ids = ServerIds.of(server, dbId);
        try (Connection reference = SampleDatabase.connect(SampleCopy.sample())) {
            for (KeyQueries.KeyQuery query : KeyQueries.all(LocalDateTime.now(ZoneOffset.UTC))) {
                Map<String, Object> request = Map.of("database", dbId, "type", "query", "query", query.mbql(ids));
                if (query.withoutPercentiles()) {
                    JsonNode refused = admin.post(400, "dataset", request).json();
                    assertEquals("Median is not supported by MySQL.", refused.get("error").asText());
                    continue;
                }
                JsonNode result = admin.post(202, "dataset", request).json();
                assertEquals("completed", result.get("status").asText(), query.name() + ": " + result);
                List<List<Object>> expected = KeyQueries.rows(reference, query.referenceSql(), query.referenceParams());
                assertEquals(expected.toString(), ServerIds.rows(result).toString(), query.name());
            }
        }
    }

    @Test
    void nativeParametersAreBindValuesEvenWhenHostile() throws Exception {
        Map<String, Object> tag = Map.of("id", "c", "name", "category", "display-name", "Category", "type", "text");
        String sql = "SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = {{category}}";
        long expected;
        try (Connection reference = SampleDatabase.connect(SampleCopy.sample())) {
            expected = Long.parseLong(String.valueOf(KeyQueries.rows(reference,
                    "SELECT COUNT(*) FROM \"PRODUCTS\" WHERE \"CATEGORY\" = ?", List.of("Gizmo")).get(0).get(0)));
        }
        for (Map.Entry<String, Long> c : Map.of("Gizmo", expected, "x' OR '1'='1", 0L, "x'; DROP TABLE PRODUCTS; --", 0L,
                "\\' OR 1=1 -- ", 0L).entrySet()) {
            Map<String, Object> request = Map.of("database", dbId, "type", "native",
                    "native", Map.of("query", sql, "template-tags", Map.of("category", tag)),
                    "parameters", List.of(Map.of("type", "category", "target", List.of("variable", List.of("template-tag", "category")),
                            "value", c.getKey())));
            JsonNode result = admin.post(202, "dataset", request).json();
            assertEquals(c.getValue().longValue(), result.get("data").get("rows").get(0).get(0).asLong(), c.getKey());
            assertFalse(result.get("data").get("native_form").get("query").asText().contains(c.getKey()), c.getKey());
        }
        try (Connection c = mariadb.connect(dbName); var s = c.createStatement(); var rs = s.executeQuery("SELECT COUNT(*) FROM PRODUCTS")) {
            rs.next();
            assertEquals(200, rs.getLong(1));
        }
    }

    @Test
    void aBadQueryFailsAsMetabaseAnswersNotWithA500() {
        // Metabase answers a failed query with 400 and its failure body since PR #62351 (COMPAT.md §2.2)
        JsonNode result = admin.post(400, "dataset", Map.of("database", dbId, "type", "native",
                "native", Map.of("query", "SELECT no_such_column FROM PRODUCTS"))).json();
        assertEquals("failed", result.get("status").asText());
        assertFalse(result.get("error").asText().isBlank());
    }
}
