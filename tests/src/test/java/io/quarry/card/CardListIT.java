package io.quarry.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code GET /api/card} and its filters, always limited to cards the caller may read. */
class CardListIT {
    private static CardTests t;
    private static Api admin;
    private static Api user;
    private static long secret;
    private static long hidden;
    private static long adminCard;
    private static long userCard;
    private static long tableCard;
    private static long model;
    private static long usesModel;
    private static long archived;

    @BeforeAll
    static void start() throws Exception {
        t = new CardTests();
        admin = t.admin;
        user = t.user;
        secret = t.collection("Secret");
        hidden = t.create(admin, t.with(t.nativeCard("hidden card", "SELECT 1"), "collection_id", secret));
        adminCard = t.create(admin, t.nativeCard("Beta by admin", "SELECT 2"));
        userCard = t.create(user, t.nativeCard("alpha by user", "SELECT 3"));
        tableCard = t.create(admin, t.tableCard("Orders table", t.tableId("ORDERS")));
        model = t.create(admin, t.with(t.tableCard("Order model", t.tableId("ORDERS")), "type", "model"));
        usesModel = t.create(admin, t.with(t.nativeCard("From model", "SELECT 1"), "dataset_query", Map.of("database", t.dbId,
                "type", "query", "query", Map.of("source-table", "card__" + model))));
        archived = t.create(admin, t.nativeCard("Gone", "SELECT 4"));
        admin.put(200, "card/" + archived, Map.of("archived", true));
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    private static List<Long> ids(JsonNode list) {
        List<Long> ids = new ArrayList<>();
        list.forEach(c -> ids.add(c.get("id").asLong()));
        return ids;
    }

    @Test
    void allListsReadableLiveCardsByName() {
        JsonNode all = admin.get(200, "card").json();
        List<Long> ids = ids(all);
        assertTrue(ids.containsAll(List.of(hidden, adminCard, userCard, tableCard, model, usesModel)));
        assertFalse(ids.contains(archived));
        assertEquals(userCard, ids.get(0), "ordered by lower-case name");
        assertEquals(ids, ids(admin.get(200, "card", "f", "all").json()));
        assertTrue(all.get(0).has("creator") && all.get(0).has("collection"), all.get(0).toString());
        List<Long> seen = ids(user.get(200, "card").json());
        assertFalse(seen.contains(hidden), "a card in a collection the user cannot read is not listed");
        assertTrue(seen.contains(adminCard));
        t.anonymous.get(401, "card");
    }

    @Test
    void mineArchivedAndBookmarked() {
        assertEquals(List.of(userCard), ids(user.get(200, "card", "f", "mine").json()));
        assertEquals(List.of(archived), ids(admin.get(200, "card", "f", "archived").json()));
        assertTrue(ids(user.get(200, "card", "f", "bookmarked").json()).isEmpty());
        user.post(200, "bookmark/card/" + adminCard, Map.of());
        try {
            assertEquals(List.of(adminCard), ids(user.get(200, "card", "f", "bookmarked").json()));
            assertTrue(ids(admin.get(200, "card", "f", "bookmarked").json()).isEmpty(), "bookmarks are per user");
        } finally {
            user.delete(204, "bookmark/card/" + adminCard);
        }
    }

    @Test
    void databaseTableAndModelFilters() {
        List<Long> onDb = ids(admin.get(200, "card", "f", "database", "model_id", t.dbId).json());
        assertTrue(onDb.containsAll(List.of(adminCard, tableCard, usesModel)));
        assertEquals(List.of(model, tableCard), ids(admin.get(200, "card", "f", "table", "model_id", t.tableId("ORDERS")).json()));
        assertEquals(List.of(usesModel), ids(admin.get(200, "card", "f", "using_model", "model_id", model).json()));
        assertEquals("model_id is a required parameter when filter mode is 'table'",
                admin.get(400, "card", "f", "table").json().get("errors").get("model_id").asText());
        assertEquals("model_id is a required parameter when filter mode is 'database'",
                admin.get(400, "card", "f", "database").json().get("errors").get("model_id").asText());
        admin.get(404, "card", "f", "database", "model_id", 999_999);
        admin.get(404, "card", "f", "table", "model_id", 999_999);
        admin.get(404, "card", "f", "using_model", "model_id", 999_999);
        user.get(403, "card", "f", "using_model", "model_id", hidden);
        assertTrue(admin.get(400, "card", "model_id", -1).json().get("errors").has("model_id"));
        JsonNode badF = admin.get(400, "card", "f", "popular").json();
        assertEquals("nullable enum of archived, table, using_model, bookmarked, all, mine, database",
                badF.get("errors").get("f").asText());
        assertEquals("should be either \"archived\" or \"table\" or \"using_model\" or \"bookmarked\" or \"all\" or \"mine\" "
                + "or \"database\", received: \"popular\"", badF.get("specific-errors").get("f").get(0).asText());
    }

    @Test
    void seriesPagesThroughCompatibleCards() {
        long base = t.create(admin, t.with(t.nativeCard("Series base", "SELECT CATEGORY, TOTAL FROM ORDERS"), "display", "line"));
        long s1 = t.create(admin, t.with(t.nativeCard("Series one", "SELECT 1"), "display", "bar"));
        long s2 = t.create(admin, t.with(t.nativeCard("Series two", "SELECT 2"), "display", "line"));
        long s3 = t.create(admin, t.with(t.nativeCard("Other three", "SELECT 3"), "display", "area"));
        long hiddenLine = t.create(admin, t.with(t.nativeCard("Series hidden", "SELECT 4"), "display", "line", "collection_id", secret));
        long pie = t.create(admin, t.with(t.nativeCard("Pie", "SELECT 5"), "display", "pie"));
        List<Long> all = ids(admin.get(200, "card/" + base + "/series").json());
        assertEquals(List.of(hiddenLine, s3, s2, s1), all.subList(0, 4), "newest first, without the card itself");
        assertFalse(all.contains(pie) || all.contains(base) || all.contains(adminCard));
        assertFalse(ids(user.get(200, "card/" + base + "/series").json()).contains(hiddenLine));
        assertEquals(List.of(s3), ids(user.get(200, "card/" + base + "/series", "limit", 1).json()));
        assertEquals(List.of(s2), ids(user.get(200, "card/" + base + "/series", "limit", 1, "last_cursor", s3).json()));
        assertEquals(List.of(s2, s1), ids(admin.get(200, "card/" + base + "/series", "query", "SERIES").json()).subList(1, 3));
        assertEquals(List.of(s3, s1), ids(user.get(200, "card/" + base + "/series?exclude_ids=" + s2 + "&exclude_ids=" + hiddenLine
                + "&limit=2").json()));
        assertEquals("Card with type pie is not compatible to have series", admin.get(400, "card/" + pie + "/series").body());
        assertTrue(admin.get(400, "card/" + base + "/series", "exclude_ids", "x").json().get("errors").has("exclude_ids"));
        user.get(403, "card/" + hiddenLine + "/series");
        t.anonymous.get(401, "card/" + base + "/series");
        admin.get(404, "card/999999/series");
    }

    @Test
    void relatedEntities() {
        JsonNode related = user.get(200, "card/" + tableCard + "/related").json();
        assertEquals("ORDERS", related.get("table").get("name").asText());
        List<Long> similar = new ArrayList<>();
        related.get("similar-questions").forEach(c -> similar.add(c.get("id").asLong()));
        assertEquals(List.of(model), similar);
        assertTrue(related.get("dashboards").isArray());
        JsonNode adHoc = user.post(200, "card/related", Map.of("query", Map.of("database", t.dbId, "type", "query",
                "query", Map.of("source-table", t.tableId("ORDERS"))))).json();
        assertEquals(2, adHoc.get("similar-questions").size());
        user.get(403, "card/" + hidden + "/related");
        t.anonymous.get(401, "card/" + tableCard + "/related");
    }
}
