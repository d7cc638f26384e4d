package io.quarry.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import io.quarry.warehouse.Field;
import io.quarry.warehouse.WarehouseMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Native SQL through POST /api/dataset against a real H2 database: results, parameters, failures, limits. */
class NativeDatasetIT {
    private static TestServer server;
    private static Api api;
    private static Api admin;
    private static long dbId;
    private static long categoryFieldId;
    private static Path shop;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        api = server.api();
        admin = api.as(Fixtures.setUp(api));
        shop = TargetDatabases.h2Shop();
        dbId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + shop, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(dbId).get();
        List<Field> fields = server.quarry().db.with(WarehouseMapper.class, m -> m.listFieldsOfDatabase(dbId));
        categoryFieldId = fields.stream().filter(f -> f.name.equals("CATEGORY")).findFirst().orElseThrow().id;
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> nativeQuery(String sql, Map<String, Object> tags, List<Map<String, Object>> parameters) {
        return Map.of("database", dbId, "type", "native", "native", Map.of("query", sql, "template-tags", tags),
                "parameters", parameters);
    }

    @Test
    void runsSqlAndAnswersInMetabasesShape() {
        JsonNode result = admin.post(202, "dataset", nativeQuery("SELECT CATEGORY, COUNT(*) AS N, SUM(TOTAL) AS S FROM ORDERS "
                + "GROUP BY CATEGORY ORDER BY CATEGORY", Map.of(), List.of())).json();
        assertEquals("completed", result.get("status").asText());
        assertEquals(2, result.get("row_count").asInt());
        assertEquals("ad-hoc", result.get("context").asText());
        assertEquals(dbId, result.get("database_id").asLong());
        JsonNode data = result.get("data");
        assertEquals("[[\"Gizmo\",2,17.75],[\"Widget\",1,20.0]]", data.get("rows").toString());
        JsonNode cols = data.get("cols");
        assertEquals("CATEGORY", cols.get(0).get("name").asText());
        assertEquals("type/Text", cols.get(0).get("base_type").asText());
        assertEquals("type/BigInteger", cols.get(1).get("base_type").asText());
        assertEquals("[\"field\",\"N\",{\"base-type\":\"type/BigInteger\"}]", cols.get(1).get("field_ref").toString());
        assertEquals("native", cols.get(1).get("source").asText());
        assertTrue(data.get("native_form").get("query").asText().startsWith("SELECT CATEGORY"));
        assertEquals(3, data.get("results_metadata").get("columns").size());
        assertTrue(result.get("json_query").get("middleware").get("js-int-to-string?").asBoolean());
        JsonNode dates = admin.post(202, "dataset", nativeQuery("SELECT CREATED_AT FROM CUSTOMERS ORDER BY ID", Map.of(), List.of()))
                .json().get("data").get("rows");
        assertEquals("2024-01-02T10:00:00Z", dates.get(0).get(0).asText());
    }

    @Test
    void parametersAreBoundNeverSpliced() {
        Map<String, Object> tags = Map.of(
                "min", Map.of("name", "min", "display-name", "Min", "type", "number"),
                "cat", Map.of("name", "cat", "display-name", "Category", "type", "dimension",
                        "dimension", List.of("field", categoryFieldId, Map.of()), "widget-type", "string/="));
        String sql = "SELECT ID FROM ORDERS WHERE {{cat}} [[AND TOTAL > {{min}}]] ORDER BY ID";
        assertEquals("[[1],[3]]", admin.post(202, "dataset", nativeQuery(sql, tags, List.of(Map.of("type", "category",
                "target", List.of("dimension", List.of("template-tag", "cat")), "value", List.of("Gizmo"))))).json()
                .get("data").get("rows").toString());
        assertEquals("[[1]]", admin.post(202, "dataset", nativeQuery(sql, tags, List.of(
                Map.of("type", "category", "target", List.of("dimension", List.of("template-tag", "cat")), "value", List.of("Gizmo")),
                Map.of("type", "number", "target", List.of("variable", List.of("template-tag", "min")), "value", 8)))).json()
                .get("data").get("rows").toString());
        // every row when the field filter has no value
        assertEquals(3, admin.post(202, "dataset", nativeQuery(sql, tags, List.of())).json().get("row_count").asInt());
        String hostile = "Gizmo' OR '1'='1";
        assertEquals(0, admin.post(202, "dataset", nativeQuery(sql, tags, List.of(Map.of("type", "category",
                "target", List.of("dimension", List.of("template-tag", "cat")), "value", hostile)))).json().get("row_count").asInt());
        JsonNode compiled = admin.post(200, "dataset/native", nativeQuery(sql, tags, List.of(Map.of("type", "category",
                "target", List.of("dimension", List.of("template-tag", "cat")), "value", hostile)))).json();
        assertFalse(compiled.get("query").asText().contains("OR '1'"), compiled.toString());
        assertEquals(hostile, compiled.get("params").get(0).asText());
    }

