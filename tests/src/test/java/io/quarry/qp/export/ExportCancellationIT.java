package io.quarry.qp.export;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Queries are cancelled on the database (a real PostgreSQL) when their client goes away mid-download and when they
 * run past the query timeout, before or after their first row.
 */
class ExportCancellationIT {
    private static String pg;
    private static TestServer server;
    private static TestServer impatient;
    private static Target patientTarget;
    private static Target impatientTarget;

    /** A Quarry instance with the PostgreSQL database connected, and a way to download from it. */
    private record Target(TestServer server, String session, long databaseId, Downloads downloads) {
        static Target connect(TestServer server) {
            Api api = server.api();
            String session = Fixtures.setUp(api);
            PostgresTargets.ensureDriver(server.quarry());
            long id = api.as(session).post(200, "database", Map.of("engine", "postgres", "name", "Big",
                    "details", PostgresTargets.details(pg))).json().get("id").asLong();
            return new Target(server, session, id, Downloads.session(server.base, session));
        }

        Map<String, Object> body(String sql) {
            return Map.of("query", Map.of("database", databaseId, "type", "native", "native", Map.of("query", sql)));
        }
    }

    @BeforeAll
    static void start() {
        pg = PostgresTargets.create("cancel");
        server = TestServer.start();
        impatient = TestServer.start(Map.of("MB_DB_QUERY_TIMEOUT_SECONDS", "2"));
        patientTarget = Target.connect(server);
        impatientTarget = Target.connect(impatient);
    }

    @AfterAll
    static void stop() {
        server.close();
        impatient.close();
    }

    /** A query of endless rows (SRF in the select list: PostgreSQL streams it), tagged to find it in pg_stat_activity. */
    private static String endless(String marker, String extra) {
        return "SELECT g, md5(g::text) AS h" + extra + " FROM (SELECT generate_series(1, 1000000000) AS g) s /* " + marker + " */";
    }

