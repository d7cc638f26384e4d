package io.quarry.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** CSV uploads into an H2 and a PostgreSQL target: typed tables, a model over them, clear 400s, nothing half made. */
class CardUploadIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String CSV = "Id,Price,Active,Day,At,Note\n"
            + "1,10.5,true,2024-01-02,2024-01-02 10:00:00,\"hello, world\"\n"
            + "2,3,false,2024-02-03,2024-02-03T11:30:00,\"say \"\"hi\"\"\"\n"
            + "3,,yes,2024-03-04,2024-03-04,plain\n";

    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static String session;
    private static String userKey;
    private static long h2Db;
    private static long pgDb;
    private static String pgName;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        anonymous = server.api();
        session = Fixtures.setUp(anonymous);
        admin = anonymous.as(session);
        userKey = admin.post(200, "api-key", Map.of("name", "Uploader", "group_id", 1)).json().get("unmasked_key").asText();
        h2Db = admin.post(200, "database", Map.of("engine", "h2", "name", "Uploads H2", "details",
                Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        PostgresTargets.ensureDriver(server.quarry());
        pgName = PostgresTargets.create("uploads");
        pgDb = admin.post(200, "database", Map.of("engine", "postgres", "name", "Uploads PG", "details",
                PostgresTargets.details(pgName))).json().get("id").asLong();
        admin.put(204, "setting/uploads-table-prefix", Map.of("value", "up_"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static void useDatabase(long id, boolean enabled) {
        admin.put(204, "setting/uploads-database-id", Map.of("value", id));
        admin.put(204, "setting/uploads-enabled", Map.of("value", enabled));
    }

    /** POSTs a multipart form with the CSV as {@code file}; returns status and body. */
    private static Api.Res upload(String path, String authHeader, String authValue, String filename, String csv, Object collectionId) {
        String boundary = "----quarry" + System.nanoTime();
        StringBuilder body = new StringBuilder();
        if (collectionId != null) {
            body.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"collection_id\"\r\n\r\n")
                    .append(collectionId).append("\r\n");
        }
        if (csv != null) {
            body.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"file\"; filename=\"")
                    .append(filename).append("\"\r\nContent-Type: text/csv\r\n\r\n").append(csv).append("\r\n");
        }
        body.append("--").append(boundary).append("--\r\n");
        HttpRequest.Builder request = HttpRequest.newBuilder(server.base.resolve("api/" + path))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
        if (authHeader != null) {
            request.header(authHeader, authValue);
        }
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Api.Res(response.statusCode(), response.body(), response.headers().map());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Api.Res asAdmin(String filename, String csv) {
        return upload("card/from-csv", "X-Metabase-Session", session, filename, csv, null);
    }

    private static long cards() {
        return admin.get(200, "card").json().size();
    }

    private static long h2Tables() {
        JsonNode result = admin.post(202, "dataset", Map.of("database", h2Db, "type", "native", "native", Map.of("query",
                "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE 'up\\_%'"))).json();
        return result.get("data").get("rows").get(0).get(0).asLong();
    }

    private static long pgTables() throws Exception {
        try (Connection c = PostgresTargets.connect(pgName); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.tables WHERE table_name LIKE 'up\\_%'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void h2UploadMakesATypedTableAndAModel() {
        useDatabase(h2Db, true);
        Api.Res res = asAdmin("My sales_2024.csv", CSV);
        assertEquals(200, res.status(), res.body());
        long modelId = Long.parseLong(res.body().trim());
        JsonNode model = admin.get(200, "card/" + modelId).json();
        assertEquals("model", model.get("type").asText());
        assertEquals("My Sales 2024", model.get("name").asText());
        assertEquals(h2Db, model.get("database_id").asLong());
        JsonNode rows = admin.post(202, "card/" + modelId + "/query", Map.of()).json().get("data");
        assertEquals(3, rows.get("rows").size());
        Map<String, String> types = new LinkedHashMap<>();
        rows.get("cols").forEach(c -> types.put(c.get("name").asText(), c.get("base_type").asText()));
        assertEquals("type/BigInteger", types.get("id"));
        assertEquals("type/Float", types.get("price"));
        assertEquals("type/Boolean", types.get("active"));
        assertEquals("type/Date", types.get("day"));
        assertEquals("type/DateTime", types.get("at"));
        assertEquals("type/Text", types.get("note"));
        String all = rows.get("rows").toString();
        assertTrue(all.contains("hello, world") && all.contains("say \\\"hi\\\""), all);
        // the real v0.55+ path works the same
        Api.Res alias = upload("upload/csv", "X-Metabase-Session", session, "other.csv", "a,b\n1,x\n", null);
        assertEquals(200, alias.status(), alias.body());
    }

    @Test
    void badFilesAreClear400sAndLeaveNothingBehind() {
        useDatabase(h2Db, true);
        long tables = h2Tables();
        long cards = cards();
        assertEquals("The CSV file is empty.", asAdmin("empty.csv", "").body());
        assertEquals("The CSV file has no header row.", asAdmin("blank.csv", ",,\n1,2,3\n").body());
        Api.Res ragged = asAdmin("ragged.csv", "a,b\n1,2\n3\n");
        assertEquals(400, ragged.status());
        assertEquals("Row 3 of the CSV file has 1 values, but the header has 2 columns.", ragged.body());
        Api.Res longName = asAdmin("long.csv", "x".repeat(64) + "\n1\n");
        assertEquals(400, longName.status());
        assertTrue(longName.body().contains("is too long"), longName.body());
        assertEquals("The CSV file has an unterminated quoted value.", asAdmin("quote.csv", "a\n\"open\n").body());
        assertEquals("You must provide a CSV file in the \"file\" field.", asAdmin("none.csv", null).body());
        Api.Res notAForm = admin.post(400, "upload/csv", Map.of("file", "a\n1\n"));
        assertEquals("You must provide a CSV file in the \"file\" field.", notAForm.body());
        // what plain clients send: no body at all (curl -X POST), an empty form body (curl -d '', urllib)
        assertEquals("You must provide a CSV file in the \"file\" field.", admin.post(400, "upload/csv", null).body());
        assertEquals("You must provide a CSV file in the \"file\" field.", admin.postForm(400, "upload/csv", Map.of()).body());
        Api.Res badCollection = upload("card/from-csv", "X-Metabase-Session", session, "c.csv", "a\n1\n", "abc");
        assertEquals(400, badCollection.status());
        assertTrue(badCollection.body().contains("collection_id"));
        assertEquals(404, upload("card/from-csv", "X-Metabase-Session", session, "c.csv", "a\n1\n", 999_999).status());
        useDatabase(h2Db, false);
        Api.Res disabled = asAdmin("ok.csv", "a\n1\n");
        assertEquals(400, disabled.status());
        assertEquals("Uploads are not enabled.", disabled.body());
        useDatabase(h2Db, true);
        assertEquals(tables, h2Tables(), "no table was left behind");
        assertEquals(cards, cards(), "no model was made");
    }

    @Test
    void rights() {
        useDatabase(h2Db, true);
        assertEquals(401, upload("card/from-csv", null, null, "a.csv", "a\n1\n", null).status());
        Api.Res user = upload("card/from-csv", "X-Api-Key", userKey, "mine.csv", "a\n1\n", null);
        assertEquals(200, user.status(), user.body());
        long tables = h2Tables();
        long secret;
        try (Connection c = io.quarry.testing.AppDbSql.connect(server); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO collection (name, slug, location, created_at) VALUES ('Upload secret', 'upload_secret', '/', "
                    + "CURRENT_TIMESTAMP)");
            try (ResultSet rs = s.executeQuery("SELECT MAX(id) FROM collection")) {
                rs.next();
                secret = rs.getLong(1);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        Api.Res refused = upload("card/from-csv", "X-Api-Key", userKey, "no.csv", "a\n1\n", secret);
        assertEquals(403, refused.status());
        assertEquals("You don't have permissions to do that.", refused.body());
        assertEquals(tables, h2Tables());
        Api.Res intoCollection = upload("card/from-csv", "X-Metabase-Session", session, "yes.csv", "a\n1\n", secret);
        assertEquals(200, intoCollection.status(), intoCollection.body());
        assertEquals(secret, admin.get(200, "card/" + intoCollection.body().trim()).json().get("collection_id").asLong());
    }

    @Test
    void postgresUploadAndCleanupAfterAFailedInsert() throws Exception {
        useDatabase(pgDb, true);
        try {
            Api.Res res = asAdmin("pg data.csv", CSV);
            assertEquals(200, res.status(), res.body());
            long modelId = Long.parseLong(res.body().trim());
            assertEquals(3, admin.post(202, "card/" + modelId + "/query", Map.of()).json().get("data").get("rows").size());
            Map<String, String> types = new LinkedHashMap<>();
            try (Connection c = PostgresTargets.connect(pgName); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT column_name, data_type FROM information_schema.columns "
                         + "WHERE table_name LIKE 'up\\_pg\\_data\\_%'")) {
                while (rs.next()) {
                    types.put(rs.getString(1), rs.getString(2));
                }
            }
            assertEquals("bigint", types.get("id"));
            assertEquals("double precision", types.get("price"));
            assertEquals("boolean", types.get("active"));
            assertEquals("date", types.get("day"));
            assertEquals("timestamp without time zone", types.get("at"));
            assertEquals("character varying", types.get("note"));
            long tables = pgTables();
            long cards = cards();
            // PostgreSQL refuses NUL in text: the insert fails after the table was made, so it is dropped again
            Api.Res failed = asAdmin("nul.csv", "a,b\n1,x\n2,bad\u0000value\n");
            assertEquals(400, failed.status(), failed.body());
            assertTrue(failed.body().startsWith("The CSV file could not be uploaded"), failed.body());
            assertEquals(tables, pgTables(), "the half-made table was dropped");
            assertEquals(cards, cards());
            assertEquals(List.of(), List.of());
        } finally {
            useDatabase(h2Db, true);
        }
    }

    /** POSTs a form with {@code csv} as its file, by its length or chunked (no declared length); answers the status and body. */
    private static Api.Res uploadStream(String authHeader, String authValue, String filename, byte[] csv, boolean chunked) {
        String boundary = "----quarry" + System.nanoTime();
        byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + filename
                + "\"\r\nContent-Type: text/csv\r\n\r\n").getBytes(StandardCharsets.UTF_8);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[head.length + csv.length + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy(csv, 0, body, head.length, csv.length);
        System.arraycopy(tail, 0, body, head.length + csv.length, tail.length);
        HttpRequest.BodyPublisher publisher = chunked
                ? HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(body))
                : HttpRequest.BodyPublishers.ofByteArray(body);
        HttpRequest request = HttpRequest.newBuilder(server.base.resolve("api/upload/csv"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .header(authHeader, authValue)
                .POST(publisher).build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return new Api.Res(response.statusCode(), response.body(), response.headers().map());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A CSV of {@code rows} rows, about 60 bytes each. */
    private static byte[] bigCsv(int rows) {
        StringBuilder csv = new StringBuilder("id,name,amount,day\n");
        for (int i = 1; i <= rows; i++) {
            csv.append(i).append(",customer number ").append(i).append(" of many,").append(i % 1000).append('.').append(i % 100)
                    .append(",2024-01-").append(10 + i % 19).append('\n');
        }
        return csv.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static long h2Rows(String tableLike) {
        JsonNode tables = admin.post(202, "dataset", Map.of("database", h2Db, "type", "native", "native", Map.of("query",
                "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '" + tableLike + "'"))).json();
        JsonNode rows = tables.get("data").get("rows");
        assertEquals(1, rows.size(), tables.toString());
        return admin.post(202, "dataset", Map.of("database", h2Db, "type", "native", "native", Map.of("query",
                "SELECT COUNT(*) FROM \"" + rows.get(0).get(0).asText() + "\""))).json().get("data").get("rows").get(0).get(0).asLong();
    }

    /**
     * Issue #25 item 6: an upload creates a table, so it needs native (SQL) rights on the uploads database, as in
     * Metabase; collection write alone is not enough. Refused before the form is read: no table, no model.
     */
    @Test
    void uploadsNeedNativeRightsOnTheUploadsDatabase() throws Exception {
        useDatabase(h2Db, true);
        long builders = admin.post(200, "permissions/group", Map.of("name", "Upload builders")).json().get("id").asLong();
        long writers = admin.post(200, "permissions/group", Map.of("name", "Upload writers")).json().get("id").asLong();
        long revision = admin.get(200, "permissions/graph").json().get("revision").asLong();
        String db = String.valueOf(h2Db);
        admin.put(200, "permissions/graph", Map.of("revision", revision, "groups", Map.of(
                "1", Map.of(db, Map.of("view-data", "unrestricted", "create-queries", "query-builder")),
                String.valueOf(builders), Map.of(db, Map.of("view-data", "unrestricted", "create-queries", "query-builder")),
                String.valueOf(writers), Map.of(db, Map.of("view-data", "unrestricted", "create-queries", "query-builder-and-native")))));
        try {
            String viewer = admin.post(200, "api-key", Map.of("name", "Upload viewer", "group_id", builders)).json().get("unmasked_key").asText();
            String writer = admin.post(200, "api-key", Map.of("name", "Upload writer", "group_id", writers)).json().get("unmasked_key").asText();
            long tables = h2Tables();
            long cards = cards();
            Api.Res refused = upload("upload/csv", "X-Api-Key", viewer, "viewer.csv", "a\n1\n", null);
            assertEquals(403, refused.status(), refused.body());
            assertEquals("You don't have permissions to do that.", refused.body());
            assertEquals(403, upload("card/from-csv", "X-Api-Key", viewer, "viewer.csv", "a\n1\n", null).status());
            assertEquals(tables, h2Tables(), "no table was created");
            assertEquals(cards, cards(), "no model was made");

            Api.Res allowed = upload("upload/csv", "X-Api-Key", writer, "writer.csv", "a\n1\n2\n", null);
            assertEquals(200, allowed.status(), allowed.body());
            assertEquals(tables + 1, h2Tables());
            assertEquals(2, h2Rows("up\\_writer\\_%"));
        } finally {
            revision = admin.get(200, "permissions/graph").json().get("revision").asLong();
            admin.put(200, "permissions/graph", Map.of("revision", revision, "groups", Map.of(
                    "1", Map.of(db, Map.of("view-data", "unrestricted", "create-queries", "query-builder-and-native")))));
        }
    }

    /**
     * The file streams to a temporary file up to {@code max-upload-size-bytes}: past it a 413 and no table, whether
     * the body declares its length (refused before it is read) or comes chunked (refused as soon as it passes).
     */
    @Test
    void anUploadOverTheLimitIs413AndLeavesNothing() {
        useDatabase(h2Db, true);
        admin.put(204, "setting/max-upload-size-bytes", Map.of("value", 100_000));
        try {
            long tables = h2Tables();
            long cards = cards();
            // past the limit and the form's allowance for its other parts: refused by its declared length alone
            byte[] big = bigCsv(60_000);
            assertTrue(big.length > 100_000 + io.quarry.web.body.MultipartForm.OVERHEAD_BYTES, "size " + big.length);
            for (boolean chunked : new boolean[]{false, true}) {
                Api.Res res = uploadStream("X-Metabase-Session", session, "too big.csv", big, chunked);
                assertEquals(413, res.status(), (chunked ? "chunked: " : "by length: ") + res.body());
                assertEquals("The CSV file is too large (at most 100000 bytes).", res.body());
            }
            // just past the limit, streamed: refused as the file passes it
            Api.Res over = uploadStream("X-Metabase-Session", session, "just over.csv", java.util.Arrays.copyOf(bigCsv(3_000), 100_001), false);
            assertEquals(413, over.status(), over.body());
            assertEquals(tables, h2Tables(), "no table was created");
            assertEquals(cards, cards());
            // within the limit, the same endpoint takes it
            Api.Res small = uploadStream("X-Metabase-Session", session, "just fits.csv", bigCsv(1_000), true);
            assertEquals(200, small.status(), small.body());
            assertEquals(1_000, h2Rows("up\\_just\\_fits\\_%"));
        } finally {
            admin.put(204, "setting/max-upload-size-bytes", java.util.Collections.singletonMap("value", null));
        }
    }

    /** A file of several megabytes goes in whole: every row, typed, with the separator and quotes of the small cases. */
    @Test
    void aMultiMegabyteUploadWorks() {
        useDatabase(h2Db, true);
        byte[] csv = bigCsv(120_000);
        assertTrue(csv.length > 6_000_000, "size " + csv.length);
        Api.Res res = uploadStream("X-Metabase-Session", session, "many rows.csv", csv, true);
        assertEquals(200, res.status(), res.body());
        assertEquals(120_000, h2Rows("up\\_many\\_rows\\_%"));
        long modelId = Long.parseLong(res.body().trim());
        JsonNode cols = admin.post(202, "card/" + modelId + "/query", Map.of()).json().get("data").get("cols");
        assertEquals("type/BigInteger", cols.get(1).get("base_type").asText(), cols.toString());
    }
}
