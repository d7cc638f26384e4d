package io.quarry.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/table/:id/append-csv} and {@code /replace-csv} on tables a CSV upload made, in an H2 and a
 * PostgreSQL target: 204 and the rows in the warehouse afterwards; Metabase's JSON errors (404, 403, 422), bad files
 * and bare bodies refused with every row left as it was.
 */
class TableAppendCsvIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String CSV = "Id,Price,Day,Note\n1,10.5,2024-01-02,first\n2,3,2024-02-03,second\n";
    /** Upload table names carry a timestamp to the second: each upload gets a file name of its own. */
    private static final java.util.concurrent.atomic.AtomicInteger FILES = new java.util.concurrent.atomic.AtomicInteger();

    private static TestServer server;
    private static Api admin;
    private static String session;
    private static String viewerKey;
    private static long h2Db;
    private static long pgDb;
    private static String pgName;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        Api anonymous = server.api();
        session = Fixtures.setUp(anonymous);
        admin = anonymous.as(session);
        h2Db = admin.post(200, "database", Map.of("engine", "h2", "name", "Append H2",
                "details", TargetDatabases.h2Details(TargetDatabases.h2Shop()))).json().get("id").asLong();
        PostgresTargets.ensureDriver(server.quarry());
        pgName = PostgresTargets.create("appends");
        pgDb = admin.post(200, "database", Map.of("engine", "postgres", "name", "Append PG", "details",
                PostgresTargets.details(pgName))).json().get("id").asLong();
        admin.put(204, "setting/uploads-table-prefix", Map.of("value", "ap_"));
        // a group that may read and build queries on both databases, but not write SQL: no appends
        long viewers = admin.post(200, "permissions/group", Map.of("name", "Append viewers")).json().get("id").asLong();
        long revision = admin.get(200, "permissions/graph").json().get("revision").asLong();
        Map<String, Object> builder = Map.of("view-data", "unrestricted", "create-queries", "query-builder");
        admin.put(200, "permissions/graph", Map.of("revision", revision, "groups", Map.of(
                "1", Map.of(String.valueOf(h2Db), builder, String.valueOf(pgDb), builder),
                String.valueOf(viewers), Map.of(String.valueOf(h2Db), builder, String.valueOf(pgDb), builder))));
        viewerKey = admin.post(200, "api-key", Map.of("name", "Append viewer", "group_id", viewers)).json().get("unmasked_key").asText();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static void useDatabase(long id, boolean enabled) {
        admin.put(204, "setting/uploads-database-id", Map.of("value", id));
        admin.put(204, "setting/uploads-enabled", Map.of("value", enabled));
    }

    /** POSTs a multipart form with {@code csv} as its {@code file} part (none when null). */
    private static Api.Res send(String path, String authHeader, String authValue, String csv) {
        String boundary = "----quarry" + System.nanoTime();
        StringBuilder body = new StringBuilder();
        if (csv != null) {
            body.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"file\"; filename=\"more" + FILES.incrementAndGet() + ".csv\"")
                    .append("\r\nContent-Type: text/csv\r\n\r\n").append(csv).append("\r\n");
        }
        body.append("--").append(boundary).append("--\r\n");
        HttpRequest request = HttpRequest.newBuilder(server.base.resolve("api/" + path))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .header(authHeader, authValue)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return new Api.Res(response.statusCode(), response.body(), response.headers().map());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Api.Res asAdmin(String path, String csv) {
        return send(path, "X-Metabase-Session", session, csv);
    }

    /** Uploads the CSV as a new table and answers the table's id. */
    private static long uploadedTable() {
        Api.Res created = send("upload/csv", "X-Metabase-Session", session, CSV);
        assertEquals(200, created.status(), created.body());
        long tableId = admin.get(200, "card/" + created.body().trim()).json().get("table_id").asLong();
        assertTrue(admin.get(200, "table/" + tableId).json().get("is_upload").asBoolean(), "an upload's table says so");
        return tableId;
    }

    private static String message(Api.Res res) {
        return res.json().get("message").asText();
    }

    /** The table's rows as the warehouse holds them, ordered by the upload's row id: [id, price, note]. */
    private static List<String> h2Rows(long tableId) {
        String name = admin.get(200, "table/" + tableId).json().get("name").asText();
        JsonNode rows = admin.post(202, "dataset", Map.of("database", h2Db, "type", "native", "native", Map.of("query",
                "SELECT \"id\", \"price\", \"note\" FROM \"" + name + "\" ORDER BY \"_mb_row_id\""))).json().get("data").get("rows");
        List<String> result = new ArrayList<>();
        rows.forEach(r -> result.add(r.get(0).asText() + "|" + r.get(1).asText() + "|" + r.get(2).asText()));
        return result;
    }

    private static List<String> pgRows(long tableId) throws Exception {
        String name = admin.get(200, "table/" + tableId).json().get("name").asText();
        List<String> result = new ArrayList<>();
        try (Connection c = PostgresTargets.connect(pgName); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, price, note FROM \"" + name + "\" ORDER BY _mb_row_id")) {
            while (rs.next()) {
                result.add(rs.getLong(1) + "|" + rs.getDouble(2) + "|" + rs.getString(3));
            }
        }
        return result;
    }

    @Test
    void h2AppendAndReplaceWriteTheRows() {
        useDatabase(h2Db, true);
        long table = uploadedTable();
        assertEquals(List.of("1|10.5|first", "2|3.0|second"), h2Rows(table));
        // columns in another order and case: matched by their normalised names
        Api.Res appended = asAdmin("table/" + table + "/append-csv", "NOTE,id,Day,price\nthird,3,2024-03-04,7\n");
        assertEquals(204, appended.status(), appended.body());
        assertEquals("", appended.body());
        assertEquals(List.of("1|10.5|first", "2|3.0|second", "3|7.0|third"), h2Rows(table));
        Api.Res replaced = asAdmin("table/" + table + "/replace-csv", "id,price,day,note\n9,1.25,2024-05-06,only\n");
        assertEquals(204, replaced.status(), replaced.body());
        assertEquals(List.of("9|1.25|only"), h2Rows(table));
    }

    @Test
    void postgresAppendAndReplaceWriteTheRows() throws Exception {
        useDatabase(pgDb, true);
        try {
            long table = uploadedTable();
            assertEquals(List.of("1|10.5|first", "2|3.0|second"), pgRows(table));
            assertEquals(204, asAdmin("table/" + table + "/append-csv", "id,price,day,note\n3,4.5,2024-03-04,third\n4,,,\n").status());
            assertEquals(List.of("1|10.5|first", "2|3.0|second", "3|4.5|third", "4|0.0|null"), pgRows(table));
            assertEquals(204, asAdmin("table/" + table + "/replace-csv", "id,price,day,note\n7,2,2024-01-01,new\n").status());
            assertEquals(List.of("7|2.0|new"), pgRows(table));
            // a failing insert (PostgreSQL refuses NUL in text) rolls the replacement back: the rows stay
            Api.Res failed = asAdmin("table/" + table + "/replace-csv", "id,price,day,note\n8,1,2024-01-01,bad\u0000value\n");
            assertEquals(500, failed.status(), failed.body());
            assertEquals("There was an error uploading the file", message(failed));
            assertEquals(List.of("7|2.0|new"), pgRows(table));
        } finally {
            useDatabase(h2Db, true);
        }
    }

    @Test
    void refusalsAreMetabasesJsonErrorsAndChangeNothing() {
        useDatabase(h2Db, true);
        long table = uploadedTable();
        List<String> before = h2Rows(table);
        Api.Res missing = asAdmin("table/" + table + "/append-csv", "id,price\n5,1\n");
        assertEquals(422, missing.status(), missing.body());
        assertEquals("The CSV file is missing columns that are in the table:\n- day\n- note", message(missing));
        Api.Res extra = asAdmin("table/" + table + "/replace-csv", "id,price,day,note,color\n5,1,2024-01-01,x,red\n");
        assertEquals(422, extra.status());
        assertEquals("The CSV file contains extra columns that are not in the table:\n- color", message(extra));
        Api.Res wrongType = asAdmin("table/" + table + "/append-csv", "id,price,day,note\nfive,1,2024-01-01,x\n");
        assertEquals(422, wrongType.status());
        assertTrue(message(wrongType).contains("\"id\""), message(wrongType));
        Api.Res ragged = asAdmin("table/" + table + "/append-csv", "id,price,day,note\n5,1\n");
        assertEquals(400, ragged.status());
        assertTrue(message(ragged).startsWith("Row 2 of the CSV file"), ragged.body());
        // no file part, no body at all, an empty form body
        assertEquals("You must provide a CSV file in the \"file\" field.", message(asAdmin("table/" + table + "/append-csv", null)));
        assertEquals(400, admin.post(400, "table/" + table + "/append-csv", null).status());
        assertEquals("You must provide a CSV file in the \"file\" field.",
                admin.postForm(400, "table/" + table + "/replace-csv", Map.of()).json().get("message").asText());
        // not an upload's table, an unknown table, a caller without SQL rights, uploads off
        long orders = -1;
        for (JsonNode t : admin.get(200, "database/" + h2Db + "/metadata").json().get("tables")) {
            if (t.get("name").asText().equals("ORDERS")) {
                orders = t.get("id").asLong();
            }
        }
        Api.Res notUploaded = asAdmin("table/" + orders + "/append-csv", CSV);
        assertEquals(422, notUploaded.status());
        assertEquals("The table must be an uploaded table.", message(notUploaded));
        Api.Res unknown = asAdmin("table/999999/append-csv", CSV);
        assertEquals(404, unknown.status());
        assertEquals("Not found.", message(unknown));
        Api.Res refused = send("table/" + table + "/append-csv", "X-Api-Key", viewerKey, CSV);
        assertEquals(403, refused.status());
        assertEquals("You don't have permissions to do that.", message(refused));
        assertEquals(400, asAdmin("table/abc/append-csv", CSV).status());
        useDatabase(h2Db, false);
        try {
            Api.Res off = asAdmin("table/" + table + "/replace-csv", CSV);
            assertEquals(422, off.status());
            assertEquals("Uploads are not enabled.", message(off));
        } finally {
            useDatabase(h2Db, true);
        }
        assertEquals(before, h2Rows(table), "no refusal changed a row");
    }
}
