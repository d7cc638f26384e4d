package io.quarry.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Structured queries over a saved native question that has template tags ({@code source-table: "card__N"}): its tags
 * are filled in (defaults, optional clauses dropped without a value, snippets), its bind values go first, and a required
 * variable without a default fails the query with Metabase's message. Numbers are checked against plain SQL on the
 * Sample Database.
 */
class NativeSourceCardIT {
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static Path sample;
    private static long sampleId;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
        sample = SampleDatabase.ensure(Path.of("target", "mbql-sample").toAbsolutePath());
        sampleId = admin.post(200, "database", Map.of("engine", "h2", "name", "Sample Database", "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password", SampleDatabase.PASSWORD)))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(sampleId).get();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long reference(String sql) throws Exception {
        try (Connection c = SampleDatabase.connect(sample); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Map<String, Object> tag(String name, String type, Object defaultValue, boolean required) {
        Map<String, Object> tag = new LinkedHashMap<>();
        tag.put("id", "id-" + name);
        tag.put("name", name);
        tag.put("display-name", name);
        tag.put("type", type);
        tag.put("required", required);
        if (defaultValue != null) {
            tag.put("default", defaultValue);
        }
        return tag;
    }

    private static long card(String name, String sql, Map<String, Object> tags) {
        return admin.post(200, "card", Map.of("name", name, "display", "table", "visualization_settings", Map.of(),
                "dataset_query", Map.of("database", sampleId, "type", "native", "native", Map.of("query", sql, "template-tags", tags))))
                .json().get("id").asLong();
    }

    private static Api.Res countOver(Api api, int status, long cardId, Object filter) {
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("source-table", "card__" + cardId);
        query.put("aggregation", List.of(List.of("count")));
        if (filter != null) {
            query.put("filter", filter);
        }
        return api.post(status, "dataset", Map.of("database", sampleId, "type", "query", "query", query));
    }

    private static long value(Api.Res res) {
        JsonNode result = res.json();
        assertEquals("completed", result.get("status").asText(), result.toString());
        return result.get("data").get("rows").get(0).get(0).asLong();
    }

    @Test
    void defaultsAreUsedAndOptionalClausesWithoutAValueDropped() throws Exception {
        long id = card("Products of a category", "SELECT ID, CATEGORY, PRICE FROM PRODUCTS WHERE 1 = 1"
                + " [[AND CATEGORY = {{cat}}]] [[AND PRICE < {{max}}]]",
                Map.of("cat", tag("cat", "text", "Gizmo", false), "max", tag("max", "number", null, false)));
        long gizmos = reference("SELECT COUNT(*) FROM PUBLIC.PRODUCTS WHERE CATEGORY = 'Gizmo'");
        assertTrue(gizmos > 0);
        assertEquals(gizmos, value(countOver(admin, 202, id, null)));
        assertEquals(gizmos, value(countOver(user, 202, id, null)));
        // the card's bind value comes first, the outer filter's after it
        long cheap = reference("SELECT COUNT(*) FROM PUBLIC.PRODUCTS WHERE CATEGORY = 'Gizmo' AND PRICE < 50");
        assertTrue(cheap > 0 && cheap < gizmos);
        assertEquals(cheap, value(countOver(admin, 202, id, List.of("<", List.of("field", "PRICE", Map.of("base-type", "type/Float")), 50))));
        JsonNode result = countOver(admin, 202, id, null).json();
        assertTrue(result.get("data").get("native_form").get("query").asText().contains("CATEGORY = ?"), result.toString());
        assertEquals("Unauthenticated", countOver(anonymous, 401, id, null).body());
    }

    @Test
    void aRequiredVariableWithoutADefaultFailsClearly() {
        long id = card("Needs a category", "SELECT ID FROM PRODUCTS WHERE CATEGORY = {{cat}}",
                Map.of("cat", tag("cat", "text", null, true)));
        JsonNode failure = countOver(admin, 400, id, null).json();
        assertEquals("failed", failure.get("status").asText());
        assertEquals("You'll need to pick a value for 'cat' before this query can run.", failure.get("error").asText());
    }

    @Test
    void snippetsAndNumbersInTheSourceCard() throws Exception {
        admin.post(200, "native-query-snippet", Map.of("name", "widgets only", "content", "CATEGORY = 'Widget'"));
        long id = card("Widgets above", "SELECT ID, PRICE FROM PRODUCTS WHERE {{snippet: widgets only}} AND PRICE > {{min}}",
                Map.of("min", tag("min", "number", "30", false)));
        assertEquals(reference("SELECT COUNT(*) FROM PUBLIC.PRODUCTS WHERE CATEGORY = 'Widget' AND PRICE > 30"),
                value(countOver(admin, 202, id, null)));
    }
}
