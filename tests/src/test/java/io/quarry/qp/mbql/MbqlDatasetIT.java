package io.quarry.qp.mbql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Structured queries through {@code POST /api/dataset} against the Sample Database (H2, read-only, synced by Quarry):
 * real numbers checked against reference SQL, Metabase's column metadata, MBQL 5, the compiled SQL, row caps,
 * failures, and hostile values that must match nothing and change nothing.
 */
class MbqlDatasetIT {
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static long sampleId;
    private static long shopId;
    private static Path shop;
    private static ServerIds ids;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
        Path sample = SampleCopy.sample();
        sampleId = admin.post(200, "database", Map.of("engine", "h2", "name", "Sample Database", "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password", SampleDatabase.PASSWORD)))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(sampleId).get();
        ids = ServerIds.of(server, sampleId);
        shop = TargetDatabases.h2Shop();
        shopId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + shop, "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(shopId).get();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> query(long database, String mbqlTemplate, KeyQueries.Ids idsOf) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("database", database);
        request.put("type", "query");
        request.put("query", KeyQueries.parse(KeyQueries.resolve(mbqlTemplate, idsOf)));
        return request;
    }

    private static Map<String, Object> sampleQuery(String mbqlTemplate) {
        return query(sampleId, mbqlTemplate, ids);
    }

    private static List<List<Object>> reference(String sql, List<Object> params) throws Exception {
        try (Connection c = SampleDatabase.connect(SampleCopy.sample())) {
            return KeyQueries.rows(c, sql, params);
        }
    }

    @Test
    void keyQueriesReturnTheNumbersPlainSqlReturns() throws Exception {
        for (KeyQueries.KeyQuery q : KeyQueries.all(LocalDateTime.now(ZoneOffset.UTC))) {
            JsonNode result = admin.post(202, "dataset", Map.of("database", sampleId, "type", "query", "query", q.mbql(ids))).json();
            assertEquals("completed", result.get("status").asText(), q.name());
            assertEquals(reference(q.referenceSql(), q.referenceParams()).toString(), ServerIds.rows(result).toString(), q.name());
        }
    }

    @Test
    void categoryTotalsCarryMetabasesColumnMetadata() throws Exception {
        JsonNode result = admin.post(202, "dataset", sampleQuery("{\"source-table\": $ORDERS, \"aggregation\": [[\"count\"],"
                + " [\"sum\", [\"field\", %ORDERS.TOTAL, null]]], \"breakout\": [[\"field\", %PRODUCTS.CATEGORY,"
                + " {\"source-field\": %ORDERS.PRODUCT_ID}]]}")).json();
        assertEquals(4, result.get("row_count").asInt());
        assertEquals("ad-hoc", result.get("context").asText());
        JsonNode rows = result.get("data").get("rows");
        List<List<Object>> expected = reference("SELECT p.CATEGORY, COUNT(*), SUM(o.TOTAL) FROM PUBLIC.ORDERS o"
                + " JOIN PUBLIC.PRODUCTS p ON p.ID = o.PRODUCT_ID GROUP BY p.CATEGORY ORDER BY p.CATEGORY", List.of());
        assertEquals(expected.toString(), ServerIds.rows(result).toString());
        assertEquals("Doohickey", rows.get(0).get(0).asText());

        JsonNode cols = result.get("data").get("cols");
        assertEquals(3, cols.size());
        JsonNode category = cols.get(0);
        assertEquals("CATEGORY", category.get("name").asText());
        assertEquals("Product → Category", category.get("display_name").asText());
        assertEquals("type/Text", category.get("base_type").asText());
        assertEquals("breakout", category.get("source").asText());
        assertEquals(ids.field("PRODUCTS", "CATEGORY"), category.get("id").asLong());
        assertEquals(ids.table("PRODUCTS"), category.get("table_id").asLong());
        assertEquals(ids.field("ORDERS", "PRODUCT_ID"), category.get("fk_field_id").asLong());
        assertEquals("[\"field\"," + ids.field("PRODUCTS", "CATEGORY") + ",{\"source-field\":" + ids.field("ORDERS", "PRODUCT_ID")
                + "}]", category.get("field_ref").toString());
        JsonNode count = cols.get(1);
        assertEquals("count", count.get("name").asText());
        assertEquals("Count", count.get("display_name").asText());
        assertEquals("type/BigInteger", count.get("base_type").asText());
        assertEquals("type/Quantity", count.get("semantic_type").asText());
        assertEquals("aggregation", count.get("source").asText());
        assertEquals("[\"aggregation\",0]", count.get("field_ref").toString());
        assertFalse(count.has("id"));
        JsonNode sum = cols.get(2);
        assertEquals("sum", sum.get("name").asText());
        assertEquals("Sum of Total", sum.get("display_name").asText());
        assertEquals("type/Float", sum.get("base_type").asText());
        assertEquals("[\"aggregation\",1]", sum.get("field_ref").toString());
        assertEquals(3, result.get("data").get("results_metadata").get("columns").size());
        String sql = result.get("data").get("native_form").get("query").asText();
        assertTrue(sql.contains("LEFT JOIN \"PUBLIC\".\"PRODUCTS\" AS \"PRODUCTS__via__PRODUCT_ID\""), sql);
        assertEquals("query", result.get("json_query").get("type").asText());
    }

    @Test
    void bucketedAndBinnedBreakoutsAreNamedLikeMetabase() {
        JsonNode monthly = admin.post(202, "dataset", sampleQuery("{\"source-table\": $ORDERS, \"aggregation\": [[\"count\"]],"
                + " \"breakout\": [[\"field\", %ORDERS.CREATED_AT, {\"temporal-unit\": \"month\"}]], \"limit\": 2}")).json();
        JsonNode month = monthly.get("data").get("cols").get(0);
        assertEquals("CREATED_AT", month.get("name").asText());
        assertEquals("Created At: Month", month.get("display_name").asText());
        assertEquals("month", month.get("unit").asText());
        assertEquals("type/DateTime", month.get("base_type").asText());
        assertEquals("{\"temporal-unit\":\"month\"}", month.get("field_ref").get(2).toString());
        assertTrue(monthly.get("data").get("rows").get(0).get(0).asText().matches("\\d{4}-\\d{2}-01T00:00:00Z"),
                monthly.get("data").get("rows").toString());

        JsonNode weekday = admin.post(202, "dataset", sampleQuery("{\"source-table\": $ORDERS, \"aggregation\": [[\"count\"]],"
                + " \"breakout\": [[\"field\", %ORDERS.CREATED_AT, {\"temporal-unit\": \"day-of-week\"}]]}")).json();
        assertEquals("Created At: Day of week", weekday.get("data").get("cols").get(0).get("display_name").asText());
        assertEquals("type/Integer", weekday.get("data").get("cols").get(0).get("base_type").asText());
        assertEquals(7, weekday.get("row_count").asInt());

        JsonNode binned = admin.post(202, "dataset", sampleQuery("{\"source-table\": $PRODUCTS, \"aggregation\": [[\"count\"]],"
                + " \"breakout\": [[\"field\", %PRODUCTS.RATING, {\"binning\": {\"strategy\": \"num-bins\", \"num-bins\": 5}}]]}")).json();
        JsonNode rating = binned.get("data").get("cols").get(0);
        assertEquals("Rating: 5 bins", rating.get("display_name").asText());
        assertEquals("num-bins", rating.get("binning_info").get("binning_strategy").asText());
        assertEquals(1.0, rating.get("binning_info").get("bin_width").asDouble());
        JsonNode auto = admin.post(202, "dataset", sampleQuery("{\"source-table\": $PRODUCTS, \"aggregation\": [[\"count\"]],"
                + " \"breakout\": [[\"field\", %PRODUCTS.PRICE, {\"binning\": {\"strategy\": \"default\"}}]]}")).json();
        assertEquals("Price: Auto binned", auto.get("data").get("cols").get(0).get("display_name").asText());
        long products = 0;
        for (JsonNode row : auto.get("data").get("rows")) {
            products += row.get(1).asLong();
        }
        assertEquals(200, products, "every product in one bin");
    }

    @Test
    void plainRowsJoinsAndExpressionsDescribeTheirColumns() {
        JsonNode joined = admin.post(202, "dataset", sampleQuery("{\"source-table\": $REVIEWS, \"joins\": [{\"source-table\": $PRODUCTS,"
                + " \"alias\": \"Products\", \"condition\": [\"=\", [\"field\", %REVIEWS.PRODUCT_ID, null],"
                + " [\"field\", %PRODUCTS.ID, {\"join-alias\": \"Products\"}]], \"fields\": [[\"field\", %PRODUCTS.TITLE, {\"join-alias\": \"Products\"}]]}],"
                + " \"expressions\": {\"Stars\": [\"*\", [\"field\", %REVIEWS.RATING, null], 2]},"
                + " \"fields\": [[\"field\", %REVIEWS.ID, null], [\"expression\", \"Stars\"]], \"order-by\": [[\"asc\", [\"field\", %REVIEWS.ID, null]]],"
                + " \"limit\": 3}")).json();
        JsonNode cols = joined.get("data").get("cols");
        assertEquals("[\"ID\",\"Stars\",\"TITLE\"]", names(cols, "name"));
        assertEquals("[\"ID\",\"Stars\",\"Products → Title\"]", names(cols, "display_name"));
        assertEquals("[\"expression\",\"Stars\"]", cols.get(1).get("field_ref").toString());
        assertEquals("Products", cols.get(2).get("source_alias").asText());
        assertEquals("{\"join-alias\":\"Products\"}", cols.get(2).get("field_ref").get(2).toString());
        assertEquals(3, joined.get("row_count").asInt());
        assertEquals(1, joined.get("data").get("rows").get(0).get(0).asInt());

        JsonNode all = admin.post(202, "dataset", sampleQuery("{\"source-table\": $PEOPLE, \"limit\": 1}")).json();
        assertEquals(13, all.get("data").get("cols").size(), "every column of PEOPLE");
        assertEquals(1, all.get("row_count").asInt());
    }

    @Test
    void mbql5QueriesAnswerLikeTheirLegacyForm() {
        String legacy = "{\"source-table\": $ORDERS, \"aggregation\": [[\"count\"]], \"breakout\": [[\"field\", %ORDERS.CREATED_AT,"
                + " {\"temporal-unit\": \"year\"}]], \"filter\": [\">\", [\"field\", %ORDERS.TOTAL, null], 50]}";
        JsonNode expected = admin.post(202, "dataset", sampleQuery(legacy)).json().get("data").get("rows");
        String stage = "{\"lib/type\": \"mbql.stage/mbql\", \"source-table\": $ORDERS,"
                + " \"aggregation\": [[\"count\", {\"lib/uuid\": \"6e0a3b6c-0d4c-4c53-8f3e-5f4a8f6a6a01\"}]],"
                + " \"breakout\": [[\"field\", {\"lib/uuid\": \"6e0a3b6c-0d4c-4c53-8f3e-5f4a8f6a6a02\", \"temporal-unit\": \"year\"}, %ORDERS.CREATED_AT]],"
                + " \"filters\": [[\">\", {\"lib/uuid\": \"6e0a3b6c-0d4c-4c53-8f3e-5f4a8f6a6a03\"},"
                + " [\"field\", {\"lib/uuid\": \"6e0a3b6c-0d4c-4c53-8f3e-5f4a8f6a6a04\"}, %ORDERS.TOTAL], 50]]}";
        Map<String, Object> mbql5 = new LinkedHashMap<>();
        mbql5.put("lib/type", "mbql/query");
        mbql5.put("database", sampleId);
        mbql5.put("stages", List.of(KeyQueries.parse(KeyQueries.resolve(stage, ids))));
        JsonNode actual = admin.post(202, "dataset", mbql5).json();
        assertEquals(expected.toString(), actual.get("data").get("rows").toString());
        assertEquals("Created At: Year", actual.get("data").get("cols").get(0).get("display_name").asText());
    }

    @Test
    void nativeFormShowsTheSqlWithValuesAsParameters() {
        String hostile = "Gizmo' OR '1'='1";
        JsonNode compiled = admin.post(200, "dataset/native", sampleQuery("{\"source-table\": $PRODUCTS, \"filter\": [\"=\","
                + " [\"field\", %PRODUCTS.CATEGORY, null], \"" + hostile.replace("'", "'") + "\"], \"aggregation\": [[\"count\"]]}")).json();
        String sql = compiled.get("query").asText();
        assertTrue(sql.startsWith("SELECT COUNT(*) AS \"count\" FROM \"PUBLIC\".\"PRODUCTS\" WHERE"), sql);
        assertFalse(sql.contains("OR '1'"), sql);
        assertEquals("[\"" + hostile + "\"]", compiled.get("params").toString());
        // ordinary users compile and run structured queries too
        user.post(200, "dataset/native", sampleQuery("{\"source-table\": $PRODUCTS}"));
        assertEquals(200, user.post(202, "dataset", sampleQuery("{\"source-table\": $PRODUCTS}")).json().get("row_count").asInt());
        assertEquals("Unauthenticated", anonymous.post(401, "dataset", sampleQuery("{\"source-table\": $PRODUCTS}")).body());
        assertEquals("Unauthenticated", anonymous.post(401, "dataset/native", sampleQuery("{\"source-table\": $PRODUCTS}")).body());
    }

    @Test
    void dashboardParametersFilterStructuredQueries() throws Exception {
        Map<String, Object> request = new LinkedHashMap<>(sampleQuery("{\"source-table\": $ORDERS, \"aggregation\": [[\"count\"]]}"));
        request.put("parameters", List.of(
                Map.of("type", "category", "value", List.of("Gizmo", "Widget"), "target", List.of("dimension",
                        List.of("field", ids.field("PRODUCTS", "CATEGORY"), Map.of("source-field", ids.field("ORDERS", "PRODUCT_ID"))))),
                Map.of("type", "number/>=", "value", 3, "target", List.of("dimension", List.of("field", ids.field("ORDERS", "QUANTITY"), Map.of()))),
                Map.of("type", "date/all-options", "value", "2025-01-01~2025-06-30", "target", List.of("dimension",
                        List.of("field", ids.field("ORDERS", "CREATED_AT"), Map.of())))));
        JsonNode result = admin.post(202, "dataset", request).json();
        assertEquals(reference("SELECT COUNT(*) FROM PUBLIC.ORDERS o JOIN PUBLIC.PRODUCTS p ON p.ID = o.PRODUCT_ID WHERE p.CATEGORY IN"
                + " ('Gizmo', 'Widget') AND o.QUANTITY >= 3 AND o.CREATED_AT >= TIMESTAMP '2025-01-01 00:00:00'"
                + " AND o.CREATED_AT < TIMESTAMP '2025-07-01 00:00:00'", List.of()).toString(), ServerIds.rows(result).toString());
    }

    @Test
    void rowsAreCappedAsMetabaseCapsThem() {
        JsonNode bare = admin.post(202, "dataset", sampleQuery("{\"source-table\": $ORDERS}")).json();
        assertEquals(2000, bare.get("row_count").asInt());
        assertEquals(2000, bare.get("data").get("rows_truncated").asInt());
        JsonNode grouped = admin.post(202, "dataset", sampleQuery("{\"source-table\": $ORDERS, \"aggregation\": [[\"count\"]],"
                + " \"breakout\": [[\"field\", %ORDERS.ID, null]]}")).json();
        assertEquals(10000, grouped.get("row_count").asInt());
        JsonNode limited = admin.post(202, "dataset", sampleQuery("{\"source-table\": $ORDERS, \"limit\": 2500}")).json();
        assertEquals(2500, limited.get("row_count").asInt());
        assertFalse(limited.get("data").has("rows_truncated"));
        Map<String, Object> constrained = new LinkedHashMap<>(sampleQuery("{\"source-table\": $ORDERS}"));
        constrained.put("constraints", Map.of("max-results", 7));
        assertEquals(7, admin.post(202, "dataset", constrained).json().get("row_count").asInt());
    }

    @Test
    void invalidQueriesFailAsInvalidQueries() {
        assertInvalid(sampleQuery("{\"source-table\": \"card__123\"}"), "Card 123 not found.");
        assertInvalid(sampleQuery("{\"source-table\": $ORDERS, \"filter\": [\"segment\", 7]}"), "Segment 7 not found.");
        assertInvalid(sampleQuery("{\"source-table\": 987654}"), "Table 987654 does not exist.");
        // tables and fields of another database do not exist for this one
        ServerIds shopIds = ServerIds.of(server, shopId);
        long shopOrders = shopIds.table("ORDERS");
        long shopTotal = shopIds.field("ORDERS", "TOTAL");
        assertInvalid(sampleQuery("{\"source-table\": " + shopOrders + "}"), "Table " + shopOrders + " does not exist.");
        assertInvalid(sampleQuery("{\"source-table\": $ORDERS, \"fields\": [[\"field\", " + shopTotal + ", null]]}"),
                "Field " + shopTotal + " does not exist.");
        assertInvalid(sampleQuery("{\"source-table\": $ORDERS, \"aggregation\": [[\"median\"]]}"), "\"median\" needs 1 argument.");
        assertInvalid(sampleQuery("{\"source-table\": $ORDERS, \"filter\": [\"bogus\", 1]}"), "Unknown filter \"bogus\".");
        assertInvalid(sampleQuery("{\"source-table\": $ORDERS, \"breakout\": [[\"field\", %ORDERS.TOTAL, {\"temporal-unit\": \"month\"}]]}"),
                "The column TOTAL is not a date or time: it can't be grouped by month.");
        assertInvalid(sampleQuery("{\"source-table\": $ORDERS, \"fields\": [[\"expression\", \"nope\"]]}"), "No expression named \"nope\".");
        assertInvalid(Map.of("database", sampleId, "type", "query", "query", Map.of()),
                "A structured query needs a \"source-table\" or a \"source-query\".");
        JsonNode failure = admin.post(400, "dataset/native", sampleQuery("{\"source-table\": \"card__5\"}")).json();
        assertEquals("invalid-query", failure.get("error_type").asText());
    }

    private static void assertInvalid(Map<String, Object> request, String message) {
        JsonNode failure = admin.post(400, "dataset", request).json();
        assertEquals("failed", failure.get("status").asText());
        assertEquals("invalid-query", failure.get("error_type").asText(), failure.toString());
        assertEquals(message, failure.get("error").asText());
    }

    /** Hostile text in values and in names the query itself chooses: no effect but the harmless one, data intact. */
    @Test
    void hostileValuesAndNamesMatchNothingAndChangeNothing() throws Exception {
        ServerIds shopIds = ServerIds.of(server, shopId);
        String customers = String.valueOf(shopIds.table("CUSTOMERS"));
        String name = String.valueOf(shopIds.field("CUSTOMERS", "NAME"));
        List<String> hostile = List.of("Ada' OR '1'='1", "x'); DROP TABLE ORDERS; --", "%", "_", "!%", "\\' OR 1=1 --",
                "Ada\" OR \"1\"=\"1", "') UNION SELECT PASSWORD FROM INFORMATION_SCHEMA.USERS --");
        for (String value : hostile) {
            String literal = com.fasterxml.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(value);
            for (String filter : List.of("[\"=\", [\"field\", " + name + ", null], " + literal + "]",
                    "[\"!=\", [\"field\", " + name + ", null], " + literal + ", \"Ada\", \"Grace\"]",
                    "[\"contains\", [\"field\", " + name + ", null], " + literal + "]",
                    "[\"starts-with\", [\"field\", " + name + ", null], " + literal + ", {\"case-sensitive\": false}]",
                    "[\"ends-with\", [\"field\", " + name + ", null], " + literal + "]")) {
                Map<String, Object> request = query(shopId, "{\"source-table\": " + customers + ", \"filter\": " + filter
                        + ", \"aggregation\": [[\"count\"]]}", shopIds);
                JsonNode result = admin.post(202, "dataset", request).json();
                assertEquals("[[0]]", result.get("data").get("rows").toString(), filter);
            }
            // names chosen by the query: expression names, aggregation names, join aliases
            Map<String, Object> named = query(shopId, "{\"source-table\": " + customers + ", \"expressions\": {" + literal
                    + ": [\"concat\", [\"field\", " + name + ", null], " + literal + "]}, \"fields\": [[\"expression\", " + literal + "]],"
                    + " \"order-by\": [[\"asc\", [\"field\", " + name + ", null]]]}", shopIds);
            JsonNode rows = admin.post(202, "dataset", named).json();
            assertEquals("Ada" + value, rows.get("data").get("rows").get(0).get(0).asText());
            assertEquals(value, rows.get("data").get("cols").get(0).get("display_name").asText());
            Map<String, Object> aggregated = query(shopId, "{\"source-table\": " + customers + ", \"aggregation\": [[\"aggregation-options\","
                    + " [\"count\"], {\"name\": " + literal + ", \"display-name\": " + literal + "}]]}", shopIds);
            assertEquals("[[2]]", admin.post(202, "dataset", aggregated).json().get("data").get("rows").toString());
        }
        // a join alias with quotes in it is an identifier, quoted, never SQL
        String orders = String.valueOf(shopIds.table("ORDERS"));
        String customerId = String.valueOf(shopIds.field("ORDERS", "CUSTOMER_ID"));
        String id = String.valueOf(shopIds.field("CUSTOMERS", "ID"));
        String alias = "C\\\" ON 1=1; DROP TABLE CUSTOMERS; --";
        JsonNode joined = admin.post(202, "dataset", query(shopId, "{\"source-table\": " + orders + ", \"joins\": [{\"source-table\": "
                + customers + ", \"alias\": \"" + alias + "\", \"condition\": [\"=\", [\"field\", " + customerId + ", null], [\"field\", " + id
                + ", {\"join-alias\": \"" + alias + "\"}]], \"fields\": \"none\"}], \"aggregation\": [[\"count\"]], \"breakout\": [[\"field\", "
                + name + ", {\"join-alias\": \"" + alias + "\"}]]}", shopIds)).json();
        assertEquals("[[\"Ada\",2],[\"Grace\",1]]", joined.get("data").get("rows").toString());
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + shop, "sa", "secret-pw"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT (SELECT COUNT(*) FROM CUSTOMERS), (SELECT COUNT(*) FROM ORDERS)")) {
            rs.next();
            assertEquals(2, rs.getInt(1), "customers intact");
            assertEquals(3, rs.getInt(2), "orders intact");
        }
    }

    private static String names(JsonNode cols, String key) {
        List<String> names = new ArrayList<>();
        for (JsonNode col : cols) {
            names.add("\"" + col.get(key).asText() + "\"");
        }
        return names.toString().replace(", ", ",");
    }
}
