package io.quarry.qp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.sample.SampleDatabase;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An ad-hoc query may use a saved card ({@code card__N} in MBQL, {@code {{#N}}} in SQL) only when its caller may read
 * that card's collection — otherwise the card's results would leak through {@code POST /api/dataset}. A saved question
 * runs with its own rights: its source card is not checked again (as in Metabase).
 */
class CardReferenceRightsIT {
    private static TestServer server;
    private static Api admin;
    private static Api user;
    private static long sampleId;
    private static long hiddenCard;
    private static long openCard;
    private static long savedOverHidden;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        Api anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
        Path sample = SampleDatabase.ensure(Path.of("target", "mbql-sample").toAbsolutePath());
        sampleId = admin.post(200, "database", Map.of("engine", "h2", "name", "Sample Database", "details",
                Map.of("db", "file:" + sample + ";ACCESS_MODE_DATA=r", "user", SampleDatabase.USER, "password", SampleDatabase.PASSWORD)))
                .json().get("id").asLong();
        server.quarry().sync.syncInBackground(sampleId).get();
        long hidden = admin.post(200, "collection", Map.of("name", "Hidden")).json().get("id").asLong();
        JsonNode graph = admin.get(200, "collection/graph").json();
        admin.put(200, "collection/graph", Map.of("revision", graph.get("revision").asLong(),
                "groups", Map.of("1", Map.of(String.valueOf(hidden), "none"))));
        hiddenCard = card("Hidden gizmos", hidden, "SELECT ID, CATEGORY FROM PRODUCTS WHERE CATEGORY = 'Gizmo'");
        openCard = card("Open gizmos", null, "SELECT ID, CATEGORY FROM PRODUCTS WHERE CATEGORY = 'Gizmo'");
        Map<String, Object> overHidden = new LinkedHashMap<>();
        overHidden.put("name", "Count over hidden");
        overHidden.put("display", "scalar");
        overHidden.put("visualization_settings", Map.of());
        overHidden.put("dataset_query", Map.of("database", sampleId, "type", "query",
                "query", Map.of("source-table", "card__" + hiddenCard, "aggregation", List.of(List.of("count")))));
        savedOverHidden = admin.post(200, "card", overHidden).json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static long card(String name, Long collectionId, String sql) {
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", name);
        card.put("display", "table");
        card.put("visualization_settings", Map.of());
        card.put("collection_id", collectionId);
        card.put("dataset_query", Map.of("database", sampleId, "type", "native", "native", Map.of("query", sql)));
        return admin.post(200, "card", card).json().get("id").asLong();
    }

    private static Map<String, Object> countOver(long cardId) {
        return Map.of("database", sampleId, "type", "query",
                "query", Map.of("source-table", "card__" + cardId, "aggregation", List.of(List.of("count"))));
    }

    private static Map<String, Object> nativeOver(long cardId) {
        String tag = "#" + cardId;
        return Map.of("database", sampleId, "type", "native", "native", Map.of("query", "SELECT COUNT(*) FROM {{" + tag + "}} g",
                "template-tags", Map.of(tag, Map.of("id", "t", "name", tag, "display-name", tag, "type", "card", "card-id", cardId))));
    }

    @Test
    void adHocQueriesOverAnUnreadableCardAreRefused() {
        user.get(403, "card/" + hiddenCard);
        JsonNode mbql = user.post(403, "dataset", countOver(hiddenCard)).json();
        assertEquals("You do not have permissions to view Card " + hiddenCard + ".", mbql.get("error").asText());
        JsonNode sql = user.post(403, "dataset", nativeOver(hiddenCard)).json();
        assertEquals("You do not have permissions to view Card " + hiddenCard + ".", sql.get("error").asText());
        user.post(403, "dataset/native", countOver(hiddenCard));
    }

    @Test
    void aCardOverAnUnreadableCardCannotBeSavedSoItsResultsCannotLeakThroughTheSavedPath() {
        long before = admin.get(200, "card").json().size();
        for (Map<String, Object> query : List.of(countOver(hiddenCard), nativeOver(hiddenCard))) {
            Map<String, Object> card = new LinkedHashMap<>();
            card.put("name", "Sneaky");
            card.put("display", "table");
            card.put("visualization_settings", Map.of());
            card.put("dataset_query", query);
            user.post(403, "card", card);
        }
        assertEquals(before, admin.get(200, "card").json().size(), "nothing saved");
        // nor can a readable card of the user's be changed to read the hidden one
        Map<String, Object> own = new LinkedHashMap<>();
        own.put("name", "Mine");
        own.put("display", "table");
        own.put("visualization_settings", Map.of());
        own.put("dataset_query", countOver(openCard));
        long mine = user.post(200, "card", own).json().get("id").asLong();
        user.put(403, "card/" + mine, Map.of("dataset_query", countOver(hiddenCard)));
        assertEquals("card__" + openCard, admin.get(200, "card/" + mine).json().get("dataset_query").get("query")
                .get("source-table").asText());
    }

    @Test
    void readableCardsAndAdminsRunAsBefore() {
        long gizmos = admin.post(202, "dataset", countOver(hiddenCard)).json().get("data").get("rows").get(0).get(0).asLong();
        assertEquals(gizmos, admin.post(202, "dataset", nativeOver(hiddenCard)).json().get("data").get("rows").get(0).get(0).asLong());
        assertEquals(gizmos, user.post(202, "dataset", countOver(openCard)).json().get("data").get("rows").get(0).get(0).asLong());
        assertEquals(gizmos, user.post(202, "dataset", nativeOver(openCard)).json().get("data").get("rows").get(0).get(0).asLong());
        // a saved question the user may read runs with its own rights, its source card included
        assertEquals(gizmos, user.post(202, "card/" + savedOverHidden + "/query", Map.of()).json()
                .get("data").get("rows").get(0).get(0).asLong());
    }
}
