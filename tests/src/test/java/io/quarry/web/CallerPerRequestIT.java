package io.quarry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each request is answered as its own caller, even when one keep-alive connection (served by the same container
 * thread, request after request) carries an administrator's, another user's and anonymous requests in turn: the card,
 * dataset and dashboard endpoints take the caller that authentication left on the serving thread.
 */
class CallerPerRequestIT {
    private static TestServer server;
    private static String admin;
    private static String other;
    private static long card;
    private static long databaseId;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        Api anonymous = server.api();
        admin = Fixtures.setUp(anonymous);
        Api asAdmin = anonymous.as(admin);
        asAdmin.post(200, "user", Map.of("first_name", "Otto", "last_name", "Other", "email", "otto@example.com",
                "password", "Otto-other-42"));
        other = Fixtures.login(anonymous, "otto@example.com", "Otto-other-42");
        databaseId = asAdmin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", "sa", "password", "secret-pw")))
                .json().get("id").asLong();
        long personal = asAdmin.get(200, "user/current").json().get("personal_collection_id").asLong();
        // in the administrator's personal collection: no one else may see it
        card = asAdmin.post(200, "card", Map.of("name", "Mine", "display", "table", "visualization_settings", Map.of(),
                "collection_id", personal,
                "dataset_query", Map.of("database", databaseId, "type", "native", "native", Map.of("query", "SELECT 42 AS answer"))))
                .json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void oneConnectionCarryingThreeCallersInTurnAnswersEachAsItself() throws IOException {
        String query = "{\"database\":" + databaseId + ",\"type\":\"native\",\"native\":{\"query\":\"SELECT 7 AS seven\"}}";
        try (KeepAlive connection = new KeepAlive(server)) {
            for (int round = 0; round < 25; round++) {
                assertEquals(200, connection.send("GET", "card/" + card, admin, null).status());
                assertEquals(403, connection.send("GET", "card/" + card, other, null).status(), "round " + round);
                assertEquals(401, connection.send("GET", "card/" + card, null, null).status(), "round " + round);

                Answer mine = connection.send("POST", "card/" + card + "/query", admin, "{}");
                assertEquals(202, mine.status(), mine.body());
                assertTrue(mine.body().contains("[[42]]"), mine.body());
                assertEquals(403, connection.send("POST", "card/" + card + "/query", other, "{}").status(), "round " + round);
                assertEquals(401, connection.send("POST", "card/" + card + "/query", null, "{}").status(), "round " + round);

                Answer seven = connection.send("POST", "dataset", other, query);
                assertEquals(202, seven.status(), seven.body());
                assertTrue(seven.body().contains("[[7]]"), seven.body());
                assertEquals(401, connection.send("POST", "dataset", null, query).status(), "round " + round);

                assertEquals(200, connection.send("GET", "dashboard/", admin, null).status());
                assertEquals(401, connection.send("GET", "dashboard/", null, null).status(), "round " + round);
            }
        }
    }

    record Answer(int status, String body) {
    }

    /** One keep-alive HTTP/1.1 connection, as curl or a script reusing its connection would send requests. */
    private static final class KeepAlive implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        KeepAlive(TestServer server) throws IOException {
            socket = new Socket(server.base.getHost(), server.base.getPort());
            socket.setSoTimeout(30_000);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream());
        }

        Answer send(String method, String path, String session, String body) throws IOException {
            byte[] bytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
            String head = method + " /api/" + path + " HTTP/1.1\r\nHost: localhost\r\n"
                    + (session == null ? "" : "X-Metabase-Session: " + session + "\r\n")
                    + (bytes == null ? "" : "Content-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n") + "\r\n";
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            if (bytes != null) {
                out.write(bytes);
            }
            out.flush();
            int status = Integer.parseInt(line().substring(9, 12));
            long length = -1;
            boolean chunked = false;
            for (String header; !(header = line()).isEmpty(); ) {
                String lower = header.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(lower.substring(15).trim());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                }
            }
            ByteArrayOutputStream content = new ByteArrayOutputStream();
            if (chunked) {
                for (int size; (size = Integer.parseInt(line().trim(), 16)) > 0; ) {
                    content.write(in.readNBytes(size));
                    line();
                }
                line();
            } else if (length > 0) {
                content.write(in.readNBytes((int) length));
            }
            return new Answer(status, content.toString(StandardCharsets.UTF_8));
        }

        private String line() throws IOException {
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
