package io.quarry.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HTTP actions against a real local receiver, on a Quarry whose host strategy allows it ({@code allow-all}; the
 * default refusal is in {@link ActionsIT}): the filled-in request arrives as the template says, the response handle
 * picks the value, the error handle turns a failure into a 400.
 */
class HttpActionsIT {
    private static TestServer server;
    private static HttpServer receiver;
    private static Api admin;
    private static Api anonymous;
    private static long model;
    private static String base;
    private static final List<String> received = new CopyOnWriteArrayList<>();
    private static final AtomicInteger status = new AtomicInteger(200);

    @BeforeAll
    static void start() throws Exception {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/", exchange -> {
            received.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                    + exchange.getRequestHeaders().getFirst("X-Metabase-Action") + " "
                    + exchange.getRequestHeaders().getFirst("X-Token") + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] answer = "{\"id\": 42, \"items\": [{\"title\": \"first\"}], \"error\": \"it broke\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status.get(), answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        receiver.start();
        base = "http://127.0.0.1:" + receiver.getAddress().getPort();
        server = TestServer.start(Map.of("MB_HTTP_CHANNEL_HOST_STRATEGY", "allow-all",
                "MB_ENCRYPTION_SECRET_KEY", "an-encryption-key-of-some-length-0123"));
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        long db = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(db).get();
        long table = -1;
        for (JsonNode t : admin.get(200, "database/" + db + "/metadata").json().get("tables")) {
            if (t.get("name").asText().equals("CUSTOMERS")) {
                table = t.get("id").asLong();
            }
        }
        admin.put(200, "database/" + db, Map.of("settings", Map.of("database-enable-actions", true)));
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", "Customers");
        card.put("type", "model");
        card.put("display", "table");
        card.put("visualization_settings", Map.of());
        card.put("dataset_query", Map.of("database", db, "type", "query", "query", Map.of("source-table", table)));
        model = admin.post(200, "card", card).json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
        receiver.stop(0);
    }

    private static long action(String name, Map<String, Object> template, String responseHandle, String errorHandle) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("type", "http");
        body.put("model_id", model);
        body.put("template", template);
        if (responseHandle != null) {
            body.put("response_handle", responseHandle);
        }
        if (errorHandle != null) {
            body.put("error_handle", errorHandle);
        }
        return admin.post(200, "action", body).json().get("id").asLong();
    }

    @Test
    void theFilledInRequestArrivesAndTheResponseHandlePicksTheValue() {
        status.set(200);
        received.clear();
        long id = action("Notify", Map.of("method", "POST", "url", base + "/hook/{{id}}[[?q={{q}}]]",
                "body", "{\"name\": {{name}}, \"id\": {{id}}}", "headers", "{\"X-Token\": \"s3cret\"}"), ".body.id", null);
        JsonNode action = admin.get(200, "action/" + id).json();
        assertEquals("http", action.get("type").asText());
        assertEquals(".body.id", action.get("response_handle").asText());
        assertEquals(3, action.get("parameters").size(), action.get("parameters").toString());

        assertEquals("{\"X-Token\": \"s3cret\"}", action.get("template").get("headers").asText());
        try (java.sql.Connection c = server.quarry().appDatabase.dataSource().getConnection();
             java.sql.PreparedStatement s = c.prepareStatement("SELECT template FROM model_action WHERE id = ?")) {
            s.setLong(1, id);
            try (java.sql.ResultSet rows = s.executeQuery()) {
                assertTrue(rows.next());
                assertFalse(rows.getString(1).contains("s3cret"), "the template is encrypted at rest: " + rows.getString(1));
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }

        assertEquals("42", admin.post(200, "action/" + id + "/execute", Map.of("parameters",
                Map.of("id", 7, "name", "Hedy \"the\" inventor", "q", "a b&c"))).body());
        assertEquals(List.of("POST /hook/7?q=a+b%26c Notify s3cret {\"name\": \"Hedy \\\"the\\\" inventor\", \"id\": 7}"), received);

        received.clear();
        admin.post(200, "action/" + id + "/execute", Map.of("parameters", Map.of("id", 8, "name", "X")));
        assertEquals("POST /hook/8 Notify s3cret {\"name\": \"X\", \"id\": 8}", received.get(0), "the optional clause is dropped");

        assertTrue(admin.post(400, "action/" + id + "/execute", Map.of("parameters", Map.of("id", 8))).body()
                .startsWith("Cannot call the service: missing required parameters: #{\"name\"}"));
        long items = action("Items", Map.of("method", "GET", "url", base + "/items"), ".body.items[0].title", null);
        assertEquals("first", admin.post(200, "action/" + items + "/execute", null).body(), "a string is answered as it is");
        long silent = action("Silent", Map.of("method", "DELETE", "url", base + "/gone"), null, null);
        assertEquals(204, admin.call("POST", "action/" + silent + "/execute", Map.of("parameters", Map.of())).status());
    }

    @Test
    void theErrorHandleTurnsAFailureIntoA400() {
        status.set(500);
        try {
            long plain = action("Failing", Map.of("method", "GET", "url", base + "/fail"), ".body.id", null);
            assertEquals(500, admin.post(400, "action/" + plain + "/execute", null).json().get("remote-status").asInt());
            long custom = action("Custom", Map.of("method", "GET", "url", base + "/fail"), null, ".body.error");
            assertEquals("it broke", admin.post(400, "action/" + custom + "/execute", null).json().get("message").asText());
        } finally {
            status.set(200);
        }
        long never = action("Never fails", Map.of("method", "GET", "url", base + "/ok"), ".status", ".status == 999");
        assertEquals("200", admin.post(200, "action/" + never + "/execute", null).body());
    }
}
