package io.quarry.qp.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.qp.QueryProcessor;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import io.quarry.core.Json;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dhatim.fastexcel.reader.CellType;
import org.dhatim.fastexcel.reader.ReadableWorkbook;
import org.dhatim.fastexcel.reader.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/dataset/:export-format} over HTTP against a real H2 shop and a real PostgreSQL: each format's
 * content and headers, JSON and form-encoded bodies, formatting, the absolute row cap, failures and callers.
 */
class ExportIT {
    /** Every kind of value a download writes differently, from the H2 shop. */
    private static final String H2_SQL = "SELECT ID, NAME, CREATED_AT, CAST(CREATED_AT AS DATE) AS CREATED_ON, "
            + "TIMESTAMP '2014-04-01 00:00:00' AS MIDNIGHT, 'a,b \"c\"' AS TRICKY, 'line1' || CHAR(10) || 'line2' AS MULTI, "
            + "CAST(NULL AS VARCHAR) AS NOTHING, 1234567.891 AS BIG, TRUE AS YES FROM CUSTOMERS ORDER BY ID";
    private static final String H2_HEADER = "ID,NAME,CREATED_AT,CREATED_ON,MIDNIGHT,TRICKY,MULTI,NOTHING,BIG,YES\n";
    private static final String PG_SQL = "SELECT id, name, amount, day, at, flag FROM items ORDER BY id";

