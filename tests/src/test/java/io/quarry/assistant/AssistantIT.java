package io.quarry.assistant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.quarry.core.Json;
import io.quarry.setting.SettingMapper;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The assistant's four endpoints over HTTP: rights, bad input, unknown databases and models, feedback, and the
 * language-model path against a chat-completions server started here (prompt content, one retry, refusals, timeouts,
 * the API key kept secret and encrypted at rest).
 */
class AssistantIT {
    private static final String SECRET_KEY = "sk-test-secret-key-0042";

    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static String adminSession;
    private static Api user;
    private static long db;
    private static long hiddenDb;
    private static HttpServer stub;
    private static final Deque<Reply> replies = new ArrayDeque<>();
    private static final List<JsonNode> requests = Collections.synchronizedList(new ArrayList<>());
    private static final List<String> authorizations = Collections.synchronizedList(new ArrayList<>());

    private record Reply(String content, long delayMillis) {
    }

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(Map.of("MB_ENCRYPTION_SECRET_KEY", "an-encryption-key-for-tests-0123456789"));
        anonymous = server.api();
        adminSession = Fixtures.setUp(anonymous);
        admin = anonymous.as(adminSession);
        user = Fixtures.ordinaryCaller(anonymous, admin);
        db = SampleData.add(server.quarry(), admin, "Sample Database");
        hiddenDb = SampleData.add(server.quarry(), admin, "Hidden Sample");
        long revision = admin.get(200, "permissions/graph").json().get("revision").asLong();
        admin.put(200, "permissions/graph", Map.of("revision", revision,
                "groups", Map.of("1", Map.of(String.valueOf(hiddenDb), Map.of("view-data", "blocked")))));

