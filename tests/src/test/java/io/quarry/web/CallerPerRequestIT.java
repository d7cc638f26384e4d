package io.quarry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.RawHttp;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each request is answered as its own caller, even when one keep-alive connection (whose requests Jetty usually
 * serves one after another on one container thread) carries an administrator's, another user's and anonymous requests
 * in turn: the card, dataset and dashboard endpoints take the caller that authentication left on the serving thread.
 */
class CallerPerRequestIT {
    private static final String FORM = "application/x-www-form-urlencoded";
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
                "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD)))
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
        try (RawHttp connection = new RawHttp(server.base)) {
            for (int round = 0; round < 25; round++) {
                assertEquals(200, send(connection, "GET", "card/" + card, admin, null).status());
                assertEquals(403, send(connection, "GET", "card/" + card, other, null).status(), "round " + round);
                assertEquals(401, send(connection, "GET", "card/" + card, null, null).status(), "round " + round);

                RawHttp.Answer mine = send(connection, "POST", "card/" + card + "/query", admin, "{}");
                assertEquals(202, mine.status(), text(mine));
                assertTrue(text(mine).contains("[[42]]"), text(mine));
                assertEquals(403, send(connection, "POST", "card/" + card + "/query", other, "{}").status(), "round " + round);
                assertEquals(401, send(connection, "POST", "card/" + card + "/query", null, "{}").status(), "round " + round);
                // as plain clients post: no body and no content type (curl -X POST), an empty form (curl -d '')
                RawHttp.Answer bare = send(connection, "POST", "card/" + card + "/query", admin, null, null);
                assertEquals(202, bare.status(), text(bare));
                assertTrue(text(bare).contains("[[42]]"), text(bare));
                assertEquals(403, send(connection, "POST", "card/" + card + "/query", other, FORM, new byte[0]).status(), "round " + round);
                assertEquals(401, send(connection, "POST", "card/" + card + "/query", null, FORM, new byte[0]).status(), "round " + round);
                assertEquals(202, send(connection, "POST", "card/" + card + "/query", admin, FORM, new byte[0]).status(), "round " + round);

                RawHttp.Answer seven = send(connection, "POST", "dataset", other, query);
                assertEquals(202, seven.status(), text(seven));
                assertTrue(text(seven).contains("[[7]]"), text(seven));
                assertEquals(401, send(connection, "POST", "dataset", null, query).status(), "round " + round);

                assertEquals(200, send(connection, "GET", "dashboard/", admin, null).status());
                assertEquals(401, send(connection, "GET", "dashboard/", null, null).status(), "round " + round);
            }
        }
    }

    private static RawHttp.Answer send(RawHttp connection, String method, String path, String session, String json)
            throws IOException {
        return send(connection, method, path, session, json == null ? null : "application/json",
                json == null ? null : json.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code body} null: no body and no {@code Content-Length}; {@code type} null: no {@code Content-Type}. */
    private static RawHttp.Answer send(RawHttp connection, String method, String path, String session, String type, byte[] body)
            throws IOException {
        return connection.send(method, "/api/" + path, (session == null ? "" : "X-Metabase-Session: " + session + "\r\n")
                + (type == null ? "" : "Content-Type: " + type + "\r\n"), body);
    }

    private static String text(RawHttp.Answer answer) {
        return new String(answer.body(), StandardCharsets.UTF_8);
    }
}
