package io.quarry.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Metabase's deprecated {@code PUT /api/dashboard/:id/cards} (the layout of {@code PUT /api/dashboard/:id}: add, change,
 * remove dashcards and tabs) and {@code GET /api/dashboard/:id/related}, as the MCP servers call them.
 */
class DashboardCardsIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static long dbId;
    private static long ordersTable;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
        dbId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop", "details", Map.of("db", "file:" + TargetDatabases.h2Shop(),
                "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
        server.quarry().sync.syncInBackground(dbId).get();
        ordersTable = AppDbSql.count(server, "SELECT id FROM metabase_table WHERE db_id = ? AND name = 'ORDERS'", dbId);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, Object> dashcard(long id, Long cardId, Long tabId) {
        Map<String, Object> dc = new LinkedHashMap<>();
        dc.put("id", id);
        dc.put("card_id", cardId);
        dc.put("row", 0);
        dc.put("col", 0);
        dc.put("size_x", 4);
        dc.put("size_y", 3);
        if (tabId != null) {
            dc.put("dashboard_tab_id", tabId);
        }
        return dc;
    }

    private static long dashboard(Api as, String name) {
        return as.post(200, "dashboard", Map.of("name", name)).json().get("id").asLong();
    }

    private static long revisions(long dashboardId) {
        return AppDbSql.count(server, "SELECT COUNT(*) FROM revision WHERE model = 'Dashboard' AND model_id = ?", dashboardId);
    }

    @Test
    void addChangeAndRemoveCardsAndTabs() {
        long a = DashboardIT.card(admin, dbId, "Cards A", null);
        long b = DashboardIT.card(admin, dbId, "Cards B", null);
        long id = dashboard(user, "Cards board");
        long before = revisions(id);
        JsonNode added = user.put(200, "dashboard/" + id + "/cards", Map.of("cards", List.of(dashcard(-1, a, null), dashcard(-2, b, null)))).json();
        assertEquals(2, added.size(), "only cards and tabs: " + added.fieldNames().next());
        assertEquals(2, added.get("cards").size());
        assertEquals("[]", added.get("tabs").toString());
        JsonNode first = added.get("cards").get(0);
        assertEquals(a, first.get("card_id").asLong());
        assertEquals("Cards A", first.get("card").get("name").asText(), "dashcards hydrated as GET shows them");
        assertEquals(before + 1, revisions(id), "one revision per change");
        long keep = first.get("id").asLong();

        Map<String, Object> moved = dashcard(keep, a, null);
        moved.put("row", 5);
        moved.put("visualization_settings", Map.of("card.title", "Renamed"));
        JsonNode changed = user.put(200, "dashboard/" + id + "/cards", Map.of("cards", List.of(moved))).json();
        assertEquals(1, changed.get("cards").size(), "a stored dashcard not sent is removed");
        assertEquals(5, changed.get("cards").get(0).get("row").asInt());
        assertEquals("Renamed", changed.get("cards").get(0).get("visualization_settings").get("card.title").asText());
        assertEquals(1, admin.get(200, "dashboard/" + id).json().get("dashcards").size());

        // tabs: new ones by negative id, dashcards follow them; with one tab, a dashcard without a tab goes on it
        JsonNode tabbed = user.put(200, "dashboard/" + id + "/cards", Map.of("cards", List.of(dashcard(keep, a, null), dashcard(-3, b, null)),
                "tabs", List.of(Map.of("id", -10, "name", "Overview")))).json();
        assertEquals(1, tabbed.get("tabs").size());
        long tab = tabbed.get("tabs").get(0).get("id").asLong();
        assertTrue(tab > 0);
        tabbed.get("cards").forEach(dc -> assertEquals(tab, dc.get("dashboard_tab_id").asLong()));
        JsonNode two = user.put(200, "dashboard/" + id + "/cards", Map.of(
                "cards", List.of(dashcard(keep, a, tab), dashcard(-4, b, -11L)),
                "tabs", List.of(Map.of("id", tab, "name", "Overview"), Map.of("id", -11, "name", "Details")))).json();
        assertEquals(List.of("Overview", "Details"), names(two.get("tabs")));
        long details = two.get("tabs").get(1).get("id").asLong();
        assertEquals(details, two.get("cards").get(1).get("dashboard_tab_id").asLong());
        // two tabs: every dashcard needs one
        assertEquals("This dashboard has tab, makes sure every card has a tab",
                user.put(400, "dashboard/" + id + "/cards", Map.of("cards", List.of(dashcard(keep, a, null)))).body());
        // a tab not sent goes, with its dashcards
        JsonNode one = user.put(200, "dashboard/" + id + "/cards", Map.of("cards", List.of(dashcard(keep, a, tab)),
                "tabs", List.of(Map.of("id", tab, "name", "Only")))).json();
        assertEquals(List.of("Only"), names(one.get("tabs")));
        assertEquals(1, one.get("cards").size());
        assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM dashboard_tab WHERE id = ?", details));
        // empty cards: every dashcard removed
        assertEquals(0, user.put(200, "dashboard/" + id + "/cards", Map.of("cards", List.of(), "tabs", List.of())).json().get("cards").size());
    }

    @Test
    void badInputRightsAndUnknownIds() {
        long a = DashboardIT.card(admin, dbId, "Bad A", null);
        long id = dashboard(admin, "Guarded");
        admin.put(200, "dashboard/" + id + "/cards", Map.of("cards", List.of(dashcard(-1, a, null))));
        long dashcards = AppDbSql.count(server, "SELECT COUNT(*) FROM report_dashboardcard WHERE dashboard_id = ?", id);
        long revisions = revisions(id);

        JsonNode missing = admin.put(400, "dashboard/" + id + "/cards", Map.of("tabs", List.of())).json();
        assertEquals("value must be seq of maps in which ids are unique", missing.get("errors").get("cards").asText());
        JsonNode duplicate = admin.put(400, "dashboard/" + id + "/cards", Map.of("cards", List.of(dashcard(-1, a, null), dashcard(-1, a, null)))).json();
        assertTrue(duplicate.get("specific-errors").get("cards").toString().contains("ids must be unique"), duplicate.toString());
        Map<String, Object> noSize = dashcard(-1, a, null);
        noSize.remove("size_x");
        assertTrue(admin.put(400, "dashboard/" + id + "/cards", Map.of("cards", List.of(noSize))).json().get("errors").has("cards"));
        JsonNode badTab = admin.put(400, "dashboard/" + id + "/cards", Map.of("cards", List.of(), "tabs", List.of(Map.of("id", -1, "name", " ")))).json();
        assertTrue(badTab.get("errors").has("tabs"), badTab.toString());
        assertEquals(400, admin.call("PUT", "dashboard/" + id + "/cards", null).status());
        assertEquals(400, admin.call("PUT", "dashboard/" + id + "/cards", "").status());
        assertEquals(dashcards, AppDbSql.count(server, "SELECT COUNT(*) FROM report_dashboardcard WHERE dashboard_id = ?", id), "nothing changed");
        assertEquals(revisions, revisions(id));

        admin.put(404, "dashboard/999999/cards", Map.of("cards", List.of()));
        admin.put(400, "dashboard/x/cards", Map.of("cards", List.of()));
        admin.put(404, "dashboard/" + id + "/cards", Map.of("cards", List.of(dashcard(-5, 999999L, null))));
        anonymous.put(401, "dashboard/" + id + "/cards", Map.of("cards", List.of()));

        long lockedCollection = ContentSql.collection(server, "Cards locked");
        long locked = admin.post(200, "dashboard", Map.of("name", "Locked cards", "collection_id", lockedCollection)).json().get("id").asLong();
        assertEquals(FORBIDDEN, user.put(403, "dashboard/" + locked + "/cards", Map.of("cards", List.of())).body());
        ContentSql.grant(server, lockedCollection, "read");
        assertEquals(FORBIDDEN, user.put(403, "dashboard/" + locked + "/cards", Map.of("cards", List.of(dashcard(-1, a, null)))).body());
        ContentSql.revoke(server, lockedCollection);
        long secret = DashboardIT.card(admin, dbId, "Secret card", lockedCollection);
        long mine = dashboard(user, "Mine");
        assertEquals(FORBIDDEN, user.put(403, "dashboard/" + mine + "/cards", Map.of("cards", List.of(dashcard(-1, secret, null)))).body());
        assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM report_dashboardcard WHERE dashboard_id = ?", mine));

        admin.put(200, "dashboard/" + id, Map.of("archived", true));
        assertEquals("archived", admin.put(404, "dashboard/" + id + "/cards", Map.of("cards", List.of())).json().get("error_code").asText());
    }

    private static Map<String, Object> tableCard(String name, Object... filter) {
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("source-table", ordersTable);
        if (filter.length > 0) {
            query.put("filter", List.of(filter));
        }
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", name);
        card.put("display", "table");
        card.put("visualization_settings", Map.of());
        card.put("dataset_query", Map.of("database", dbId, "type", "query", "query", query));
        return card;
    }

    @Test
    void relatedCardsShareFieldsOfTheDashboardsCards() {
        long category = AppDbSql.count(server, "SELECT id FROM metabase_field WHERE table_id = ? AND name = 'CATEGORY'", ordersTable);
        long total = AppDbSql.count(server, "SELECT id FROM metabase_field WHERE table_id = ? AND name = 'TOTAL'", ordersTable);
        List<Object> byCategory = List.of("field", category, new LinkedHashMap<>());
        List<Object> byTotal = List.of("field", total, new LinkedHashMap<>());
        long shown = admin.post(200, "card", tableCard("Gizmos", "=", byCategory, "Gizmo")).json().get("id").asLong();
        long sibling = admin.post(200, "card", tableCard("Widgets", "=", byCategory, "Widget")).json().get("id").asLong();
        admin.post(200, "card", tableCard("Big orders", ">", byTotal, 10));
        long lockedCollection = ContentSql.collection(server, "Related secrets");
        Map<String, Object> hidden = tableCard("Hidden widgets", "=", byCategory, "Widget");
        hidden.put("collection_id", lockedCollection);
        long secret = admin.post(200, "card", hidden).json().get("id").asLong();
        long archived = admin.post(200, "card", tableCard("Old widgets", "=", byCategory, "Old")).json().get("id").asLong();
        admin.put(200, "card/" + archived, Map.of("archived", true));
        long id = dashboard(user, "Related board");
        user.put(200, "dashboard/" + id + "/cards", Map.of("cards", List.of(dashcard(-1, shown, null))));

        JsonNode related = user.get(200, "dashboard/" + id + "/related").json();
        assertEquals(List.of(sibling), ids(related.get("cards")), related.toString());
        assertEquals("Widgets", related.get("cards").get(0).get("name").asText());
        assertEquals(List.of(sibling, secret), ids(admin.get(200, "dashboard/" + id + "/related").json().get("cards")));
        assertEquals("{\"cards\":[]}", user.get(200, "dashboard/" + dashboard(user, "Empty related") + "/related").body());

        user.get(404, "dashboard/999999/related");
        long lockedBoard = admin.post(200, "dashboard", Map.of("name", "Locked related", "collection_id", lockedCollection)).json().get("id").asLong();
        assertEquals(FORBIDDEN, user.get(403, "dashboard/" + lockedBoard + "/related").body());
        anonymous.get(401, "dashboard/" + id + "/related");
    }

    private static Map<String, Object> transientDashboard(String name, Object... dashcards) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (name != null) {
            body.put("name", name);
        }
        body.put("description", "From an x-ray");
        body.put("transient_name", "ignored");
        body.put("related", Map.of("zoom-in", List.of()));
        body.put("tabs", List.of(Map.of("id", 7, "name", "Overview")));
        body.put("dashcards", List.of(dashcards));
        return body;
    }

    private static Map<String, Object> transientDashcard(int id, Map<String, Object> card) {
        Map<String, Object> dc = dashcard(id, null, 7L);
        dc.remove("card_id");
        dc.put("card", card);
        return dc;
    }

    private static Map<String, Object> newCard(String name) {
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", name);
        card.put("display", "scalar");
        card.put("visualization_settings", Map.of());
        card.put("dataset_query", Map.of("database", dbId, "type", "native", "native", Map.of("query", "SELECT COUNT(*) FROM ORDERS")));
        return card;
    }

    @Test
    void savingATransientDashboard() {
        long existing = DashboardIT.card(admin, dbId, "Existing for save", null);
        long target = ContentSql.collection(server, "Saved x-rays");
        Map<String, Object> text = transientDashcard(3, Map.of("name", "Text", "visualization_settings", Map.of()));
        text.put("visualization_settings", Map.of("text", "Hello"));
        Map<String, Object> body = transientDashboard("Saved x-ray", transientDashcard(1, Map.of("id", existing, "name", "Existing for save")),
                transientDashcard(2, newCard("Orders counted")), text);
        long dashboards = AppDbSql.count(server, "SELECT COUNT(*) FROM report_dashboard");
        long cards = AppDbSql.count(server, "SELECT COUNT(*) FROM report_card");

        assertEquals(FORBIDDEN, user.post(403, "dashboard/save/collection/" + target, body).body());
        user.post(404, "dashboard/save/collection/999999", body);
        user.post(400, "dashboard/save/collection/x", body);
        JsonNode noName = user.post(400, "dashboard/save/collection/" + target, transientDashboard(null)).json();
        assertTrue(noName.get("errors").has("name"), noName.toString());
        Map<String, Object> badCard = newCard("No display");
        badCard.remove("display");
        ContentSql.grant(server, target, "write");
        JsonNode bad = user.post(400, "dashboard/save/collection/" + target,
                transientDashboard("Half", transientDashcard(1, newCard("Made first")), transientDashcard(2, badCard))).json();
        assertTrue(bad.get("errors").has("display"), bad.toString());
        user.post(404, "dashboard/save/collection/" + target, transientDashboard("Unknown", transientDashcard(1, Map.of("id", 999999))));
        long secret = DashboardIT.card(admin, dbId, "Secret for save", ContentSql.collection(server, "Save secrets"));
        user.post(403, "dashboard/save/collection/" + target, transientDashboard("Secret", transientDashcard(1, Map.of("id", secret))));
        assertEquals(400, user.call("POST", "dashboard/save/collection/" + target, null).status());
        assertEquals(dashboards, AppDbSql.count(server, "SELECT COUNT(*) FROM report_dashboard"), "nothing stored");
        assertEquals(cards + 1, AppDbSql.count(server, "SELECT COUNT(*) FROM report_card"), "only the secret card was added");

        JsonNode saved = user.post(200, "dashboard/save/collection/" + target, body).json();
        assertEquals("Saved x-ray", saved.get("name").asText());
        assertEquals(target, saved.get("collection_id").asLong());
        assertTrue(!saved.has("dashcards") && !saved.has("rule") && !saved.has("transient_name"), "the stored row: " + saved);
        JsonNode full = admin.get(200, "dashboard/" + saved.get("id").asLong()).json();
        assertEquals(List.of("Overview"), names(full.get("tabs")));
        JsonNode dashcards = full.get("dashcards");
        assertEquals(3, dashcards.size());
        assertEquals(existing, dashcards.get(0).get("card_id").asLong());
        assertEquals("Orders counted", dashcards.get(1).get("card").get("name").asText());
        assertEquals(target, dashcards.get(1).get("card").get("collection_id").asLong(), "a new card lands in the target collection");
        assertTrue(dashcards.get(2).get("card_id").isNull());
        assertEquals("Hello", dashcards.get(2).get("visualization_settings").get("text").asText());
        long tab = full.get("tabs").get(0).get("id").asLong();
        dashcards.forEach(dc -> assertEquals(tab, dc.get("dashboard_tab_id").asLong()));

        // /save: a generated-dashboards collection under Root for superusers, made once
        JsonNode first = admin.post(200, "dashboard/save", transientDashboard("Generated one", transientDashcard(1, newCard("Generated card")))).json();
        JsonNode second = admin.post(200, "dashboard/save", transientDashboard("Generated two")).json();
        long generated = first.get("collection_id").asLong();
        assertEquals(generated, second.get("collection_id").asLong());
        JsonNode collection = admin.get(200, "collection/" + generated).json();
        assertEquals("Automatically Generated Dashboards", collection.get("name").asText());
        assertEquals("/", collection.get("location").asText());
        anonymous.post(401, "dashboard/save", body);
    }

    private static List<String> names(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get("name").asText()));
        return out;
    }

    private static List<Long> ids(JsonNode array) {
        List<Long> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get("id").asLong()));
        return out;
    }
}
