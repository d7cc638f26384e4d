package io.quarry.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.MariaDbServer;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The query timeout ({@code MB_DB_QUERY_TIMEOUT_*}, 2 s here) on every engine: Quarry's own timer cancels a statement
 * still executing (QueryTimers), whatever the engine answers to a cancelled statement, and the answer says that the
 * query timed out. The database's pool is fine afterwards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueryTimeoutIT {
    private TestServer server;
    private Api admin;
    private final Map<String, Long> databases = new LinkedHashMap<>();

    @BeforeAll
    void start() throws Exception {
        server = TestServer.start(Map.of("MB_DB_QUERY_TIMEOUT_SECONDS", "2"));
        Api api = server.api();
        admin = api.as(Fixtures.setUp(api));
        PostgresTargets.ensureDriver(server.quarry());
        add("postgres", PostgresTargets.details(PostgresTargets.create("timeout")));
        MariaDbServer mariadb = MariaDbServer.get();
        String schema = "timeout_" + ProcessHandle.current().pid();
        mariadb.createDatabase(schema);
        add("mysql", Map.of("host", "127.0.0.1", "port", mariadb.port(), "dbname", schema, "user", "root"));
        add("h2", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD));
        Path sqlite = Files.createTempDirectory("quarry-timeout").resolve("slow.sqlite");
        try (var c = new org.sqlite.JDBC().connect("jdbc:sqlite:" + sqlite, new java.util.Properties())) {
            c.createStatement().execute("CREATE TABLE t (x INTEGER)");
        }
        add("sqlite", Map.of("db", sqlite.toString()));
        Path duckdb = Files.createTempDirectory("quarry-timeout").resolve("slow.duckdb");
        try (var c = new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:" + duckdb, new java.util.Properties())) {
            c.createStatement().execute("CREATE TABLE t (x INTEGER)");
        }
        add("duckdb", Map.of("db", duckdb.toString()));
    }

    private void add(String engine, Map<String, Object> details) {
        databases.put(engine, admin.post(200, "database", Map.of("engine", engine, "name", "Slow " + engine, "details", details))
                .json().get("id").asLong());
    }

    @AfterAll
    void stop() {
        server.close();
    }

    /** A statement that would execute for far longer than the timeout, and one that answers at once. */
    static Stream<Arguments> engines() {
        return Stream.of(
                Arguments.of("postgres", "SELECT pg_sleep(60) AS slept"),
                // interrupted, MariaDB's SLEEP returns 1 rather than failing: the statement still timed out
                Arguments.of("mysql", "SELECT SLEEP(60) AS slept"),
                Arguments.of("h2", "SELECT COUNT(*) FROM SYSTEM_RANGE(1, 1000000000) a, SYSTEM_RANGE(1, 1000000000) b"),
                Arguments.of("sqlite", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c"),
                Arguments.of("duckdb", "SELECT SUM(a.range * b.range) FROM range(1000000000) a, range(1000000000) b"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void aQueryPastTheTimeoutIsCancelledAndAnswersTimedOut(String engine, String sql) {
        long database = databases.get(engine);
        long start = System.nanoTime();
        // the keep-alive has committed a 202 after a second: the failure is the body, after the newlines (as Metabase)
        Api.Res res = admin.post(202, "dataset", Map.of("database", database, "type", "native", "native", Map.of("query", sql)));
        long took = (System.nanoTime() - start) / 1_000_000;
        JsonNode failure = res.json();
        assertEquals("failed", failure.get("status").asText(), res.body());
        assertEquals("timed-out", failure.get("error_type").asText(), res.body());
        assertEquals("The query took longer than 2 seconds and was cancelled.", failure.get("error").asText());
        assertTrue(took >= 2_000 && took < 20_000, "answered after " + took + " ms");
        // the connection the cancelled statement ran on went back to the pool in working order
        JsonNode ok = admin.post(202, "dataset", Map.of("database", database, "type", "native", "native",
                Map.of("query", "SELECT 7 AS n"))).json();
        assertEquals(7, ok.get("data").get("rows").get(0).get(0).asInt(), ok.toString());
    }
}
