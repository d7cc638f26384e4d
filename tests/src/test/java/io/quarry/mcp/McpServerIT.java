package io.quarry.mcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarry.core.Json;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The built-in MCP server driven by the official MCP Java SDK's client over Streamable HTTP (as an AI client drives
 * Metabase's), and by plain HTTP for the transport's refusals: tools listed and called as an administrator, an
 * ordinary user's missing SQL and collection rights, API keys, and the JSON-RPC errors.
 */
class McpServerIT {
    private static final String PASSWORD = "Mcp-user-pw-42";

    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static String adminSession;
    private static String userSession;
    private static String apiKey;
    private static long db;
    private static long ordersTable;
    private static long peopleTable;
    private static long secretCollection;
    private static long secretCard;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        adminSession = Fixtures.setUp(anonymous);
        admin = anonymous.as(adminSession);
        db = addSample("MCP Sample");
        Map<String, Long> tables = new HashMap<>();
        for (JsonNode t : admin.get(200, "database/" + db + "/metadata").json().get("tables")) {
            tables.put(t.get("name").asText(), t.get("id").asLong());
        }
        ordersTable = tables.get("ORDERS");
        peopleTable = tables.get("PEOPLE");
        admin.post(200, "user", Map.of("email", "rasta@example.com", "first_name", "Rasta", "last_name", "Toucan",
                "password", PASSWORD));
        userSession = Fixtures.login(anonymous, "rasta@example.com", PASSWORD);
        apiKey = admin.post(200, "api-key", Map.of("name", "MCP client", "group_id", 1)).json().get("unmasked_key").asText();
        // All Users may build queries on the sample but not write SQL
        long revision = admin.get(200, "permissions/graph").json().get("revision").asLong();
        admin.put(200, "permissions/graph", Map.of("revision", revision, "groups", Map.of("1", Map.of(String.valueOf(db),
                Map.of("view-data", "unrestricted", "create-queries", "query-builder")))));
        // a collection All Users may not see, with a question in it
        secretCollection = admin.post(200, "collection", Map.of("name", "Secret plans")).json().get("id").asLong();
        secretCard = admin.post(200, "card", Map.of("name", "Secret zebra orders", "display", "table",
                "visualization_settings", Map.of(), "collection_id", secretCollection,
                "dataset_query", countOrders())).json().get("id").asLong();
        long collectionRevision = admin.get(200, "collection/graph").json().get("revision").asLong();
        admin.put(200, "collection/graph", Map.of("revision", collectionRevision, "groups",
                Map.of("1", Map.of(String.valueOf(secretCollection), "none"))));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long addSample(String name) throws Exception {
        Path sample = SampleDatabase.ensure(Files.createTempDirectory("quarry-sample"));
        long id = admin.post(200, "database", Map.of("engine", "h2", "name", name, "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password",
                        SampleDatabase.PASSWORD))).json().get("id").asLong();
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            if ("complete".equals(admin.get(200, "database/" + id).json().get("initial_sync_status").asText())
                    && !server.quarry().sync.isSyncing(id)) {
                return id;
            }
            Thread.sleep(100);
        }
        fail("The sample database did not sync in time");
        return id;
    }

    private static Map<String, Object> countOrders() {
        return Map.of("database", db, "type", "query", "query",
                Map.of("source-table", ordersTable, "aggregation", List.of(List.of("count"))));
    }

    // --- the SDK's client ------------------------------------------------------------------------------------------

    private static McpSyncClient client(String header, String value) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(server.base.toString())
                .endpoint("api/metabase-mcp")
                .requestBuilder(HttpRequest.newBuilder().header(header, value))
                .build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .clientInfo(new McpSchema.Implementation("quarry-test", "1.0")).build();
        McpSchema.InitializeResult init = client.initialize();
        assertEquals("metabase", init.serverInfo().name());
        assertNotNull(init.capabilities().tools(), "the server offers tools");
        return client;
    }

    private static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.callTool(new McpSchema.CallToolRequest(tool, arguments));
    }

    /** The JSON of a successful tool result's text. */
    private static JsonNode ok(McpSchema.CallToolResult result) throws Exception {
        String text = text(result);
        assertFalse(Boolean.TRUE.equals(result.isError()), "the tool failed: " + text);
        return Json.read(text);
    }

    private static String text(McpSchema.CallToolResult result) {
        for (McpSchema.Content c : result.content()) {
            if (c instanceof McpSchema.TextContent t) {
                return t.text();
            }
        }
        fail("no text in " + result);
        return null;
    }

    private static String refused(McpSchema.CallToolResult result) {
        assertTrue(Boolean.TRUE.equals(result.isError()), "expected a refusal, got " + text(result));
        return text(result);
    }

    @Test
    void anAdministratorsClientListsTheToolsAndUsesThem() throws Exception {
        try (McpSyncClient client = client("X-Metabase-Session", adminSession)) {
            client.ping();
            Set<String> names = client.listTools().tools().stream().map(McpSchema.Tool::name).collect(Collectors.toSet());
            assertEquals(Set.of("search", "read_resource", "construct_query", "execute_query", "query", "execute_sql",
                    "create_question", "update_question", "create_dashboard", "update_dashboard", "create_collection",
                    "visualize_query"), names);

            // search finds the table and the question, as the REST search does
            JsonNode found = ok(call(client, "search", Map.of("term_queries", List.of("orders"))));
            assertTrue(hasHit(found, "table", ordersTable), found.toString());
            assertTrue(hasHit(ok(call(client, "search", Map.of("term_queries", List.of("zebra")))), "question", secretCard));

            // table metadata
            JsonNode resources = ok(call(client, "read_resource", Map.of("uris", List.of("metabase://table/" + ordersTable,
                    "metabase://database/" + db, "metabase://table/999999")))).get("resources");
            List<String> fields = new ArrayList<>();
            resources.get(0).get("content").get("fields").forEach(f -> fields.add(f.get("name").asText()));
            assertTrue(fields.containsAll(List.of("ID", "TOTAL", "PRODUCT_ID")), fields.toString());
            assertTrue(resources.get(1).get("content").get("tables").toString().contains("\"PEOPLE\""));
            assertEquals("Not found.", resources.get(2).get("error").asText());

            // construct a query, run it: the count the REST API answers
            long restCount = admin.post(202, "dataset", countOrders()).json().get("data").get("rows").get(0).get(0).asLong();
            String handle = ok(call(client, "construct_query", Map.of("query", countOrders()))).get("query").asText();
            JsonNode run = ok(call(client, "execute_query", Map.of("query", handle)));
            assertEquals(restCount, run.get("data").get("rows").get(0).get(0).asLong());
            assertEquals("count", run.get("data").get("cols").get(0).get("name").asText());
            assertTrue(refused(call(client, "construct_query", Map.of("query", Map.of("database", db, "type", "query",
                    "query", Map.of("source-table", 999999))))).length() > 0, "an unknown table is a tool error");

            // paging: 200 rows a page, a continuation token for the next
            Map<String, Object> people = Map.of("database", db, "type", "query", "query",
                    Map.of("source-table", peopleTable, "order-by", List.of(List.of("asc", java.util.Arrays.asList("field",
                            idField(peopleTable), null)))));
            JsonNode first = ok(call(client, "query", Map.of("query", people)));
            assertEquals(200, first.get("row_count").asInt());
            String token = first.get("continuation_token").asText();
            JsonNode second = ok(call(client, "query", Map.of("continuation_token", token)));
            assertEquals(200, second.get("row_count").asInt());
            assertNotEquals(first.get("data").get("rows").get(0).toString(), second.get("data").get("rows").get(0).toString());
            assertTrue(second.get("data").get("rows").get(0).get(0).asLong() > first.get("data").get("rows").get(199).get(0).asLong());

            // SQL, with native rights
            JsonNode sql = ok(call(client, "execute_sql", Map.of("database_id", db, "sql", "SELECT COUNT(*) AS N FROM ORDERS")));
            assertEquals(restCount, sql.get("data").get("rows").get(0).get(0).asLong());

            // a collection, a question in it, a dashboard showing it; the REST API sees them
            JsonNode collection = ok(call(client, "create_collection", Map.of("name", "MCP made", "description", "by a client")));
            long collectionId = collection.get("id").asLong();
            assertEquals("MCP made", admin.get(200, "collection/" + collectionId).json().get("name").asText());
            JsonNode question = ok(call(client, "create_question", Map.of("name", "Orders counted", "query", handle,
                    "display", "scalar", "collection_id", collectionId)));
            long cardId = question.get("id").asLong();
            JsonNode card = admin.get(200, "card/" + cardId).json();
            assertEquals("Orders counted", card.get("name").asText());
            assertEquals(collectionId, card.get("collection_id").asLong());
            assertEquals(ordersTable, card.get("dataset_query").get("query").get("source-table").asLong());
            ok(call(client, "update_question", Map.of("id", cardId, "name", "Orders, counted")));
            assertEquals("Orders, counted", admin.get(200, "card/" + cardId).json().get("name").asText());
            JsonNode dashboard = ok(call(client, "create_dashboard", Map.of("name", "MCP board", "collection_id", collectionId,
                    "question_ids", List.of(cardId))));
            assertEquals(1, dashboard.get("dashcard_ids").size());
            JsonNode restDashboard = admin.get(200, "dashboard/" + dashboard.get("id").asLong()).json();
            assertEquals(cardId, restDashboard.get("dashcards").get(0).get("card_id").asLong());
            ok(call(client, "update_dashboard", Map.of("id", dashboard.get("id").asLong(), "description", "Counted")));
            assertEquals("Counted", admin.get(200, "dashboard/" + dashboard.get("id").asLong()).json().get("description").asText());

            // an inline chart: a PNG image and the result's shape
            Map<String, Object> byCategory = Map.of("database", db, "type", "query", "query", Map.of("source-table",
                    tableId("PRODUCTS"), "aggregation", List.of(List.of("count")), "breakout",
                    List.of(java.util.Arrays.asList("field", fieldId(tableId("PRODUCTS"), "CATEGORY"), null))));
            McpSchema.CallToolResult chart = call(client, "visualize_query", Map.of("query",
                    ok(call(client, "construct_query", Map.of("query", byCategory))).get("query").asText(), "display", "bar"));
            McpSchema.ImageContent image = (McpSchema.ImageContent) chart.content().get(0);
            assertEquals("image/png", image.mimeType());
            byte[] png = Base64.getDecoder().decode(image.data());
            assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, java.util.Arrays.copyOf(png, 4));
            assertEquals(4, Json.read(text(chart)).get("row_count").asInt(), "four product categories");

            assertEquals("Unknown tool: drop_everything", refused(call(client, "drop_everything", Map.of())));
            McpSchema.ReadResourceResult guide = client.readResource(new McpSchema.ReadResourceRequest(
                    "metabase://docs/construct-query.md"));
            assertTrue(((McpSchema.TextResourceContents) guide.contents().get(0)).text().contains("source-table"));
        }
    }

    @Test
    void aUsersClientGetsOnlyWhatTheUserMay() throws Exception {
        try (McpSyncClient client = client("X-Metabase-Session", userSession)) {
            // no SQL rights: the tool refuses, as the REST API does
            assertEquals(403, anonymous.as(userSession).call("POST", "dataset", Map.of("database", db, "type", "native",
                    "native", Map.of("query", "SELECT 1"))).status());
            String sqlRefusal = refused(call(client, "execute_sql", Map.of("database_id", db, "sql", "SELECT COUNT(*) FROM ORDERS")));
            assertTrue(sqlRefusal.toLowerCase(java.util.Locale.ROOT).contains("permission"), sqlRefusal);
            // but structured queries run
            String handle = ok(call(client, "construct_query", Map.of("query", countOrders()))).get("query").asText();
            assertTrue(ok(call(client, "execute_query", Map.of("query", handle))).get("data").get("rows").get(0).get(0).asLong() > 0);
            // a handle carrying SQL is refused too
            String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(Json.write(Map.of("database", db, "type",
                    "native", "native", Map.of("query", "SELECT 1"))).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertTrue(Boolean.TRUE.equals(call(client, "execute_query", Map.of("query", forged)).isError()));

            // the secret collection's question is not found, read or written into
            JsonNode search = ok(call(client, "search", Map.of("term_queries", List.of("zebra"))));
            assertFalse(hasHit(search, "question", secretCard), search.toString());
            assertTrue(ok(call(client, "search", Map.of("term_queries", List.of("orders")))).get("total_count").asInt() > 0);
            JsonNode secret = ok(call(client, "read_resource", Map.of("uris", List.of("metabase://question/" + secretCard))));
            assertNotNull(secret.get("resources").get(0).get("error"), secret.toString());
            assertNull(secret.get("resources").get(0).get("content"));
            refused(call(client, "create_question", Map.of("name", "Sneaky", "query", handle, "collection_id", secretCollection)));
            refused(call(client, "update_question", Map.of("id", secretCard, "name", "Renamed")));
            assertEquals("Secret zebra orders", admin.get(200, "card/" + secretCard).json().get("name").asText());
            refused(call(client, "create_collection", Map.of("name", "Inside", "parent_collection_id", secretCollection)));
        }
    }

    @Test
    void anApiKeyAuthenticatesTheClient() throws Exception {
        try (McpSyncClient client = client("X-Api-Key", apiKey)) {
            assertFalse(client.listTools().tools().isEmpty());
            assertTrue(ok(call(client, "search", Map.of("term_queries", List.of("people")))).get("total_count").asInt() > 0);
        }
    }

    // --- plain HTTP ------------------------------------------------------------------------------------------------

    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"curl\",\"version\":\"1\"}}}";

    /** Opens a session as {@code api}; its id. */
    private static String open(Api api) {
        Api.Res init = api.call("POST", "metabase-mcp", INIT);
        assertEquals(200, init.status(), init.body());
        String id = init.header("Mcp-Session-Id");
        assertNotNull(id);
        assertEquals(202, api.withHeader("Mcp-Session-Id", id).call("POST", "metabase-mcp",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").status());
        return id;
    }

    @Test
    void theTransportAnswersJsonRpcErrors() throws Exception {
        Api.Res anon = anonymous.call("POST", "metabase-mcp", INIT);
        assertEquals(401, anon.status());
        assertTrue(anon.header("WWW-Authenticate").startsWith("Bearer"), anon.header("WWW-Authenticate"));
        assertEquals("Authentication required", Json.read(anon.body()).get("error").get("message").asText());

        Api.Res init = admin.call("POST", "metabase-mcp", INIT);
        assertEquals("2025-03-26", init.json().get("result").get("protocolVersion").asText(), "the client's version is agreed");
        Api.Res newer = admin.call("POST", "metabase-mcp", INIT.replace("2025-03-26", "2031-01-01"));
        assertEquals("2025-03-26", newer.json().get("result").get("protocolVersion").asText(), "an unknown version gets Metabase's");

        Api.Res parse = admin.call("POST", "metabase-mcp", "{\"jsonrpc\": \"2.0\", \"method\": ");
        assertEquals(400, parse.status());
        assertEquals(-32700, parse.json().get("error").get("code").asInt());
        assertEquals(-32700, admin.call("POST", "metabase-mcp", "").json().get("error").get("code").asInt());

        Api.Res missing = admin.call("POST", "metabase-mcp", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertEquals(400, missing.status());
        assertEquals("Missing Mcp-Session-Id header", missing.json().get("error").get("message").asText());

        String session = open(admin);
        Api inSession = admin.withHeader("Mcp-Session-Id", session);
        Api.Res unknown = inSession.call("POST", "metabase-mcp", "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/frobnicate\"}");
        assertEquals(200, unknown.status());
        assertEquals(-32601, unknown.json().get("error").get("code").asInt());
        assertEquals(3, unknown.json().get("id").asInt());
        JsonNode batch = inSession.call("POST", "metabase-mcp", "[{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}]").json();
        assertEquals(2, batch.size());
        assertTrue(batch.get(1).get("result").get("tools").size() > 5);
        // a tool that fails is a tool result, not an HTTP error
        Api.Res failing = inSession.call("POST", "metabase-mcp", "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"execute_sql\",\"arguments\":{\"database_id\":" + db + ",\"sql\":\"SELECT * FROM NOWHERE\"}}}");
        assertEquals(200, failing.status());
        assertTrue(failing.json().get("result").get("isError").asBoolean(), failing.body());

        // another user's session id is unknown to them
        Api.Res stolen = anonymous.as(userSession).withHeader("Mcp-Session-Id", session).call("POST", "metabase-mcp",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}");
        assertEquals(404, stolen.status());

        Api.Res events = inSession.withHeader("Accept", "text/event-stream").call("POST", "metabase-mcp",
                "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\"}");
        assertTrue(events.header("Content-Type").startsWith("text/event-stream"), events.header("Content-Type"));
        assertTrue(events.body().startsWith("event: message\ndata: {"), events.body());
        assertEquals(10, Json.read(events.body().substring(events.body().indexOf('{')).strip()).get("id").asInt());
        assertEquals(405, inSession.call("GET", "metabase-mcp", null).status(), "no event stream is offered");
        assertEquals(200, admin.withHeader("Mcp-Session-Id", session).call("POST", "mcp",
                "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}").status(), "the older path answers too");
        assertEquals(200, inSession.call("DELETE", "metabase-mcp", null).status());
        assertEquals(404, inSession.call("POST", "metabase-mcp", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}").status());
    }

    @Test
    void anApiKeyOpensASessionAndAForeignOriginIsRefused() {
        Api key = anonymous.withApiKey(apiKey);
        String session = open(key);
        assertEquals(200, key.withHeader("Mcp-Session-Id", session).call("POST", "metabase-mcp",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}").status());
        // a browser with the session cookie, on another site's page
        Api.Res foreign = anonymous.withSessionCookie(adminSession).withHeader("Origin", "https://evil.example")
                .call("POST", "metabase-mcp", INIT);
        assertEquals(403, foreign.status());
        assertFalse(foreign.body().contains("Mcp-Session-Id"));
        assertNull(foreign.header("Mcp-Session-Id"));
        // the same cookie from Quarry's own origin is accepted
        assertEquals(200, anonymous.withSessionCookie(adminSession).withHeader("Origin", anonymous.origin())
                .call("POST", "metabase-mcp", INIT).status());
    }

    @Test
    void theSettingsTurnSqlAndTheServerOff() {
        String session = open(admin);
        Api inSession = admin.withHeader("Mcp-Session-Id", session);
        admin.put(204, "setting/mcp-execute-sql-enabled", Map.of("value", false));
        try {
            JsonNode list = inSession.call("POST", "metabase-mcp", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}").json();
            assertFalse(list.toString().contains("\"execute_sql\""), list.toString());
            assertTrue(list.toString().contains("\"execute_query\""));
            JsonNode call = inSession.call("POST", "metabase-mcp", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"execute_sql\",\"arguments\":{\"database_id\":" + db + ",\"sql\":\"SELECT 1\"}}}").json();
            assertTrue(call.get("result").get("isError").asBoolean());
        } finally {
            admin.put(204, "setting/mcp-execute-sql-enabled", Map.of("value", true));
        }
        admin.put(204, "setting/mcp-enabled%3F", Map.of("value", false));
        try {
            assertEquals(404, inSession.call("POST", "metabase-mcp", "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}").status());
        } finally {
            admin.put(204, "setting/mcp-enabled%3F", Map.of("value", true));
        }
        assertEquals(200, inSession.call("POST", "metabase-mcp", "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}").status());
    }

    // --- helpers ---------------------------------------------------------------------------------------------------

    private static boolean hasHit(JsonNode search, String type, long id) {
        for (JsonNode hit : search.get("data")) {
            if (type.equals(hit.get("type").asText()) && hit.get("id").asLong() == id) {
                return true;
            }
        }
        return false;
    }

    private static long tableId(String name) {
        for (JsonNode t : admin.get(200, "database/" + db + "/metadata").json().get("tables")) {
            if (t.get("name").asText().equals(name)) {
                return t.get("id").asLong();
            }
        }
        fail("no table " + name);
        return -1;
    }

    private static long fieldId(long table, String name) {
        for (JsonNode f : admin.get(200, "table/" + table + "/query_metadata").json().get("fields")) {
            if (f.get("name").asText().equals(name)) {
                return f.get("id").asLong();
            }
        }
        fail("no field " + name);
        return -1;
    }

    private static long idField(long table) {
        return fieldId(table, "ID");
    }
}