    /** States of the backends running the tagged query (other than the one asking). */
    private static List<String> running(String marker) throws Exception {
        try (Connection c = PostgresTargets.connect(pg);
             PreparedStatement s = c.prepareStatement("SELECT state FROM pg_stat_activity WHERE query LIKE ? "
                     + "AND pid <> pg_backend_pid() AND state <> 'idle'")) {
            s.setString(1, "%" + marker + "%");
            List<String> states = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    states.add(rs.getString(1));
                }
            }
            return states;
        }
    }

    /** Waits until the tagged query no longer runs; returns how long that took (ms), or -1 if it still runs. */
    private static long awaitGone(String marker, long timeoutMillis) throws Exception {
        long start = System.nanoTime();
        while ((System.nanoTime() - start) / 1_000_000 < timeoutMillis) {
            if (running(marker).isEmpty()) {
                return (System.nanoTime() - start) / 1_000_000;
            }
            Thread.sleep(50);
        }
        return -1;
    }

    @Test
    void aClientThatGoesAwayMidDownloadCancelsTheQuery() throws Exception {
        String marker = "export-" + UUID.randomUUID();
        byte[] body = Json.write(patientTarget.body(endless(marker, ""))).getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("127.0.0.1", server.base.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/dataset/csv HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "X-Metabase-Session: " + patientTarget.session() + "\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[64 * 1024];
            long read = 0;
            String head = null;
            while (read < 1_000_000) {
                int n = in.read(buffer);
                assertTrue(n > 0, "the download ended early");
                if (head == null) {
                    head = new String(buffer, 0, Math.min(n, 200), StandardCharsets.US_ASCII);
                }
                read += n;
            }
            assertTrue(head.startsWith("HTTP/1.1 200"), head);
            // The client stops reading: the server blocks on a full socket, the query is still open on the database.
            Thread.sleep(300);
            assertFalse(running(marker).isEmpty(), "the query runs while the download is open");
            socket.setSoLinger(true, 0);
        }
        long gone = awaitGone(marker, 10_000);
        assertTrue(gone >= 0, "the query still runs 10 s after its client went away: " + running(marker));
        assertTrue(gone < 5_000, "cancelled after " + gone + " ms");
        // the pool is fine afterwards
        assertEquals("n\n1\n", patientTarget.downloads().json("csv", patientTarget.body("SELECT 1 AS n")).text());
    }

    @Test
    void aQueryPastTheTimeoutIsCancelledBeforeItsFirstRow() throws Exception {
        String marker = "sleep-" + UUID.randomUUID();
        long start = System.nanoTime();
        Downloads.Download download = impatientTarget.downloads().json("csv",
                impatientTarget.body("SELECT pg_sleep(30) /* " + marker + " */"));
        long took = (System.nanoTime() - start) / 1_000_000;
        assertEquals(400, download.status(), download.text());
        JsonNode failure = Json.read(download.text());
        assertEquals("failed", failure.get("status").asText());
        assertEquals("timed-out", failure.get("error_type").asText());
        assertEquals("The query took longer than 2 seconds and was cancelled.", failure.get("error").asText());
        assertEquals("57014", failure.get("state").asText(), "PostgreSQL cancelled it: " + failure);
        assertTrue(took < 10_000, "answered after " + took + " ms");
        assertTrue(awaitGone(marker, 5_000) >= 0, "pg_sleep still runs: " + running(marker));
    }

    @Test
    void aDownloadPastTheTimeoutIsCancelledMidStream() throws Exception {
        String marker = "slow-" + UUID.randomUUID();
        // 2,000 rows a fetch, a 1 ms nap every 20 rows, 250 bytes a row: rows reach the client within a fraction of a
        // second; all of them would take half a day.
        long start = System.nanoTime();
        Downloads.Download download = impatientTarget.downloads().json("csv",
                impatientTarget.body(endless(marker, ", repeat('x', 200) AS pad, CASE WHEN g % 20 = 0 THEN pg_sleep(0.001) END AS nap")));
        long took = (System.nanoTime() - start) / 1_000_000;
        assertEquals(200, download.status());
        String text = download.text();
        assertTrue(text.startsWith("g,h,pad,nap\n1,c4ca4238a0b923820dcc509a6f75849b,xxx"), text.substring(0, 100));
        // As Metabase does once rows have gone out: the failure follows them, so the file is visibly broken.
        assertTrue(text.endsWith("\n{\"status\":\"failed\",\"error\":\"The query took longer than 2 seconds and was cancelled.\","
                + "\"error_type\":\"timed-out\"}"), text.substring(text.length() - 200));
        assertTrue(took < 10_000, "answered after " + took + " ms");
        assertTrue(awaitGone(marker, 5_000) >= 0, "the query still runs: " + running(marker));
    }

    @Test
    void aTimeoutBeforeAnyByteWasSentStillAnswersTheFailureStatus() throws Exception {
        String marker = "small-" + UUID.randomUUID();
        // The statement executes at once and rows stream (a 1 ms nap every 5 rows), but each is two bytes: when time is
        // up, none has left the writer's buffer, so the failure still gets its status.
        Downloads.Download download = impatientTarget.downloads().json("csv", impatientTarget.body(
                "SELECT CAST(NULL AS text) AS x, pg_sleep(CASE WHEN g % 5 = 0 THEN 0.001 ELSE 0 END) AS nap "
                        + "FROM (SELECT generate_series(1, 1000000) AS g) s /* " + marker + " */"));
        assertEquals(400, download.status(), download.text());
        JsonNode failure = Json.read(download.text());
        assertEquals("timed-out", failure.get("error_type").asText());
        assertEquals("The query took longer than 2 seconds and was cancelled.", failure.get("error").asText());
        assertTrue(failure.get("state").isNull(), "stopped by the stream's deadline, not by the driver: " + failure);
        assertTrue(awaitGone(marker, 5_000) >= 0, "the query still runs: " + running(marker));
    }
}
