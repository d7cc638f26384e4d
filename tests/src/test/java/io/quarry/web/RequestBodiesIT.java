package io.quarry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Json;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Request bodies as real clients send them (COMPAT-2 §G): curl {@code -d ''}, Python's urllib and
 * {@code java.net.HttpURLConnection} send an empty form; curl {@code -X POST} sends no content type; malformed JSON is
 * a plain-text 400 before anything else; bodies over the limit are a 413 without being read in full.
 */
class RequestBodiesIT {
    private static final long LIMIT = 1024 * 1024;
    private static TestServer server;
    private static Api anonymous;
    private static String session;
    private static long cardId;
    private static long databaseId;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(Map.of("MB_MAX_REQUEST_BODY_BYTES", String.valueOf(LIMIT)));
        anonymous = server.api();
        session = Fixtures.setUp(anonymous);
        Api admin = anonymous.as(session);
        databaseId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD)))
                .json().get("id").asLong();
        cardId = admin.post(200, "card", Map.of("name", "Orders", "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", databaseId, "type", "native", "native", Map.of("query", "SELECT 1"))))
                .json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long cards() {
        return AppDbSql.count(server, "SELECT COUNT(*) FROM report_card");
    }

    /** One request with exactly these headers (no defaults added), as a given client would send it. */
    private static Answer raw(String method, String path, String headers, byte[] body) throws IOException {
        try (Socket socket = new Socket(server.base.getHost(), server.base.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            String head = method + " /api/" + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + headers
                    + (body == null ? "" : "Content-Length: " + body.length + "\r\n") + "\r\n";
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            return Answer.read(socket.getInputStream());
        }
    }

    record Answer(int status, String headers, String body) {
        static Answer read(InputStream in) throws IOException {
            String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int split = all.indexOf("\r\n\r\n");
            String head = all.substring(0, split);
            String body = all.substring(split + 4);
            if (head.toLowerCase().contains("transfer-encoding: chunked")) {
                StringBuilder decoded = new StringBuilder();
                int at = 0;
                while (true) {
                    int eol = body.indexOf("\r\n", at);
                    int size = Integer.parseInt(body.substring(at, eol).trim(), 16);
                    if (size == 0) {
                        break;
                    }
                    decoded.append(body, eol + 2, eol + 2 + size);
                    at = eol + 2 + size + 2;
                }
                body = decoded.toString();
            }
            return new Answer(Integer.parseInt(head.substring(9, 12)), head, body);
        }
    }

    private static String auth() {
        return "X-Metabase-Session: " + session + "\r\n";
    }

    private static int viaHttpUrlConnection(String method, String path, byte[] body, String session) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) server.base.resolve("api/" + path).toURL().openConnection();
        connection.setRequestMethod(method);
        if (session != null) {
            connection.setRequestProperty("X-Metabase-Session", session);
        }
        connection.setDoOutput(true);
        try (OutputStream out = connection.getOutputStream()) {
            out.write(body);
        }
        int status = connection.getResponseCode();
        connection.disconnect();
        return status;
    }

    @Test
    void bodyLessEndpointsAcceptAnEmptyBodyOfAnyContentType() throws IOException {
        String curlEmptyForm = "Content-Type: application/x-www-form-urlencoded\r\n";
        // curl -d '' and Python urllib (data=b''): the form type with a zero length.
        assertEquals(200, raw("POST", "card/" + cardId + "/copy", auth() + curlEmptyForm, new byte[0]).status());
        assertEquals(200, raw("POST", "database/" + databaseId + "/sync_schema", auth() + curlEmptyForm, new byte[0]).status());
        assertEquals(200, raw("POST", "database/" + databaseId + "/rescan_values", auth() + curlEmptyForm, new byte[0]).status());
        // curl -X POST: neither a content type nor a length.
        assertEquals(200, raw("POST", "card/" + cardId + "/copy", auth(), null).status());
        // An empty JSON body, an empty body of some other type.
        assertEquals(200, raw("POST", "card/" + cardId + "/copy", auth() + "Content-Type: application/json\r\n", new byte[0]).status());
        assertEquals(200, raw("POST", "card/" + cardId + "/copy", auth() + "Content-Type: text/plain\r\n", new byte[0]).status());
        // HttpURLConnection adds the form type on its own when a body is written.
        assertEquals(200, viaHttpUrlConnection("POST", "card/" + cardId + "/copy", new byte[0], session));
        assertEquals(200, viaHttpUrlConnection("POST", "database/" + databaseId + "/discard_values", new byte[0], session));
    }

    @Test
    void anEmptyFormIsJudgedByAuthenticationNotByItsContentType() throws IOException {
        Answer answer = raw("POST", "card/" + cardId + "/copy", "Content-Type: application/x-www-form-urlencoded\r\n", new byte[0]);
        assertEquals(401, answer.status());
        assertEquals(401, viaHttpUrlConnection("PUT", "user/1/reactivate", new byte[0], null));
    }

    @Test
    void everyBodyLessEndpointTakesTheEmptyFormClientsSend() throws IOException {
        String form = "Content-Type: application/x-www-form-urlencoded\r\n";
        for (String endpoint : new String[]{"PUT user/1/reactivate", "PUT api-key/1/regenerate", "PUT user/1/modal/qbnewb",
                "POST user/1/send_invite", "POST database/sample_database", "POST database/1/sync_schema",
                "POST database/1/rescan_values", "POST database/1/discard_values", "POST database/1/dismiss_spinner",
                "POST table/1/sync_schema", "POST table/1/rescan_values", "POST table/1/discard_values",
                "POST card/1/copy", "POST card/1/public_link", "POST collection", "PUT setting/site-name"}) {
            String[] parts = endpoint.split(" ");
            // anonymous: judged by authentication (401), never by the content type (415)
            assertEquals(401, raw(parts[0], parts[1], form, new byte[0]).status(), endpoint);
            assertEquals(401, raw(parts[0], parts[1], "", null).status(), endpoint);
        }
    }

    @Test
    void malformedJsonIsAPlainTextBadRequestBeforeAuthRoutingOrWork() throws IOException {
        long before = cards();
        String json = "Content-Type: application/json\r\n";
        byte[] bad = "{\"a\":".getBytes(StandardCharsets.UTF_8);
        for (Answer answer : new Answer[]{
                raw("POST", "card/" + cardId + "/copy", auth() + json, bad),
                raw("POST", "card/" + cardId + "/public_link", auth() + json, bad),
                raw("POST", "card/" + cardId + "/copy", json, bad),
                raw("POST", "no/such/endpoint", json, bad),
                raw("PUT", "card/" + cardId, auth() + "Content-Type: application/json; charset=UTF-8\r\n", "{\"name\": }".getBytes()),
                raw("POST", "session", json, "{\"username\": \"a\"} trailing".getBytes())}) {
            assertEquals(400, answer.status(), answer.body());
            assertEquals("Malformed JSON in request body.", answer.body());
            assertTrue(answer.headers().toLowerCase().contains("content-type: text/plain"), answer.headers());
        }
        assertEquals(before, cards());
        assertTrue(anonymous.as(session).get(200, "card/" + cardId).json().get("public_uuid").isNull());
    }

    @Test
    void jsonWithACharsetOrAVendorTypeIsRead() throws IOException {
        byte[] body = Json.write(Map.of("name", "Caf\u00e9 charset")).getBytes(StandardCharsets.UTF_8);
        Answer answer = raw("POST", "collection", auth() + "Content-Type: application/json; charset=UTF-8\r\n", body);
        assertEquals(200, answer.status(), answer.body());
        assertEquals("Caf\u00e9 charset", Json.MAPPER.readTree(answer.body()).get("name").asText());
        answer = raw("POST", "collection", auth() + "Content-Type: application/vnd.quarry+json\r\n",
                Json.write(Map.of("name", "Vendor")).getBytes(StandardCharsets.UTF_8));
        assertEquals(200, answer.status(), answer.body());
    }

    @Test
    void formFieldsAreBodyParameters() throws IOException {
        String form = "Content-Type: application/x-www-form-urlencoded\r\n";
        Answer created = raw("POST", "collection", auth() + form, "name=From+a+form&description=caf%C3%A9".getBytes());
        assertEquals(200, created.status(), created.body());
        JsonNode collection = Json.MAPPER.readTree(created.body());
        assertEquals("From a form", collection.get("name").asText());
        assertEquals("caf\u00e9", collection.get("description").asText());
        long id = collection.get("id").asLong();
        // Form values are strings, decoded by the field's type as Metabase's schemas decode them.
        Answer archived = raw("PUT", "collection/" + id, auth() + form, "archived=true".getBytes());
        assertEquals(200, archived.status(), archived.body());
        assertTrue(anonymous.as(session).get(200, "collection/" + id).json().get("archived").asBoolean());
        long dashboard = anonymous.as(session).post(200, "dashboard", Map.of("name", "Formed")).json().get("id").asLong();
        Answer dashboardArchived = raw("PUT", "dashboard/" + dashboard, auth() + form, "archived=true&name=Re+formed".getBytes());
        assertEquals(200, dashboardArchived.status(), dashboardArchived.body());
        assertTrue(Json.MAPPER.readTree(dashboardArchived.body()).get("archived").asBoolean());
        assertEquals("Re formed", Json.MAPPER.readTree(dashboardArchived.body()).get("name").asText());
        Answer bad = raw("PUT", "collection/" + id, auth() + form, "archived=TRUE+".getBytes());
        assertEquals(400, bad.status(), bad.body());
        assertTrue(Json.MAPPER.readTree(bad.body()).get("errors").has("archived"));
    }

    @Test
    void aBodyOverTheLimitIsRefusedByItsLengthBeforeItIsSent() throws IOException {
        long started = System.nanoTime();
        try (Socket socket = new Socket(server.base.getHost(), server.base.getPort())) {
            socket.setSoTimeout(10_000);
            String head = "POST /api/session HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + (64L * 1024 * 1024) + "\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            Answer answer = Answer.read(socket.getInputStream());
            assertEquals(413, answer.status());
            assertEquals("Request body exceeds the maximum size of " + LIMIT + " bytes.", answer.body());
        }
        assertTrue(System.nanoTime() - started < 5_000_000_000L);
    }

    @Test
    void aStreamedBodyIsCountedAndRefusedOnceItPassesTheLimit() throws Exception {
        long before = cards();
        try (Socket socket = new Socket(server.base.getHost(), server.base.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/card HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + auth()
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            Thread writer = new Thread(() -> {
                try {
                    byte[] chunk = ("[" + "\"x\",".repeat(16 * 1024)).getBytes(StandardCharsets.US_ASCII);
                    for (int i = 0; i < 64; i++) {
                        out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.write(chunk);
                        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                } catch (IOException closedByServer) {
                    // expected once the server has answered
                }
            });
            writer.start();
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            try {
                socket.getInputStream().transferTo(response);
            } catch (IOException reset) {
                // the server may reset the connection after its answer
            }
            writer.join(30_000);
            Answer answer = Answer.read(new java.io.ByteArrayInputStream(response.toByteArray()));
            assertEquals(413, answer.status());
            assertEquals("Request body exceeds the maximum size of " + LIMIT + " bytes.", answer.body());
        }
        assertEquals(before, cards());
    }

    @Test
    void anAnswerGivenBeforeTheBodyArrivesLeavesTheConnectionUsable() throws Exception {
        // An upload refused before its form is read (401), then the pooled connection's next request. The body comes
        // a moment after the headers, as it does from clients that write headers and body separately.
        String boundary = "quarry-drain";
        byte[] body = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\na\n1\n\r\n--"
                + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
        assertStatusesOnOneConnection(List.of("401", "200"), "POST /api/card/from-csv HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: multipart/form-data; boundary=" + boundary + "\r\nContent-Length: " + body.length + "\r\n\r\n", body);
        // a body of a type Metabase ignores is never read by its endpoint (here a 400 for the missing fields): the same
        byte[] text = "username=a".getBytes(StandardCharsets.US_ASCII);
        assertStatusesOnOneConnection(List.of("400", "200"), "POST /api/session HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: text/plain\r\nContent-Length: " + text.length + "\r\n\r\n", text);
    }

    @Test
    void anUnreadRestOverTheDrainLimitClosesTheConnection() throws IOException {
        // a refused upload declaring 2 MB: not read, so the answer tells the client not to reuse the connection
        try (Socket socket = new Socket(server.base.getHost(), server.base.getPort())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(("POST /api/card/from-csv HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: multipart/form-data; boundary=x\r\nContent-Length: " + (2 * 1024 * 1024) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            Answer answer = Answer.read(socket.getInputStream());
            assertEquals(401, answer.status());
            assertTrue(answer.headers().toLowerCase().contains("connection: close"), answer.headers());
        }
    }

    /**
     * Sends {@code head}, then {@code body} 300 ms later, then {@code GET /api/health} on the same connection, and
     * checks the statuses of the answers that came back (the answers themselves are the failure's message).
     */
    private static void assertStatusesOnOneConnection(List<String> expected, String head, byte[] body) throws Exception {
        try (Socket socket = new Socket(server.base.getHost(), server.base.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.sleep(300);
            ByteArrayOutputStream answers = new ByteArrayOutputStream();
            try {
                out.write(body);
                out.write("GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                socket.getInputStream().transferTo(answers);
            } catch (IOException closedByServer) {
                // without the drain the server has closed the connection after its first answer
            }
            List<String> statuses = new ArrayList<>();
            Matcher status = Pattern.compile("HTTP/1\\.1 (\\d{3})").matcher(answers.toString(StandardCharsets.US_ASCII));
            while (status.find()) {
                statuses.add(status.group(1));
            }
            assertEquals(expected, statuses, answers.toString(StandardCharsets.US_ASCII));
        }
    }

    @Test
    void deeplyNestedJsonIsABadRequest() throws IOException {
        String deep = "[".repeat(600) + "]".repeat(600);
        Answer answer = raw("POST", "card", auth() + "Content-Type: application/json\r\n",
                ("{\"name\": \"deep\", \"visualization_settings\": {\"x\": " + deep + "}}").getBytes());
        assertEquals(400, answer.status());
        String ok = "[".repeat(100) + "]".repeat(100);
        answer = raw("POST", "collection", auth() + "Content-Type: application/json\r\n",
                ("{\"name\": \"nested but fine\", \"x\": " + ok + "}").getBytes());
        assertEquals(200, answer.status(), answer.body());
    }

    @Test
    void formFieldsLogIn() throws IOException {
        // Python: urllib.request.urlopen(url, data=urllib.parse.urlencode({...}).encode())
        Answer answer = raw("POST", "session", "Content-Type: application/x-www-form-urlencoded\r\n",
                ("username=" + java.net.URLEncoder.encode(Fixtures.ADMIN_EMAIL, StandardCharsets.UTF_8)
                        + "&password=" + java.net.URLEncoder.encode(Fixtures.ADMIN_PASSWORD, StandardCharsets.UTF_8)).getBytes());
        assertEquals(200, answer.status(), answer.body());
        assertTrue(Json.MAPPER.readTree(answer.body()).has("id"));
        // an empty form to an endpoint with required keys is judged as {}: the usual validation 400
        Answer empty = raw("POST", "session", "Content-Type: application/x-www-form-urlencoded\r\n", new byte[0]);
        assertEquals(400, empty.status(), empty.body());
        assertTrue(Json.MAPPER.readTree(empty.body()).get("errors").has("username"));
    }

    @Test
    void oversizedHeadersStayA431() throws IOException {
        Answer answer = raw("GET", "health", "X-Padding: " + "x".repeat(64 * 1024) + "\r\n", null);
        assertEquals(431, answer.status());
    }
}
