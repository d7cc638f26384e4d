package io.quarry.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.driver.Driver;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue #25, item 8: secrets masked in every answer as Metabase masks them ({@code **MetabasePass**}), also an H2
 * {@code PASSWORD=} inside the connection string, and sent back masked they keep the stored secret; an HTTP action's
 * template (where its credentials live) only for people who may edit its model.
 */
class SecretsInAnswersIT {
    private static final String H2_SECRET = TargetDatabases.H2_PASSWORD;
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Path shop;
    private static long db;
    private static long customers;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        shop = TargetDatabases.h2Shop();
        // the password only inside the connection string, as H2 connection strings are often written
        db = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop", "details",
                Map.of("db", "file:" + shop + ";USER=" + TargetDatabases.H2_USER + ";PASSWORD=" + H2_SECRET))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(db).get();
        for (JsonNode t : admin.get(200, "database/" + db + "/metadata").json().get("tables")) {
            if (t.get("name").asText().equals("CUSTOMERS")) {
                customers = t.get("id").asLong();
            }
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String storedDb() {
        return (String) server.quarry().databases.require(db).details.get("db");
    }

    @Test
    void anH2PasswordInsideTheConnectionStringIsMaskedInEveryAnswer() {
        JsonNode details = admin.get(200, "database/" + db).json().get("details");
        // what Metabase shows an administrator: the connection string, its secret masked
        assertEquals("file:" + shop + ";USER=" + TargetDatabases.H2_USER + ";PASSWORD=" + Driver.SECRET_PLACEHOLDER, details.get("db").asText());
        long field = admin.get(200, "table/" + customers + "/query_metadata").json().get("fields").get(0).get("id").asLong();
        for (String path : List.of("database/" + db, "database", "database?include=tables", "database/" + db + "?include=tables",
                "database/" + db + "/metadata", "table/" + customers, "table/" + customers + "/query_metadata", "field/" + field,
                "table")) {
            String[] parts = path.split("\\?");
            String body = parts.length == 1 ? admin.get(200, path).body() : admin.get(200, parts[0], "include", "tables").body();
            assertFalse(body.contains(H2_SECRET), path + " shows the password: " + body);
        }
    }

    @Test
    void theMaskedConnectionStringSentBackKeepsTheStoredPassword() {
        String masked = admin.get(200, "database/" + db).json().get("details").get("db").asText();
        admin.put(200, "database/" + db, Map.of("name", "Shop renamed", "details", Map.of("db", masked)));
        assertEquals("file:" + shop + ";USER=" + TargetDatabases.H2_USER + ";PASSWORD=" + H2_SECRET, storedDb());
        assertFalse(storedDb().contains(Driver.SECRET_PLACEHOLDER));
        // and the database still answers queries with it
        JsonNode rows = admin.post(202, "dataset", Map.of("database", db, "type", "native",
                "native", Map.of("query", "SELECT COUNT(*) FROM CUSTOMERS"))).json().get("data").get("rows");
        assertEquals(2, rows.get(0).get(0).asInt());

        // a wrong password sent in clear is tried (and refused) and changes nothing
        admin.put(400, "database/" + db, Map.of("details", Map.of("db", "file:" + shop + ";USER=" + TargetDatabases.H2_USER + ";PASSWORD=wrong")));
        assertTrue(storedDb().endsWith(";PASSWORD=" + H2_SECRET));

        // "Check the connection" on the admin page sends the masked string with the database's id: tried with the
        // stored password; without the id the placeholder is all there is, and the check fails
        String shown = admin.get(200, "database/" + db).json().get("details").get("db").asText();
        assertTrue(admin.post(200, "database/validate", Map.of("id", db, "engine", "h2", "details", Map.of("db", shown)))
                .json().get("valid").asBoolean());
        assertFalse(admin.post(200, "database/validate", Map.of("engine", "h2", "details", Map.of("db", shown)))
                .json().get("valid").asBoolean());
        admin.post(404, "database/validate", Map.of("id", 999_999, "engine", "h2", "details", Map.of("db", shown)));
        admin.post(400, "database/validate", Map.of("id", "x", "engine", "h2", "details", Map.of("db", shown)));
        assertTrue(storedDb().endsWith(";PASSWORD=" + H2_SECRET), "checking changes nothing");
    }

    @Test
    void anHttpActionsTemplateIsOnlyForThoseWhoMayEditItsModel() {
        admin.put(200, "database/" + db, Map.of("settings", Map.of("database-enable-actions", true)));
        long collection = admin.post(200, "collection", Map.of("name", "Models")).json().get("id").asLong();
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", "Customers");
        card.put("type", "model");
        card.put("display", "table");
        card.put("visualization_settings", Map.of());
        card.put("collection_id", collection);
        card.put("dataset_query", Map.of("database", db, "type", "query", "query", Map.of("source-table", customers)));
        long model = admin.post(200, "card", card).json().get("id").asLong();
        Map<String, Object> action = new LinkedHashMap<>();
        action.put("name", "Notify");
        action.put("type", "http");
        action.put("model_id", model);
        action.put("template", Map.of("method", "POST", "url", "http://hooks.example.com/x?token=url-s3cret",
                "headers", "{\"Authorization\": \"Bearer header-s3cret\"}", "body", "{\"id\": {{id}}}"));
        long id = admin.post(200, "action", action).json().get("id").asLong();
        Api reader = Fixtures.ordinaryCaller(anonymous, admin);
        setRight(collection, "read");

        JsonNode seen = reader.get(200, "action/" + id).json();
        assertEquals("Notify", seen.get("name").asText(), "readers still see the action (and may run it)");
        assertTrue(seen.get("template").isNull());
        for (String body : List.of(reader.get(200, "action/" + id).body(), reader.get(200, "action", "model-id", model).body(),
                reader.get(200, "action").body())) {
            assertTrue(body.contains("Notify"), body);
            assertFalse(body.contains("s3cret"), body);
        }

        // those who may edit the model see the whole template: administrators, and curators of its collection
        assertEquals("{\"Authorization\": \"Bearer header-s3cret\"}", admin.get(200, "action/" + id).json().get("template").get("headers").asText());
        setRight(collection, "write");
        JsonNode curated = reader.get(200, "action/" + id).json();
        assertTrue(curated.get("template").get("url").asText().contains("url-s3cret"));
        assertTrue(reader.get(200, "action", "model-id", model).body().contains("header-s3cret"));
    }

    private static void setRight(long collection, String right) {
        long revision = admin.get(200, "collection/graph").json().get("revision").asLong();
        admin.put(200, "collection/graph", Map.of("revision", revision, "groups", Map.of("1", Map.of(String.valueOf(collection), right))));
    }
}