    @Test
    void failuresAnswerMetabasesFailureBody() {
        JsonNode bad = admin.post(400, "dataset", nativeQuery("SELECT * FROM NO_SUCH_TABLE", Map.of(), List.of())).json();
        assertEquals("failed", bad.get("status").asText());
        assertTrue(bad.get("error").asText().contains("NO_SUCH_TABLE"), bad.toString());
        assertEquals("driver", bad.get("error_type").asText());
        Map<String, Object> required = Map.of("x", Map.of("name", "x", "type", "text", "required", true));
        JsonNode missing = admin.post(400, "dataset", nativeQuery("SELECT {{x}}", required, List.of())).json();
        assertEquals("missing-required-parameter", missing.get("error_type").asText());
        assertEquals("You'll need to pick a value for 'x' before this query can run.", missing.get("error").asText());
        assertEquals("invalid-query", admin.post(400, "dataset", Map.of("database", dbId, "type", "native", "native", Map.of()))
                .json().get("error_type").asText());
        assertEquals("invalid-query", admin.post(400, "dataset", Map.of("database", 999999, "type", "native",
                "native", Map.of("query", "SELECT 1"))).json().get("error_type").asText());
        api.post(401, "dataset", nativeQuery("SELECT 1", Map.of(), List.of()));
    }

    /**
     * Metabase's substitution: a tag with no value outside any optional clause (one the query does not declare, or an
     * optional one nobody gave a value) stops the query, all such tags named; inside {@code [[ ]]} it drops the clause.
     */
    @Test
    void tagsWithoutAValueAnswerAsMetabaseDoes() {
        JsonNode undeclared = admin.post(400, "dataset", nativeQuery("SELECT COUNT(*) FROM ORDERS WHERE CATEGORY = {{cat}}",
                Map.of(), List.of())).json();
        assertEquals("Cannot run the query: missing required parameters: #{\"cat\"}", undeclared.get("error").asText());
        assertEquals("missing-required-parameter", undeclared.get("error_type").asText());
        assertEquals("failed", undeclared.get("status").asText());

        Map<String, Object> optional = Map.of("cat", Map.of("name", "cat", "display-name", "Category", "type", "text"),
                "min", Map.of("name", "min", "type", "number"));
        JsonNode bare = admin.post(400, "dataset", nativeQuery("SELECT COUNT(*) FROM ORDERS WHERE CATEGORY = {{cat}} AND TOTAL > {{min}}",
                optional, List.of())).json();
        assertEquals("Cannot run the query: missing required parameters: #{\"cat\" \"min\"}", bare.get("error").asText());
        assertEquals("missing-required-parameter", bare.get("error_type").asText());

        // inside [[ ]] the clause goes, declared or not; with a value it stays
        assertEquals(3, admin.post(202, "dataset", nativeQuery("SELECT COUNT(*) FROM ORDERS WHERE 1 = 1 [[AND CATEGORY = {{cat}}]]"
                + " [[AND TOTAL > {{nope}}]]", optional, List.of())).json().get("data").get("rows").get(0).get(0).asInt());
        assertEquals(2, admin.post(202, "dataset", nativeQuery("SELECT COUNT(*) FROM ORDERS WHERE 1 = 1 [[AND CATEGORY = {{cat}}]]",
                optional, List.of(Map.of("type", "category", "target", List.of("variable", List.of("template-tag", "cat")),
                        "value", "Gizmo")))).json().get("data").get("rows").get(0).get(0).asInt());
        // a required tag keeps its own message (inside [[ ]] too)
        Map<String, Object> required = Map.of("cat", Map.of("name", "cat", "display-name", "Category", "type", "text",
                "required", true));
        assertEquals("You'll need to pick a value for 'cat' before this query can run.", admin.post(400, "dataset",
                nativeQuery("SELECT 1 [[WHERE {{cat}} = 'x']]", required, List.of())).json().get("error").asText());
    }