        stub = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        stub.setExecutor(Executors.newCachedThreadPool());
        stub.createContext("/v1/chat/completions", exchange -> {
            requests.add(Json.read(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
            Reply reply;
            synchronized (replies) {
                reply = replies.poll();
            }
            if (reply == null) {
                exchange.sendResponseHeaders(500, -1);
                exchange.close();
                return;
            }
            sleep(reply.delayMillis());
            if (reply.content().equals("REFUSE-KEY")) {
                byte[] refused = ("{\"error\":{\"message\":\"Incorrect API key provided: "
                        + exchange.getRequestHeaders().getFirst("Authorization") + "\"}}").getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(401, refused.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(refused);
                }
                return;
            }
            byte[] body = Json.write(Map.of("id", "chatcmpl-1", "object", "chat.completion", "choices",
                    List.of(Map.of("index", 0, "finish_reason", "stop", "message",
                            Map.of("role", "assistant", "content", reply.content()))))).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            try {
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            } catch (IOException gone) {
                // the client gave up waiting (the timeout test)
            }
        });
        stub.start();
    }

    @AfterAll
    static void stop() {
        if (stub != null) {
            stub.stop(0);
        }
        server.close();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Map<String, Object> question(String text) {
        return Map.of("question", text);
    }

    // --- offline (no model configured) ----------------------------------------------------------------------------

    @Test
    void offlineAnswersFollowTheCallersRights() {
        JsonNode answer = user.post(200, "assistant/database/" + db, question("how many orders by product category")).json();
        assertEquals("offline", answer.get("source").asText());
        JsonNode datasetQuery = answer.get("card").get("dataset_query");
        assertEquals(db, datasetQuery.get("database").asLong());
        assertEquals(4, user.post(202, "dataset", datasetQuery).json().get("data").get("rows").size());
        assertTrue(user.post(200, "assistant/database/" + db + "/query", question("how many orders")).json().get("sql").asText()
                .contains("COUNT(*)"));
        // a database the caller may not see: 403, on both endpoints and at metabot v1's path
        user.post(403, "assistant/database/" + hiddenDb, question("how many orders"));
        user.post(403, "assistant/database/" + hiddenDb + "/query", question("how many orders"));
        user.post(403, "metabot/database/" + hiddenDb + "/query", question("how many orders"));
        admin.post(200, "metabot/database/" + hiddenDb + "/query", question("how many orders"));
        // v0.63's SQL editor endpoint, answered by the same assistant
        JsonNode generated = user.post(200, "llm/generate-sql", Map.of("prompt", "how many orders by product category",
                "database_id", db)).json();
        assertTrue(generated.get("sql").asText().contains("GROUP BY"), generated.toString());
        List<String> referenced = new ArrayList<>();
        generated.get("referenced_entities").forEach(e -> referenced.add(e.get("name").asText()));
        assertEquals(List.of("ORDERS", "PRODUCTS"), referenced.stream().sorted().toList());
        user.post(403, "llm/generate-sql", Map.of("prompt", "how many orders", "database_id", hiddenDb));
        assertTrue(user.call("POST", "llm/generate-sql", Map.of("database_id", db)).json().get("errors").has("prompt"));
        assertTrue(user.call("POST", "llm/generate-sql", Map.of("prompt", "how many orders")).json().get("errors").has("database_id"));
        // unknown databases
        admin.post(404, "llm/generate-sql", Map.of("prompt", "how many orders", "database_id", 999999));
        admin.post(404, "assistant/database/999999", question("how many orders"));
        user.post(404, "assistant/database/999999/query", question("how many orders"));
        anonymous.post(401, "assistant/database/" + db, question("how many orders"));
    }

    @Test
    void aCallerWithoutSqlRightsGetsTheStructuredQuery() {
        long revision = admin.get(200, "permissions/graph").json().get("revision").asLong();
        admin.put(200, "permissions/graph", Map.of("revision", revision,
                "groups", Map.of("1", Map.of(String.valueOf(db), Map.of("create-queries", "query-builder")))));
        try {
            JsonNode card = user.post(200, "assistant/database/" + db, question("average price of products by category")).json()
                    .get("card");
            assertEquals("query", card.get("dataset_query").get("type").asText());
            assertEquals(4, user.post(202, "dataset", card.get("dataset_query")).json().get("data").get("rows").size());
        } finally {
            revision = admin.get(200, "permissions/graph").json().get("revision").asLong();
            admin.put(200, "permissions/graph", Map.of("revision", revision,
                    "groups", Map.of("1", Map.of(String.valueOf(db), Map.of("create-queries", "query-builder-and-native")))));
        }
    }

    @Test
    void badInputIsA400NamingTheQuestion() {
        String path = "assistant/database/" + db;
        for (Api.Res res : List.of(admin.call("POST", path, null), admin.call("POST", path, "{}"),
                admin.call("POST", path, Map.of("question", "   ")), admin.call("POST", path, Map.of("question", 42)),
                admin.postForm(400, path + "/query", Map.of()))) {
            assertEquals(400, res.status(), res.body());
            assertTrue(res.json().get("errors").has("question"), res.body());
        }
        Api.Res notAnObject = admin.call("POST", path, "[1, 2]");
        assertEquals(400, notAnObject.status(), notAnObject.body());
        Api.Res malformed = admin.call("POST", path, "{\"question\": ");
        assertEquals(400, malformed.status(), malformed.body());
        assertEquals(400, admin.call("POST", path, Map.of("question", "x".repeat(2001))).status());
        assertEquals(400, admin.call("POST", "assistant/database/abc", question("how many orders")).status());
        for (String odd : List.of("how many orders in the last 99999999 days", "top 0 products by price", "top 2.5 products by price",
                "how many orders over 100", "🙂", "how many orders not in 2024", "how many orders in 2024 or 2025")) {
            Api.Res res = admin.call("POST", path + "/query", question(odd));
            assertEquals(400, res.status(), odd + ": " + res.body());
            assertTrue(res.json().get("errors").has("question"), res.body());
        }
        // not understood: what was not understood, and an example that is
        Api.Res unknown = admin.call("POST", path + "/query", question("how many unicorns fly over the warehouse"));
        assertEquals(400, unknown.status(), unknown.body());
        JsonNode body = unknown.json();
        assertTrue(body.get("message").asText().contains("unicorns"), unknown.body());
        String example = body.get("example").asText();
        assertEquals(200, admin.call("POST", path + "/query", question(example)).status(), "the example is answered: " + example);
    }

    /** What plain clients send ({@code curl -X POST}, {@code curl -d ''}, form fields, malformed JSON, a charset). */
    @Test
    void plainClientBodiesAreReadLikeJson() throws Exception {
        String base = "assistant/database/" + db;
        for (String path : List.of(base, base + "/query", "llm/generate-sql", "assistant/feedback")) {
            for (String[] sent : List.of(new String[] {null, null}, new String[] {"", "application/x-www-form-urlencoded"},
                    new String[] {"{\"question\": ", "application/json"}, new String[] {"{", "application/json; charset=utf-8"})) {
                HttpResponse<String> res = raw(path, sent[0], sent[1]);
                assertEquals(400, res.statusCode(), path + " " + sent[1] + ": " + res.body());
            }
        }
        assertTrue(raw(base + "/query", "question=how+many+orders", "application/x-www-form-urlencoded").body().contains("COUNT(*)"));
        HttpResponse<String> form = raw("llm/generate-sql", "prompt=how+many+orders&database_id=" + db,
                "application/x-www-form-urlencoded");
        assertEquals(200, form.statusCode(), form.body());
        HttpResponse<String> charset = raw(base, Json.write(question("how many orders")), "application/json; charset=utf-8");
        assertEquals(200, charset.statusCode(), charset.body());
        HttpResponse<String> feedback = raw("assistant/feedback", "feedback_type=positive&prompt=how+many+orders",
                "application/x-www-form-urlencoded");
        assertEquals(200, feedback.statusCode(), feedback.body());
    }

    private static HttpResponse<String> raw(String path, String body, String contentType) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.base.resolve("api/" + path))
                .header("X-Metabase-Session", adminSession)
                .POST(body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void modelQuestionsReadTheModel() {
        long ordersTable = tableId("ORDERS");
        JsonNode model = admin.post(200, "card", Map.of("name", "Orders model", "type", "model", "display", "table",
                "visualization_settings", Map.of(), "dataset_query", Map.of("database", db, "type", "query",
                        "query", Map.of("source-table", ordersTable)))).json();
        long modelId = model.get("id").asLong();
        admin.post(202, "card/" + modelId + "/query", Map.of());
        // the words of the model's name: "orders" names the model "Orders model 2024"
        long named = admin.post(200, "card", Map.of("name", "orders model 2024", "type", "model", "display", "table",
                "visualization_settings", Map.of(), "dataset_query", Map.of("database", db, "type", "query",
                        "query", Map.of("source-table", ordersTable)))).json().get("id").asLong();
        admin.post(202, "card/" + named + "/query", Map.of());
        JsonNode counted = user.post(200, "assistant/model/" + named, question("How many orders are there?")).json();
        JsonNode countQuery = counted.get("card").get("dataset_query");
        assertEquals("card__" + named, countQuery.get("query").get("source-table").asText());
        assertEquals(admin.post(202, "dataset", Map.of("database", db, "type", "native", "native", Map.of("query",
                "SELECT COUNT(*) FROM ORDERS"))).json().get("data").get("rows").get(0).get(0).asLong(),
                user.post(202, "dataset", countQuery).json().get("data").get("rows").get(0).get(0).asLong());
        JsonNode answer = user.post(200, "assistant/model/" + modelId, question("how many rows by year")).json();
        JsonNode datasetQuery = answer.get("card").get("dataset_query");
        assertEquals("card__" + modelId, datasetQuery.get("query").get("source-table").asText());
        JsonNode rows = user.post(202, "dataset", datasetQuery).json().get("data").get("rows");
        JsonNode expected = admin.post(202, "dataset", Map.of("database", db, "type", "native", "native", Map.of("query",
                "SELECT DATE_TRUNC('YEAR', CREATED_AT), COUNT(*) FROM ORDERS GROUP BY DATE_TRUNC('YEAR', CREATED_AT)"
                        + " ORDER BY 1"))).json().get("data").get("rows");
        assertEquals(expected.size(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(expected.get(i).get(1).asLong(), rows.get(i).get(1).asLong());
        }
        // a question that is not a model, an unknown card, bad input
        long question = admin.post(200, "card", Map.of("name", "Orders", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", db, "type", "query", "query", Map.of("source-table", ordersTable)))).json()
                .get("id").asLong();
        admin.post(404, "assistant/model/" + question, question("how many rows"));
        admin.post(404, "assistant/model/999999", question("how many rows"));
        assertEquals(400, admin.call("POST", "assistant/model/" + modelId, Map.of()).status());
        // a model over a database the caller may not see
        long hiddenModel = admin.post(200, "card", Map.of("name", "Hidden model", "type", "model", "display", "table",
                "visualization_settings", Map.of(), "dataset_query", Map.of("database", hiddenDb, "type", "query",
                        "query", Map.of("source-table", tableId(hiddenDb, "ORDERS"))))).json().get("id").asLong();
        assertEquals(403, user.call("POST", "assistant/model/" + hiddenModel, question("how many rows")).status());
    }

    @Test
    void feedbackIsStoredForAdministrators() {
        JsonNode stored = user.post(200, "assistant/feedback", Map.of("feedback_type", "negative", "prompt", "how many orders",
                "sql", "SELECT COUNT(*) FROM ORDERS", "message", "counted the wrong thing", "entity_type", "database")).json();
        assertEquals("Thanks for your feedback", stored.get("message").asText());
        long id = stored.get("feedback").get("id").asLong();
        JsonNode list = admin.get(200, "assistant/feedback").json();
        JsonNode first = list.get("data").get(0);
        assertEquals(id, first.get("id").asLong());
        assertEquals("counted the wrong thing", first.get("message").asText());
        assertEquals("SELECT COUNT(*) FROM ORDERS", first.get("sql").asText());
        user.get(403, "assistant/feedback");
        // the spec's body names the kind "feedback"
        JsonNode spec = user.post(200, "assistant/feedback", Map.of("feedback", "great", "prompt", "how many orders",
                "sql", "SELECT COUNT(*) FROM ORDERS")).json();
        assertEquals("great", spec.get("feedback").get("feedback_type").asText());
        assertEquals("how many orders", admin.get(200, "assistant/feedback").json().get("data").get(0).get("prompt").asText());
        JsonNode badKind = user.post(400, "assistant/feedback", Map.of("feedback", "meh")).json();
        assertTrue(badKind.get("errors").has("feedback"), badKind.toString());
        list = admin.get(200, "assistant/feedback").json();
        long before = list.get("total").asLong();
        for (Api.Res res : List.of(user.call("POST", "assistant/feedback", null), user.postForm(400, "assistant/feedback", Map.of()),
                user.call("POST", "assistant/feedback", Map.of("feedback_type", "meh")))) {
            assertEquals(400, res.status(), res.body());
            assertTrue(res.json().get("errors").has("feedback_type"), res.body());
        }
        assertEquals(before, admin.get(200, "assistant/feedback").json().get("total").asLong(), "nothing stored");
    }

    // --- with a language model --------------------------------------------------------------------------------------

    @Test
    void theLanguageModelIsAskedAndItsSqlChecked() {
        String base = "http://127.0.0.1:" + stub.getAddress().getPort();
        admin.put(204, "setting/llm-openai-api-base-url", Map.of("value", base));
        admin.put(204, "setting/llm-openai-api-key", Map.of("value", SECRET_KEY));
        admin.put(204, "setting/llm-openai-model", Map.of("value", "stub-model"));
        long feedbackTable = tableId("FEEDBACK");
        admin.put(200, "table/" + feedbackTable, Map.of("visibility_type", "hidden"));
        try {
            // the key: never shown, encrypted at rest, sent as a bearer token
            String shown = admin.get(200, "setting/llm-openai-api-key").body();
            assertFalse(shown.contains(SECRET_KEY), shown);
            String stored = server.quarry().db.with(SettingMapper.class, m -> m.findSettingValue("llm-openai-api-key"));
            assertTrue(stored.startsWith("qenc1:") && !stored.contains(SECRET_KEY), stored);
            assertEquals(400, admin.call("PUT", "setting/llm-openai-api-base-url", Map.of("value", "ftp://x")).status());

            // the prompt: the visible tables of this database, their values; not the hidden table
            expect("```sql\nSELECT COUNT(*) AS N FROM \"PUBLIC\".\"ORDERS\"\n```");
            JsonNode answer = user.post(200, "assistant/database/" + db + "/query", question("how many Gizmo orders")).json();
            assertEquals("SELECT COUNT(*) AS N FROM \"PUBLIC\".\"ORDERS\"", answer.get("sql").asText());
            assertEquals("llm", answer.get("source").asText());
            assertEquals(1, requests.size());
            assertEquals("Bearer " + SECRET_KEY, authorizations.get(0));
            JsonNode request = requests.get(0);
            assertEquals("stub-model", request.get("model").asText());
            String system = request.get("messages").get(0).get("content").asText();
            assertTrue(system.contains("CREATE TABLE \"PUBLIC\".\"ORDERS\""), system);
            assertTrue(system.contains("REFERENCES \"PUBLIC\".\"PRODUCTS\"(\"ID\")"), system);
            assertTrue(system.contains("'Gizmo'"), system);
            assertTrue(system.contains("H2"), system);
            assertFalse(system.contains("\"FEEDBACK\""), "a hidden table is not in the prompt");
            assertEquals("how many Gizmo orders", request.get("messages").get(1).get("content").asText());

            // a database the caller may not see: refused before the model is asked
            expect("SELECT 1");
            user.post(403, "assistant/database/" + hiddenDb + "/query", question("how many orders"));
            assertEquals(0, requests.size());

            // bad SQL: exactly one more try, with the database's error
            expect("SELECT NOPE FROM \"PUBLIC\".\"ORDERS\"", "SELECT COUNT(*) FROM \"PUBLIC\".\"ORDERS\"");
            JsonNode card = user.post(200, "assistant/database/" + db, question("how many orders")).json().get("card");
            assertEquals(2, requests.size());
            JsonNode retry = requests.get(1).get("messages");
            assertEquals(4, retry.size());
            assertEquals("assistant", retry.get(2).get("role").asText());
            assertTrue(retry.get(3).get("content").asText().contains("NOPE"), retry.toString());
            assertEquals("native", card.get("dataset_query").get("type").asText());
            assertEquals(1, user.post(202, "dataset", card.get("dataset_query")).json().get("data").get("rows").size());

            expect("SELECT NOPE1 FROM \"PUBLIC\".\"ORDERS\"", "SELECT NOPE2 FROM \"PUBLIC\".\"ORDERS\"", "SELECT 1");
            Api.Res twice = user.call("POST", "assistant/database/" + db + "/query", question("how many orders"));
            assertEquals(400, twice.status(), twice.body());
            assertTrue(twice.json().get("message").asText().contains("NOPE2"), twice.body());
            assertEquals(2, requests.size(), "exactly one retry");

            // not read-only: refused, without another try
            for (String bad : List.of("DELETE FROM \"PUBLIC\".\"ORDERS\"", "SELECT 1; DROP TABLE \"PUBLIC\".\"ORDERS\"",
                    "WITH x AS (SELECT 1) INSERT INTO \"PUBLIC\".\"ORDERS\" (ID) SELECT * FROM x")) {
                expect(bad, "SELECT 1");
                Api.Res refused = user.call("POST", "assistant/database/" + db + "/query", question("delete the orders"));
                assertEquals(400, refused.status(), refused.body());
                assertTrue(refused.json().get("message").asText().contains("refused"), refused.body());
                assertEquals(1, requests.size(), bad);
            }

            // a model that does not answer in time: 504
            admin.put(204, "setting/llm-request-timeout-ms", Map.of("value", 400));
            synchronized (replies) {
                replies.clear();
                requests.clear();
                replies.add(new Reply("SELECT 1", 3000));
            }
            Api.Res slow = user.call("POST", "assistant/database/" + db + "/query", question("how many orders"));
            assertEquals(504, slow.status(), slow.body());
            assertTrue(slow.body().contains("400 ms"), slow.body());
            admin.put(204, "setting/llm-request-timeout-ms", Map.of("value", 60000));

            // a model that refuses the key: 502, its message without the key
            expect("REFUSE-KEY");
            Api.Res refusedKey = user.call("POST", "assistant/database/" + db + "/query", question("how many orders"));
            assertEquals(502, refusedKey.status(), refusedKey.body());
            assertTrue(refusedKey.body().contains("401") && refusedKey.body().contains("Incorrect API key"), refusedKey.body());
            assertFalse(refusedKey.body().contains(SECRET_KEY), refusedKey.body());

            // a model that cannot be reached: 502
            admin.put(204, "setting/llm-openai-api-base-url", Map.of("value", "http://127.0.0.1:1"));
            Api.Res unreachable = user.call("POST", "assistant/database/" + db + "/query", question("how many orders"));
            assertEquals(502, unreachable.status(), unreachable.body());
            assertFalse(unreachable.body().contains(SECRET_KEY));
            admin.put(204, "setting/llm-openai-api-base-url", Map.of("value", base));

            // over a model: the SQL reads the model through a card reference
            long model = admin.post(200, "card", Map.of("name", "Orders model", "type", "model", "display", "table",
                    "visualization_settings", Map.of(), "dataset_query", Map.of("database", db, "type", "query",
                            "query", Map.of("source-table", tableId("ORDERS"))))).json().get("id").asLong();
            expect("SELECT COUNT(*) AS N FROM ORDERS_MODEL");
            JsonNode overModel = user.post(200, "assistant/model/" + model, question("how many orders")).json();
            JsonNode nativeQuery = overModel.get("card").get("dataset_query");
            String modelPrompt = requests.get(0).get("messages").get(0).get("content").asText();
            assertTrue(modelPrompt.contains("CREATE TABLE ORDERS_MODEL"), modelPrompt);
            assertTrue(modelPrompt.contains("\"SUBTOTAL\" FLOAT"), modelPrompt);
            assertTrue(modelPrompt.contains("FROM \"PUBLIC\".\"ORDERS\""), "the model's query: " + modelPrompt);
            long count = user.post(202, "dataset", nativeQuery).json().get("data").get("rows").get(0).get(0).asLong();
            long expected = admin.post(202, "dataset", Map.of("database", db, "type", "native", "native",
                    Map.of("query", "SELECT COUNT(*) FROM ORDERS"))).json().get("data").get("rows").get(0).get(0).asLong();
            assertEquals(expected, count);
        } finally {
            Map<String, Object> unset = new HashMap<>();
            unset.put("value", null);
            admin.put(204, "setting/llm-openai-api-base-url", unset);
            Map<String, Object> visible = new HashMap<>();
            visible.put("visibility_type", null);
            admin.put(200, "table/" + feedbackTable, visible);
        }
    }

    private static void expect(String... contents) {
        synchronized (replies) {
            replies.clear();
            requests.clear();
            authorizations.clear();
            for (String c : contents) {
                replies.add(new Reply(c, 0));
            }
        }
    }

    private static long tableId(String name) {
        return tableId(db, name);
    }

    private static long tableId(long databaseId, String name) {
        Map<String, Long> ids = new HashMap<>();
        for (JsonNode t : admin.get(200, "database/" + databaseId + "/metadata").json().get("tables")) {
            ids.put(t.get("name").asText(), t.get("id").asLong());
        }
        return ids.get(name);
    }
}
