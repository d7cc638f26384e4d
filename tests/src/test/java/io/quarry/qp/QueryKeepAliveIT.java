package io.quarry.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.TestServer;
import io.quarry.core.Json;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Slow API queries on a real PostgreSQL: the 202 is committed after a second and a newline is written every second
 * while the query runs, so a client that disconnects before the first row is noticed and the statement cancelled on the
 * database; a slow query that completes or fails still answers a parseable JSON body.
 */
class QueryKeepAliveIT {
    private static String pg;
    private static TestServer server;
    private static Api admin;
    private static String session;
    private static long databaseId;

    @BeforeAll
    static void start() {
        pg = PostgresTargets.create("keepalive");
        server = TestServer.start();
        Api api = server.api();
        session = Fixtures.setUp(api);
        admin = api.as(session);
        PostgresTargets.ensureDriver(server.quarry());
        databaseId = admin.post(200, "database", Map.of("engine", "postgres", "name", "Slow",
                "details", PostgresTargets.details(pg))).json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> nativeQuery(String sql) {
        return Map.of("database", databaseId, "type", "native", "native", Map.of("query", sql));
    }

    private static boolean running(String marker) throws Exception {
        try (Connection c = PostgresTargets.connect(pg);
             PreparedStatement s = c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE query LIKE ? "
                     + "AND pid <> pg_backend_pid() AND state = 'active'")) {
            s.setString(1, "%" + marker + "%");
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        }
    }

    @Test
    void aClientThatLeavesBeforeTheFirstRowCancelsTheQuery() throws Exception {
        String marker = "keepalive-" + UUID.randomUUID();
        byte[] body = Json.write(nativeQuery("SELECT pg_sleep(30) /* " + marker + " */")).getBytes(StandardCharsets.UTF_8);
        long closedAt;
        try (Socket socket = new Socket("127.0.0.1", server.base.getPort())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/dataset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "X-Metabase-Session: " + session + "\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            int n = in.read(buffer);
            assertTrue(n > 0);
            String head = new String(buffer, 0, n, StandardCharsets.US_ASCII);
            assertTrue(head.startsWith("HTTP/1.1 202"), head);
            assertTrue(running(marker), "the query runs while the client waits");
            Thread.sleep(300);
            closedAt = System.nanoTime();
        }
        long gone = -1;
        while ((System.nanoTime() - closedAt) / 1_000_000 < 10_000) {
            if (!running(marker)) {
                gone = (System.nanoTime() - closedAt) / 1_000_000;
                break;
            }
            Thread.sleep(50);
        }
        assertTrue(gone >= 0, "pg_sleep still runs 10 s after its client left");
        assertTrue(gone < 5_000, "cancelled " + gone + " ms after the client left");
        // the database's pool is fine afterwards
        assertEquals(1, admin.post(202, "dataset", nativeQuery("SELECT 1 AS n")).json().get("data").get("rows").get(0).get(0).asInt());
    }

    @Test
    void aSlowQueryStillAnswersItsResultAfterKeepAliveNewlines() {
        Api.Res res = admin.post(202, "dataset", nativeQuery("SELECT 42 AS answer FROM (SELECT pg_sleep(2.5)) s"));
        assertTrue(res.body().startsWith("\n"), "keep-alive newlines come first");
        JsonNode result = res.json();
        assertEquals("completed", result.get("status").asText());
        assertEquals(42, result.get("data").get("rows").get(0).get(0).asInt());
        // a fast one has none
        assertFalse(admin.post(202, "dataset", nativeQuery("SELECT 1 AS n")).body().startsWith("\n"));
    }

    @Test
    void aSlowFailureIsWrittenAsTheBody() {
        Api.Res res = admin.post(202, "dataset", nativeQuery("SELECT 1 / (SELECT 0 FROM (SELECT pg_sleep(1.5)) s) AS broken"));
        assertTrue(res.body().startsWith("\n"));
        JsonNode failure = res.json();
        assertEquals("failed", failure.get("status").asText());
        assertTrue(failure.get("error").asText().contains("division by zero"), failure.toString());
        // a fast failure keeps its 4xx status
        assertEquals("failed", admin.post(400, "dataset", nativeQuery("SELECT 1 / 0 AS broken")).json().get("status").asText());
    }

    @Test
    void savedQuestionsKeepAliveToo() {
        long card = admin.post(200, "card", Map.of("name", "Slow answer", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", nativeQuery("SELECT 7 AS answer FROM (SELECT pg_sleep(1.5)) s"))).json().get("id").asLong();
        Api.Res res = admin.post(202, "card/" + card + "/query", Map.of());
        assertTrue(res.body().startsWith("\n"));
        assertEquals(7, res.json().get("data").get("rows").get(0).get(0).asInt());
    }
}
