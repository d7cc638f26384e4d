package io.quarry.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The card endpoints real clients call beside the card itself: the dashboards a card is on ({@code GET
 * /api/card/:id/dashboards}, {@code POST /api/cards/dashboards}), moving cards in bulk ({@code POST /api/cards/move}) and
 * a parameter value's display name ({@code GET /api/card/:id/params/:key/remapping}), with Metabase's shapes and statuses.
 */
class CardDashboardsIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";
    private static CardTests t;
    private static Api admin;
    private static Api user;

    @BeforeAll
    static void start() throws Exception {
        t = new CardTests();
        admin = t.admin;
        user = t.user;
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    private static long dashboard(String name, Long collectionId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        if (collectionId != null) {
            body.put("collection_id", collectionId);
        }
        return admin.post(200, "dashboard", body).json().get("id").asLong();
    }

    /** Puts the card on the dashboard (or, with {@code seriesOf}, as a series of that card's dashcard). */
    private static void place(long dashboardId, long cardId, Long seriesOf) {
        Map<String, Object> dc = new LinkedHashMap<>();
        dc.put("id", -1);
        dc.put("card_id", seriesOf == null ? cardId : seriesOf);
        dc.put("row", 0);
        dc.put("col", 0);
        dc.put("size_x", 4);
        dc.put("size_y", 4);
        if (seriesOf != null) {
            dc.put("series", List.of(Map.of("id", cardId)));
        }
        admin.put(200, "dashboard/" + dashboardId, Map.of("dashcards", List.of(dc)));
    }

    @Test
    void dashboardsOfACardNeedWriteOnEveryOne() {
        long card = t.create(user, t.nativeCard("Everywhere", "SELECT 1"));
        long other = t.create(user, t.nativeCard("Host", "SELECT 2"));
        long open = dashboard("Open board", null);
        long lockedCollection = t.collection("Locked boards");
        long locked = dashboard("Locked board", lockedCollection);
        place(open, card, null);
        JsonNode one = user.get(200, "card/" + card + "/dashboards").json();
        assertEquals(1, one.size());
        assertEquals(open, one.get(0).get("id").asLong());
        assertEquals("Open board", one.get(0).get("name").asText());
        assertEquals(2, one.get(0).size(), "only id and name: " + one);
        assertEquals("[]", user.get(200, "card/" + other + "/dashboards").body());

        place(locked, card, other); // as a series of another card's dashcard
        assertEquals(List.of(open, locked), ids(admin.get(200, "card/" + card + "/dashboards").json()));
        assertEquals(FORBIDDEN, user.get(403, "card/" + card + "/dashboards").body());
        t.grant(lockedCollection, "write");
        assertEquals(List.of(open, locked), ids(user.get(200, "card/" + card + "/dashboards").json()));
        t.execute("DELETE FROM collection_permission WHERE collection_id = ?", lockedCollection);

        admin.get(404, "card/999999/dashboards");
        admin.get(400, "card/x/dashboards");
        t.anonymous.get(401, "card/" + card + "/dashboards");
        long secret = t.create(admin, t.with(t.nativeCard("Secret", "SELECT 3"), "collection_id", t.collection("Secret cards")));
        assertEquals(FORBIDDEN, user.get(403, "card/" + secret + "/dashboards").body());
    }

    @Test
    void bulkDashboardsTellWhatTheCallerMayDo() {
        long card = t.create(user, t.nativeCard("Bulk", "SELECT 1"));
        long lonely = t.create(user, t.nativeCard("Lonely", "SELECT 1"));
        long readable = t.collection("Readable boards");
        long hidden = t.collection("Hidden boards");
        t.grant(readable, "read");
        long mine = dashboard("Mine", null);
        long readOnly = dashboard("Read only", readable);
        long unseen = dashboard("Unseen", hidden);
        place(mine, card, null);
        place(readOnly, card, null);
        place(unseen, card, null);
        JsonNode answer = user.post(200, "cards/dashboards", Map.of("card_ids", List.of(card, lonely))).json();
        assertEquals(2, answer.size());
        assertEquals(card, answer.get(0).get("card_id").asLong());
        JsonNode dashboards = answer.get(0).get("dashboards");
        assertEquals("{\"id\":" + mine + ",\"name\":\"Mine\"}", dashboards.get(0).toString());
        assertEquals("{\"id\":" + readOnly + ",\"name\":\"Read only\",\"error\":\"unwritable-dashboard\"}", dashboards.get(1).toString());
        assertEquals("{\"error\":\"unreadable-dashboard\"}", dashboards.get(2).toString());
        assertEquals("{\"card_id\":" + lonely + ",\"dashboards\":[]}", answer.get(1).toString());
        assertEquals(3, admin.post(200, "cards/dashboards", Map.of("card_ids", List.of(card))).json().get(0).get("dashboards").size());

        JsonNode missing = user.post(400, "cards/dashboards", Map.of()).json();
        assertTrue(missing.get("errors").has("card_ids"), missing.toString());
        assertTrue(user.post(400, "cards/dashboards", Map.of("card_ids", List.of(0))).json().get("errors").has("card_ids"));
        assertTrue(user.call("POST", "cards/dashboards", null).status() == 400);
        assertEquals(400, user.postForm(400, "cards/dashboards", Map.of()).status());
        user.post(404, "cards/dashboards", Map.of("card_ids", List.of(card, 999999)));
        long secret = t.create(admin, t.with(t.nativeCard("Secret bulk", "SELECT 3"), "collection_id", t.collection("Secret bulk")));
        assertEquals(FORBIDDEN, user.post(403, "cards/dashboards", Map.of("card_ids", List.of(secret))).body());
        t.anonymous.post(401, "cards/dashboards", Map.of("card_ids", List.of(card)));
    }

    @Test
    void movingCardsIsAllOrNothing() {
        long target = t.collection("Move target");
        long closed = t.collection("Move closed");
        long a = t.create(user, t.nativeCard("Move A", "SELECT 1"));
        long b = t.create(user, t.nativeCard("Move B", "SELECT 2"));
        long stuck = t.create(admin, t.with(t.nativeCard("Move stuck", "SELECT 3"), "collection_id", closed));

        assertEquals(FORBIDDEN, user.post(403, "cards/move", Map.of("card_ids", List.of(a, b), "collection_id", target)).body());
        t.grant(target, "write");
        t.grant(closed, "read");
        assertEquals(FORBIDDEN, user.post(403, "cards/move", Map.of("card_ids", List.of(a, stuck), "collection_id", target)).body());
        assertTrue(admin.get(200, "card/" + a).json().get("collection_id").isNull(), "nothing moved");
        user.post(404, "cards/move", Map.of("card_ids", List.of(a, 999999), "collection_id", target));
        user.post(404, "cards/move", Map.of("card_ids", List.of(a), "collection_id", 999999));
        JsonNode bad = user.post(400, "cards/move", Map.of("card_ids", "a", "collection_id", -1)).json();
        assertTrue(bad.get("errors").has("card_ids") && bad.get("errors").has("collection_id"), bad.toString());
        assertTrue(user.post(400, "cards/move", Map.of("card_ids", List.of(a), "dashboard_id", 5)).json().get("errors").has("dashboard_id"));
        assertEquals(400, user.call("POST", "cards/move", null).status());
        user.postForm(400, "cards/move", Map.of());
        assertTrue(admin.get(200, "card/" + a).json().get("collection_id").isNull(), "nothing moved");

        assertEquals("{\"status\":\"success\"}", user.post(200, "cards/move", Map.of("card_ids", List.of(a, b), "collection_id", target)).body());
        assertEquals(target, admin.get(200, "card/" + a).json().get("collection_id").asLong());
        assertEquals(target, admin.get(200, "card/" + b).json().get("collection_id").asLong());
        Map<String, Object> toRoot = new LinkedHashMap<>();
        toRoot.put("card_ids", List.of(a));
        toRoot.put("collection_id", null);
        toRoot.put("dashboard_id", null);
        user.post(200, "cards/move", toRoot);
        assertTrue(admin.get(200, "card/" + a).json().get("collection_id").isNull());
        user.post(200, "cards/move", Map.of("card_ids", List.of(b)));
        assertEquals(target, admin.get(200, "card/" + b).json().get("collection_id").asLong(), "no collection_id: no move");
        t.anonymous.post(401, "cards/move", Map.of("card_ids", List.of(a)));
    }

    @Test
    void remappingAParameterValue() {
        long category = t.fieldId("ORDERS", "CATEGORY");
        List<Object> parameters = List.of(
                Map.of("id", "p-size", "type", "string/=", "values_source_type", "static-list",
                        "values_source_config", Map.of("values", List.of(List.of("S", "Small"), List.of("M", "Medium"), "L"))),
                Map.of("id", "p-cat", "type", "string/=", "target", List.of("dimension", Arrays.asList("field", category, null))),
                Map.of("id", "p-card", "type", "string/=", "values_source_type", "card",
                        "values_source_config", Map.of("card_id", 1, "value_field", List.of("field", "X", Map.of()))));
        long card = t.create(admin, t.with(t.tableCard("Remapped", t.tableId("ORDERS")), "parameters", parameters));
        String base = "card/" + card + "/params/";
        assertEquals("[\"S\",\"Small\"]", user.get(200, base + "p-size/remapping", "value", "S").body());
        assertEquals("[\"L\"]", user.get(200, base + "p-size/remapping", "value", "L").body());
        assertEquals("[\"XL\"]", user.get(200, base + "p-size/remapping", "value", "XL").body());
        assertEquals("[\"Gizmo\"]", user.get(200, base + "p-cat/remapping", "value", "Gizmo").body());
        assertEquals("[\"Nothing\"]", user.get(200, base + "p-cat/remapping", "value", "Nothing").body());
        assertEquals("[\"S\"]", user.get(200, base + "p-card/remapping", "value", "S").body());
        // a field whose values people remapped answers the display name
        assertEquals("[[\"Gizmo\"],[\"Widget\"]]", admin.get(200, "field/" + category + "/values").json().get("values").toString());
        t.execute("UPDATE metabase_fieldvalues SET human_readable_values = ? WHERE field_id = ?", "[\"Gizmo gadget\",\"Widget thing\"]", category);
        assertEquals("[\"Widget\",\"Widget thing\"]", user.get(200, base + "p-cat/remapping", "value", "Widget").body());
        // percent-decoded once more, as Metabase does
        assertEquals("[\"S\",\"Small\"]", user.get(200, base + "p-size/remapping", "value", "%53").body());

        assertEquals("Card does not have a parameter with the ID \"nope\"", user.get(400, base + "nope/remapping", "value", "S").body());
        JsonNode noValue = user.get(400, base + "p-size/remapping").json();
        assertEquals("string", noValue.get("errors").get("value").asText());
        admin.get(404, "card/999999/params/p-size/remapping", "value", "S");
        long secret = t.create(admin, t.with(t.nativeCard("Secret remap", "SELECT 1"), "collection_id", t.collection("Secret remap"),
                "parameters", List.of(parameters.get(0))));
        assertEquals(FORBIDDEN, user.get(403, "card/" + secret + "/params/p-size/remapping", "value", "S").body());
        t.anonymous.get(401, base + "p-size/remapping", "value", "S");
    }

    private static List<Long> ids(JsonNode array) {
        List<Long> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.get("id").asLong()));
        return out;
    }
}