    @Test
    void h2QueriesMayOnlyReadData() {
        for (String sql : List.of("SELECT FILE_READ('/etc/passwd')", "CREATE ALIAS X AS $$ String x() { return \"\"; } $$",
                "SELECT * FROM CSVREAD('/etc/passwd')", "DROP TABLE ORDERS", "select 1; runscript from 'x'")) {
            JsonNode refused = admin.post(400, "dataset", nativeQuery(sql, Map.of(), List.of())).json();
            assertEquals("invalid-query", refused.get("error_type").asText(), sql);
        }
        // the words are fine inside literals and quoted names
        assertEquals("[[\"file_read\"]]", admin.post(202, "dataset", nativeQuery("SELECT 'file_read' AS \"DROP\"", Map.of(), List.of()))
                .json().get("data").get("rows").toString());
        assertEquals(3, admin.post(202, "dataset", nativeQuery("SELECT * FROM ORDERS", Map.of(), List.of())).json()
                .get("row_count").asInt(), "data intact");
    }

    @Test
    void queryMetadataNamesTheDatabaseTablesAndFields() {
        Map<String, Object> tags = Map.of("cat", Map.of("name", "cat", "type", "dimension",
                "dimension", List.of("field", categoryFieldId, Map.of()), "widget-type", "string/="));
        JsonNode nativeMeta = admin.post(200, "dataset/query_metadata", nativeQuery("SELECT * FROM ORDERS WHERE {{cat}}", tags, List.of())).json();
        assertEquals(dbId, nativeMeta.get("databases").get(0).get("id").asLong());
        assertFalse(nativeMeta.get("databases").get(0).has("details"));
        assertEquals("CATEGORY", nativeMeta.get("fields").get(0).get("name").asText());
        var tables = server.quarry().db.with(io.quarry.warehouse.WarehouseMapper.class, m -> m.listTables(dbId, true));
        long orders = tables.stream().filter(t -> t.name.equals("ORDERS")).findFirst().orElseThrow().id;
        long customers = tables.stream().filter(t -> t.name.equals("CUSTOMERS")).findFirst().orElseThrow().id;
        JsonNode mbqlMeta = admin.post(200, "dataset/query_metadata", Map.of("database", dbId, "type", "query",
                "query", Map.of("source-table", orders, "joins", List.of(Map.of("source-table", customers, "alias", "C",
                        "condition", List.of("=", 1, 1)))))).json();
        assertEquals(2, mbqlMeta.get("tables").size());
        assertEquals("ORDERS", mbqlMeta.get("tables").get(0).get("name").asText());
        assertTrue(mbqlMeta.get("tables").get(0).get("fields").size() >= 4);
        api.post(401, "dataset/query_metadata", nativeQuery("SELECT 1", Map.of(), List.of()));
        admin.post(400, "dataset/query_metadata", Map.of("type", "native"));
    }

    @Test
    void apiResultsStopAtTheRowLimit() {
        JsonNode result = admin.post(202, "dataset", nativeQuery("SELECT X FROM SYSTEM_RANGE(1, 2500)", Map.of(), List.of())).json();
        assertEquals(2000, result.get("row_count").asInt());
        assertEquals(2000, result.get("data").get("rows_truncated").asInt());
        JsonNode capped = admin.post(202, "dataset", Map.of("database", dbId, "type", "native",
                "native", Map.of("query", "SELECT X FROM SYSTEM_RANGE(1, 2500)"), "constraints", Map.of("max-results", 10))).json();
        assertEquals(10, capped.get("row_count").asInt());
    }
}