    private static TestServer server;
    private static Api api;
    private static String adminSession;
    private static Downloads admin;
    private static Downloads user;
    private static long shopId;
    private static long pgId;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        api = server.api();
        adminSession = Fixtures.setUp(api);
        Api adminApi = api.as(adminSession);
        admin = Downloads.session(server.base, adminSession);
        String key = adminApi.post(200, "api-key", Map.of("name", "Ordinary", "group_id", 1)).json().get("unmasked_key").asText();
        user = Downloads.apiKey(server.base, key);
        shopId = adminApi.post(200, "database", Map.of("engine", "h2", "name", "Shop", "details",
                Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        String pg = PostgresTargets.create("exports");
        PostgresTargets.execute(pg,
                "CREATE TABLE items (id integer PRIMARY KEY, name text, amount numeric(12,2), day date, at timestamp, flag boolean)",
                "INSERT INTO items VALUES (1, 'Widget, large', 1234.50, DATE '2014-04-07', TIMESTAMP '2014-04-01 08:30:00', true), "
                        + "(2, 'Gizmo \"mini\"', 7.25, DATE '2020-02-29', TIMESTAMP '2020-02-29 00:00:00', false), "
                        + "(3, NULL, NULL, NULL, NULL, NULL)");
        PostgresTargets.ensureDriver(server.quarry());
        pgId = adminApi.post(200, "database", Map.of("engine", "postgres", "name", "Items", "details", PostgresTargets.details(pg)))
                .json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> nativeQuery(long database, String sql) {
        return Map.of("database", database, "type", "native", "native", Map.of("query", sql));
    }

    private static Map<String, Object> body(Map<String, Object> query, Object... more) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("query", query);
        body.put("visualization_settings", Map.of());
        for (int i = 0; i < more.length; i += 2) {
            body.put((String) more[i], more[i + 1]);
        }
        return body;
    }

    private static void assertDownloadHeaders(Downloads.Download download, String contentType, String extension) {
        assertEquals(200, download.status(), download.text());
        assertEquals(contentType.replace(" ", ""), download.header("Content-Type").replace(" ", ""));
        String disposition = download.header("Content-Disposition");
        assertNotNull(disposition);
        assertTrue(disposition.matches("attachment; filename=\"query_result_\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z\\."
                + extension + "\""), disposition);
        assertEquals("max-age=0, no-cache, must-revalidate, proxy-revalidate", download.header("Cache-Control"));
        assertEquals("Tue, 03 Jul 2001 06:00:00 GMT", download.header("Expires"));
        assertEquals("no", download.header("X-Accel-Buffering"));
    }

    @Test
    void csvHasATitleRowQuotedFieldsAndUnformattedValues() {
        Downloads.Download csv = admin.json("csv", body(nativeQuery(shopId, H2_SQL), "format_rows", false));
        assertDownloadHeaders(csv, "text/csv", "csv");
        assertEquals(H2_HEADER
                + "1,Ada,2024-01-02T10:00:00,2024-01-02,2014-04-01,\"a,b \"\"c\"\"\",\"line1\nline2\",,1234567.891,true\n"
                + "2,Grace,2024-02-03T11:00:00,2024-02-03,2014-04-01,\"a,b \"\"c\"\"\",\"line1\nline2\",,1234567.891,true\n",
                csv.text());
    }

    @Test
    void csvWithFormattedRowsFromAFormPost() {
        // How Metabase's own download buttons post since 0.53: form fields, the query as JSON text.
        Downloads.Download csv = admin.form("csv", Map.of("query", nativeQuery(shopId, H2_SQL), "format_rows", "true",
                "pivot_results", "false", "visualization_settings", "{}"));
        assertDownloadHeaders(csv, "text/csv", "csv");
        assertEquals(H2_HEADER
                + "1,Ada,\"January 2, 2024, 10:00 AM\",\"January 2, 2024\",\"April 1, 2014, 12:00 AM\",\"a,b \"\"c\"\"\","
                + "\"line1\nline2\",,\"1,234,567.89\",true\n"
                + "2,Grace,\"February 3, 2024, 11:00 AM\",\"February 3, 2024\",\"April 1, 2014, 12:00 AM\",\"a,b \"\"c\"\"\","
                + "\"line1\nline2\",,\"1,234,567.89\",true\n", csv.text());
        // the same from a JSON body with a boolean, and with the query as a JSON string
        assertEquals(csv.text(), admin.json("csv", body(nativeQuery(shopId, H2_SQL), "format_rows", true)).text());
        Map<String, Object> asString = new LinkedHashMap<>();
        asString.put("query", Json.write(nativeQuery(shopId, H2_SQL)));
        asString.put("format_rows", "true");
        assertEquals(csv.text(), admin.json("csv", asString).text());
    }

    @Test
    void csvMayStartWithAByteOrderMark() {
        Downloads.Download csv = admin.form("csv", Map.of("query", nativeQuery(shopId, "SELECT 1 AS ONE"), "csv_include_bom", "true"));
        byte[] bytes = csv.bytes();
        assertEquals(0xEF, bytes[0] & 0xFF);
        assertEquals(0xBB, bytes[1] & 0xFF);
        assertEquals(0xBF, bytes[2] & 0xFF);
        assertEquals("\uFEFFONE\n1\n", csv.text());
    }

    @Test
    void jsonIsAnArrayOfObjectsKeyedByDisplayName() {
        Downloads.Download json = admin.json("json", body(nativeQuery(shopId, H2_SQL)));
        assertDownloadHeaders(json, "application/json; charset=utf-8", "json");
        assertTrue(json.text().startsWith("[\n{\"ID\":1,"), json.text());
        JsonNode rows = read(json.text());
        assertEquals(2, rows.size());
        JsonNode ada = rows.get(0);
        assertEquals(List.of("ID", "NAME", "CREATED_AT", "CREATED_ON", "MIDNIGHT", "TRICKY", "MULTI", "NOTHING", "BIG", "YES"),
                iterable(ada.fieldNames()));
        assertTrue(ada.get("ID").isIntegralNumber());
        assertEquals("Ada", ada.get("NAME").asText());
        assertEquals("2024-01-02T10:00:00", ada.get("CREATED_AT").asText());
        assertEquals("2024-01-02", ada.get("CREATED_ON").asText());
        assertEquals("2014-04-01", ada.get("MIDNIGHT").asText());
        assertEquals("line1\nline2", ada.get("MULTI").asText());
        assertTrue(ada.get("NOTHING").isNull());
        assertEquals(new BigDecimal("1234567.891"), ada.get("BIG").decimalValue());
        assertTrue(ada.get("YES").isBoolean());

        JsonNode formatted = read(admin.json("json", body(nativeQuery(shopId, H2_SQL), "format_rows", "true")).text()).get(1);
        assertEquals("\"2\"", formatted.get("ID").toString());
        assertEquals("February 3, 2024, 11:00 AM", formatted.get("CREATED_AT").asText());
        assertEquals("1,234,567.89", formatted.get("BIG").asText());
        assertEquals("[\n]", admin.json("json", body(nativeQuery(shopId, "SELECT * FROM ORDERS WHERE 1 = 0"))).text());
    }

    @Test
    void xlsxReadsBackWithTypedCells() throws Exception {
        Downloads.Download xlsx = admin.json("xlsx", body(nativeQuery(shopId, H2_SQL)));
        assertDownloadHeaders(xlsx, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx");
        List<Row> rows = readXlsx(xlsx.bytes());
        assertEquals(3, rows.size());
        assertEquals(List.of("ID", "NAME", "CREATED_AT", "CREATED_ON", "MIDNIGHT", "TRICKY", "MULTI", "NOTHING", "BIG", "YES"),
                rows.get(0).stream().map(c -> c.getText()).toList());
        Row ada = rows.get(1);
        assertEquals(CellType.NUMBER, ada.getCell(0).getType());
        assertEquals(0, BigDecimal.ONE.compareTo(ada.getCellAsNumber(0).orElseThrow()));
        assertEquals("Ada", ada.getCellText(1));
        assertEquals(LocalDateTime.of(2024, 1, 2, 10, 0), ada.getCellAsDate(2).orElseThrow());
        assertEquals("yyyy-mm-dd hh:mm:ss", ada.getCell(2).getDataFormatString());
        assertEquals(LocalDateTime.of(2024, 1, 2, 0, 0), ada.getCellAsDate(3).orElseThrow());
        assertEquals("yyyy-mm-dd", ada.getCell(3).getDataFormatString());
        assertEquals("a,b \"c\"", ada.getCellText(5));
        assertEquals("line1\nline2", ada.getCellText(6));
        assertFalse(ada.hasCell(7) && ada.getCell(7).getType() != CellType.EMPTY, "null is an empty cell");
        assertEquals(0, new BigDecimal("1234567.891").compareTo(ada.getCellAsNumber(8).orElseThrow()));
        assertEquals(Boolean.TRUE, ada.getCellAsBoolean(9).orElseThrow());

        Row formatted = readXlsx(admin.json("xlsx", body(nativeQuery(shopId, H2_SQL), "format_rows", true)).bytes()).get(2);
        assertEquals("mmmm d, yyyy, h:mm AM/PM", formatted.getCell(2).getDataFormatString());
        assertEquals("#,##0.##", formatted.getCell(8).getDataFormatString());
    }

    @Test
    void apiIsTheResultObjectWithoutTheApiRowLimit() {
        Map<String, Object> query = new LinkedHashMap<>(nativeQuery(shopId, "SELECT X FROM SYSTEM_RANGE(1, 2500)"));
        query.put("constraints", Map.of("max-results", 10));
        Downloads.Download download = admin.json("api", body(query));
        assertEquals(202, download.status(), download.text());
        assertEquals("application/json;charset=utf-8", download.header("Content-Type").replace(" ", ""));
        assertNull(download.header("Content-Disposition"));
        JsonNode result = read(download.text());
        assertEquals("completed", result.get("status").asText());
        assertEquals("api-download", result.get("context").asText());
        assertEquals(2500, result.get("row_count").asInt(), "a download ignores the API's limits and the query's constraints");
        assertEquals(2500, result.get("data").get("rows").size());
        assertFalse(result.get("data").has("rows_truncated"));
        assertFalse(result.get("json_query").has("constraints"));
        assertTrue(result.get("json_query").get("middleware").get("process-viz-settings?").asBoolean());
        // POST /api/dataset keeps its limit
        assertEquals(2000, api.as(adminSession).post(202, "dataset", query.entrySet().stream()
                .filter(e -> !e.getKey().equals("constraints")).collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                        Map.Entry::getValue))).json().get("row_count").asInt());
    }

    @Test
    void downloadsStopAtTheAbsoluteMaximum() throws Exception {
        HttpResponse<InputStream> response = admin.stream("csv", body(nativeQuery(shopId, "SELECT X FROM SYSTEM_RANGE(1, 1048600)")));
        assertEquals(200, response.statusCode());
        long lines = 0;
        String last = null;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines++;
                last = line;
            }
        }
        assertEquals(QueryProcessor.ABSOLUTE_MAX_ROWS + 1, lines, "a title row and 1,048,575 rows");
        assertEquals("1048575", last);
    }

    @Test
    void postgresDownloadsInEveryFormat() throws Exception {
        Downloads.Download csv = admin.json("csv", body(nativeQuery(pgId, PG_SQL)));
        assertDownloadHeaders(csv, "text/csv", "csv");
        assertEquals("id,name,amount,day,at,flag\n"
                + "1,\"Widget, large\",1234.50,2014-04-07,2014-04-01T08:30:00,true\n"
                + "2,\"Gizmo \"\"mini\"\"\",7.25,2020-02-29,2020-02-29,false\n"
                + "3,,,,,\n", csv.text());
        assertEquals("id,name,amount,day,at,flag\n"
                + "1,\"Widget, large\",\"1,234.5\",\"April 7, 2014\",\"April 1, 2014, 8:30 AM\",true\n"
                + "2,\"Gizmo \"\"mini\"\"\",7.25,\"February 29, 2020\",\"February 29, 2020, 12:00 AM\",false\n"
                + "3,,,,,\n", admin.form("csv", Map.of("query", nativeQuery(pgId, PG_SQL), "format_rows", "true")).text());

        assertEquals("[\n{\"id\":1,\"name\":\"Widget, large\",\"amount\":1234.50,\"day\":\"2014-04-07\",\"at\":\"2014-04-01T08:30:00\","
                + "\"flag\":true},\n"
                + "{\"id\":2,\"name\":\"Gizmo \\\"mini\\\"\",\"amount\":7.25,\"day\":\"2020-02-29\",\"at\":\"2020-02-29\",\"flag\":false},\n"
                + "{\"id\":3,\"name\":null,\"amount\":null,\"day\":null,\"at\":null,\"flag\":null}\n]",
                admin.json("json", body(nativeQuery(pgId, PG_SQL))).text());

        List<Row> rows = readXlsx(admin.json("xlsx", body(nativeQuery(pgId, PG_SQL))).bytes());
        assertEquals(4, rows.size());
        assertEquals("Widget, large", rows.get(1).getCellText(1));
        assertEquals(0, new BigDecimal("1234.5").compareTo(rows.get(1).getCellAsNumber(2).orElseThrow()));
        assertEquals(LocalDateTime.of(2014, 4, 7, 0, 0), rows.get(1).getCellAsDate(3).orElseThrow());
        assertEquals(LocalDateTime.of(2014, 4, 1, 8, 30), rows.get(1).getCellAsDate(4).orElseThrow());
        assertEquals(Boolean.FALSE, rows.get(2).getCellAsBoolean(5).orElseThrow());

        String api = admin.json("api", body(nativeQuery(pgId, PG_SQL))).text();
        assertEquals(3, read(api).get("row_count").asInt());
        assertTrue(api.contains("\"rows\":[[1,\"Widget, large\",1234.50,\"2014-04-07T00:00:00Z\",\"2014-04-01T08:30:00Z\",true],"), api);
    }

    @Test
    void anOrdinaryUserMayDownload() {
        assertEquals("ONE\n1\n", user.json("csv", body(nativeQuery(shopId, "SELECT 1 AS ONE"))).text());
    }

    @Test
    void anonymousCallersAreRefused() {
        Downloads anonymous = Downloads.anonymous(server.base);
        for (String format : List.of("csv", "json", "xlsx", "api")) {
            Downloads.Download json = anonymous.json(format, body(nativeQuery(shopId, "SELECT 1")));
            assertEquals(401, json.status());
            assertEquals("Unauthenticated", json.text());
        }
        Downloads.Download form = anonymous.form("csv", Map.of("query", nativeQuery(shopId, "SELECT 1")));
        assertEquals(401, form.status());
        assertEquals("Unauthenticated", form.text());
    }

    @Test
    void unknownFormatsAreUnknownEndpoints() {
        for (String format : List.of("pdf", "CSV", "xls", "csv.gz")) {
            Downloads.Download download = admin.json(format, body(nativeQuery(shopId, "SELECT 1")));
            assertEquals(404, download.status(), format);
            assertEquals("API endpoint does not exist.", download.text());
        }
    }

    @Test
    void badBodiesAreRefusedNamingTheField() {
        Downloads.Download missing = admin.json("csv", Map.of("format_rows", false));
        assertEquals(400, missing.status());
        assertEquals("value must be a valid JSON string.", read(missing.text()).get("errors").get("query").asText());
        Downloads.Download notJson = admin.form("csv", Map.of("query", "{not json"));
        assertEquals(400, notJson.status());
        assertEquals("value must be a valid JSON string.", read(notJson.text()).get("errors").get("query").asText());
        Downloads.Download badBoolean = admin.json("csv", body(nativeQuery(shopId, "SELECT 1"), "format_rows", "maybe"));
        assertEquals(400, badBoolean.status());
        assertEquals("value must be a valid boolean string ('true' or 'false').",
                read(badBoolean.text()).get("errors").get("format_rows").asText());
        Downloads.Download notAMap = admin.send("csv", "application/json", "[1]");
        assertEquals(400, notAMap.status());
        // Metabase ignores a body that is neither JSON nor a form and validates {} (COMPAT-2 §G): query is missing
        Downloads.Download otherType = admin.send("csv", "text/plain", "query=x");
        assertEquals(400, otherType.status());
        assertTrue(read(otherType.text()).get("errors").has("query"));
    }

    @Test
    void queriesThatFailAnswerMetabasesFailureBody() {
        for (String format : List.of("csv", "json", "xlsx", "api")) {
            Downloads.Download failed = admin.json(format, body(nativeQuery(shopId, "SELECT * FROM NO_SUCH_TABLE")));
            assertEquals(400, failed.status(), format);
            assertTrue(failed.header("Content-Type").startsWith("application/json"), failed.header("Content-Type"));
            assertNull(failed.header("Content-Disposition"));
            JsonNode body = read(failed.text());
            assertEquals("failed", body.get("status").asText());
            assertEquals("driver", body.get("error_type").asText());
            assertTrue(body.get("error").asText().contains("NO_SUCH_TABLE"), body.toString());
            assertEquals(shopId, body.get("database_id").asLong());
        }
        Downloads.Download pg = admin.form("csv", Map.of("query", nativeQuery(pgId, "SELECT nope FROM items")));
        assertEquals(400, pg.status());
        assertEquals("42703", read(pg.text()).get("state").asText());
        Downloads.Download noDatabase = admin.json("csv", body(nativeQuery(999_999, "SELECT 1")));
        assertEquals(400, noDatabase.status());
        assertEquals("invalid-query", read(noDatabase.text()).get("error_type").asText());
        Downloads.Download mbql = admin.json("csv", body(Map.of("database", shopId, "type", "query", "query", Map.of("source-table", 999_999))));
        assertEquals(400, mbql.status());
        assertEquals("invalid-query", read(mbql.text()).get("error_type").asText());
    }

    private static JsonNode read(String text) {
        try {
            return Json.read(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    private static List<String> iterable(java.util.Iterator<String> names) {
        List<String> list = new java.util.ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }

    static List<Row> readXlsx(byte[] bytes) throws Exception {
        try (ReadableWorkbook workbook = new ReadableWorkbook(new ByteArrayInputStream(bytes),
                new org.dhatim.fastexcel.reader.ReadingOptions(true, false))) {
            return workbook.getFirstSheet().read();
        }
    }
}
