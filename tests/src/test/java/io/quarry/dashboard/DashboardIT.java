package io.quarry.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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

/** Dashboards over HTTP: create/fetch/update, dashcards and tabs replaced in one PUT, copies, archive, delete, links. */
class DashboardIT {
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static long dbId;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        user = Fixtures.ordinaryCaller(anonymous, admin);
        dbId = admin.post(200, "database", Map.of("engine", "h2", "name", "Shop",
                "details", Map.of("db", "file:" + TargetDatabases.h2Shop(), "user", TargetDatabases.H2_USER, "password", TargetDatabases.H2_PASSWORD))).json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static long card(Api api, long dbId, String name, Long collectionId) {
        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", name);
        card.put("display", "table");
        card.put("visualization_settings", Map.of());
        card.put("dataset_query", Map.of("database", dbId, "type", "native", "native", Map.of("query", "SELECT COUNT(*) FROM ORDERS")));
        if (collectionId != null) {
            card.put("collection_id", collectionId);
        }
        return api.post(200, "card", card).json().get("id").asLong();
    }

    private static long dashboard(String name) {
        return admin.post(200, "dashboard", Map.of("name", name)).json().get("id").asLong();
    }

    private static Map<String, Object> dashcard(long id, Long cardId, int row, int col) {
        Map<String, Object> dc = new LinkedHashMap<>();
        dc.put("id", id);
        dc.put("card_id", cardId);
        dc.put("row", row);
        dc.put("col", col);
        dc.put("size_x", 4);
        dc.put("size_y", 3);
        return dc;
    }

    private static long count(String table) {
        return AppDbSql.count(server, "SELECT COUNT(*) FROM " + table);
    }

    @Test
    void createValidatesEveryFieldAndWritesNothingOnError() {
        anonymous.post(401, "dashboard", Map.of("name", "Anon"));
        assertEquals("Unauthenticated", anonymous.get(401, "dashboard/1").body());
        long before = count("report_dashboard");
        Map<String, Object> bad = new LinkedHashMap<>();
        bad.put("name", " ");
        bad.put("description", 7);
        bad.put("parameters", List.of(Map.of("id", "a")));
        bad.put("cache_ttl", 0);
        bad.put("collection_id", "x");
        bad.put("collection_position", -1);
        JsonNode errors = admin.post(400, "dashboard", bad).json().get("errors");
        assertEquals("value must be a non-blank string.", errors.get("name").asText());
        assertEquals("nullable string", errors.get("description").asText());
        assertEquals("nullable sequence of parameter must be a map with :id and :type keys", errors.get("parameters").asText());
        assertEquals("nullable value must be an integer greater than zero.", errors.get("cache_ttl").asText());
        assertEquals("nullable value must be an integer greater than zero.", errors.get("collection_id").asText());
        assertEquals("nullable value must be an integer greater than zero.", errors.get("collection_position").asText());
        assertEquals("value must be a non-blank string.", admin.post(400, "dashboard", Map.of()).json().get("errors").get("name").asText());
        admin.post(404, "dashboard", Map.of("name", "Nowhere", "collection_id", 987654));
        assertEquals(before, count("report_dashboard"), "failed creates wrote nothing");

        JsonNode created = admin.post(200, "dashboard", Map.of("name", "Sales", "description", "Weekly",
                "parameters", List.of(Map.of("id", "p1", "type", "category", "name", "Category", "slug", "category")),
                "cache_ttl", 2)).json();
        long id = created.get("id").asLong();
        assertEquals("Sales", created.get("name").asText());
        assertEquals("Weekly", created.get("description").asText());
        assertEquals("p1", created.get("parameters").get(0).get("id").asText());
        assertEquals(2, created.get("cache_ttl").asInt());
        assertEquals(0, created.get("dashcards").size());
        assertEquals(0, created.get("tabs").size());
        assertTrue(created.get("can_write").asBoolean());
        assertEquals("root", created.get("collection").get("id").asText());
        assertTrue(created.get("collection_id").isNull());
        assertEquals("fixed", created.get("width").asText());
        assertEquals(21, created.get("entity_id").asText().length());
        assertEquals(Fixtures.ADMIN_EMAIL, created.get("last-edit-info").get("email").asText());
        assertEquals(1, AppDbSql.count(server, "SELECT COUNT(*) FROM revision WHERE model = 'Dashboard' AND model_id = ? AND is_creation = TRUE", id));

        JsonNode fetched = admin.get(200, "dashboard/" + id).json();
        assertEquals("Sales", fetched.get("name").asText());
        admin.get(404, "dashboard/" + (id + 1000));
        admin.get(400, "dashboard/abc");
        assertTrue(admin.get(200, "dashboard/").json().toString().contains("\"Sales\""));
        JsonNode listed = null;
        for (JsonNode each : admin.get(200, "dashboard/").json()) {
            if (each.get("id").asLong() == id) {
                listed = each;
            }
        }
        assertNotNull(listed, "the list holds the new dashboard");
        assertEquals(Fixtures.ADMIN_EMAIL, listed.get("creator").get("email").asText());
        assertEquals(Fixtures.ADMIN_EMAIL, listed.get("last-edit-info").get("email").asText());
        assertEquals(created.get("last-edit-info").get("id").asLong(), listed.get("last-edit-info").get("id").asLong());
        assertFalse(listed.get("last-edit-info").get("timestamp").isNull());
        assertEquals("nullable enum of all, mine, archived", admin.get(400, "dashboard", "f", "bogus").json().get("errors").get("f").asText());
    }

    @Test
    void updatesFieldsAndIgnoresUnknownKeys() {
        long id = dashboard("Before");
        JsonNode bad = admin.put(400, "dashboard/" + id, Map.of("name", "", "width", "wide", "archived", "yes",
                "embedding_params", Map.of("x", "bogus"))).json().get("errors");
        assertEquals("nullable value must be a non-blank string.", bad.get("name").asText());
        assertEquals("enum of fixed, full", bad.get("width").asText());
        assertEquals("nullable boolean", bad.get("archived").asText());
        assertEquals("nullable value must be a valid embedding params map.", bad.get("embedding_params").asText());
        assertEquals("Before", admin.get(200, "dashboard/" + id).json().get("name").asText());

        JsonNode updated = admin.put(200, "dashboard/" + id, Map.of("name", "After", "description", "Text", "width", "full",
                "auto_apply_filters", false, "unknown_key", 1, "parameters", List.of(Map.of("id", "x", "type", "number/=")))).json();
        assertEquals("After", updated.get("name").asText());
        assertEquals("full", updated.get("width").asText());
        assertFalse(updated.get("auto_apply_filters").asBoolean());
        assertEquals("number/=", updated.get("parameters").get(0).get("type").asText());
        // explicit null clears description; absent keys stay
        Map<String, Object> clear = new LinkedHashMap<>();
        clear.put("description", null);
        JsonNode cleared = admin.put(200, "dashboard/" + id, clear).json();
        assertTrue(cleared.get("description").isNull());
        assertEquals("After", cleared.get("name").asText());
        // embedding needs it enabled (and a superuser)
        assertEquals("Embedding is not enabled.", admin.put(400, "dashboard/" + id, Map.of("enable_embedding", true)).body());
        assertEquals(3, AppDbSql.count(server, "SELECT COUNT(*) FROM revision WHERE model = 'Dashboard' AND model_id = ?", id));
    }

    @Test
    void dashcardsAreAddedUpdatedAndRemovedInOnePut() {
        long a = card(admin, dbId, "Card A", null);
        long b = card(admin, dbId, "Card B", null);
        long c = card(admin, dbId, "Card C", null);
        long id = dashboard("Layout");
        Map<String, Object> first = dashcard(-1, a, 0, 0);
        first.put("parameter_mappings", List.of(Map.of("parameter_id", "p", "card_id", a, "target",
                List.of("variable", List.of("template-tag", "x")))));
        Map<String, Object> second = dashcard(-2, b, 0, 4);
        second.put("series", List.of(Map.of("id", c)));
        Map<String, Object> text = dashcard(-3, null, 3, 0);
        text.put("visualization_settings", Map.of("virtual_card", Map.of("display", "text"), "text", "Hello"));
        JsonNode put = admin.put(200, "dashboard/" + id, Map.of("dashcards", List.of(first, second, text))).json();
        JsonNode dcs = put.get("dashcards");
        assertEquals(3, dcs.size());
        JsonNode dcA = dcs.get(0);
        assertEquals(a, dcA.get("card_id").asLong());
        assertEquals("Card A", dcA.get("card").get("name").asText());
        assertEquals(0, dcA.get("row").asInt());
        assertEquals(4, dcA.get("size_x").asInt());
        assertEquals("p", dcA.get("parameter_mappings").get(0).get("parameter_id").asText());
        JsonNode dcB = dcs.get(1);
        assertEquals(4, dcB.get("col").asInt());
        assertEquals(c, dcB.get("series").get(0).get("id").asLong());
        assertEquals("Card C", dcB.get("series").get(0).get("name").asText());
        JsonNode dcText = dcs.get(2);
        assertTrue(dcText.get("card_id").isNull());
        assertEquals("Hello", dcText.get("visualization_settings").get("text").asText());
        assertEquals(3, AppDbSql.count(server, "SELECT grid_row FROM report_dashboardcard WHERE id = ?", dcText.get("id").asLong()));

        // one PUT: move A, drop B, keep the text card, add C
        long idA = dcA.get("id").asLong();
        long idText = dcText.get("id").asLong();
        Map<String, Object> movedA = dashcard(idA, a, 5, 2);
        Map<String, Object> keptText = dashcard(idText, null, 3, 0);
        keptText.put("visualization_settings", Map.of("virtual_card", Map.of("display", "text"), "text", "Bye"));
        JsonNode again = admin.put(200, "dashboard/" + id, Map.of("dashcards", List.of(movedA, keptText, dashcard(-7, c, 8, 0)))).json()
                .get("dashcards");
        assertEquals(3, again.size());
        assertEquals(idA, again.get(0).get("id").asLong());
        assertEquals(5, again.get(0).get("row").asInt());
        assertEquals(2, again.get(0).get("col").asInt());
        assertEquals("p", again.get(0).get("parameter_mappings").get(0).get("parameter_id").asText(), "mappings kept when not sent");
        assertEquals("Bye", again.get(1).get("visualization_settings").get("text").asText());
        assertEquals(c, again.get(2).get("card_id").asLong());
        assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM report_dashboardcard WHERE id = ?", dcB.get("id").asLong()));
        assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM dashboardcard_series WHERE dashboardcard_id = ?", dcB.get("id").asLong()));

        // bad dashcards: one 400, and neither the layout nor the name changed
        long cards = count("report_dashboardcard");
        Map<String, Object> badSize = dashcard(idA, a, 0, 0);
        badSize.put("size_x", 0);
        Map<String, Object> dupe = dashcard(idA, a, -1, 0);
        JsonNode bad = admin.put(400, "dashboard/" + id, Map.of("name", "Renamed", "dashcards", List.of(badSize, dupe))).json();
        assertEquals("nullable value must be seq of maps in which ids are unique", bad.get("errors").get("dashcards").asText());
        String specific = bad.get("specific-errors").get("dashcards").toString();
        assertTrue(specific.contains("[0].size_x: should be a positive int, received: 0"), specific);
        assertTrue(specific.contains("[1].id: ids must be unique"), specific);
        assertTrue(specific.contains("[1].row: should be an integer greater than or equal to zero"), specific);
        assertEquals("nullable value must be seq of maps in which ids are unique",
                admin.put(400, "dashboard/" + id, Map.of("dashcards", "nope")).json().get("errors").get("dashcards").asText());
        // an unknown card: 404 and the whole request rolled back
        admin.put(404, "dashboard/" + id, Map.of("name", "Renamed", "dashcards", List.of(dashcard(-1, 999999L, 0, 0))));
        assertEquals(cards, count("report_dashboardcard"));
        assertEquals("Layout", admin.get(200, "dashboard/" + id).json().get("name").asText());
        // an empty list removes every dashcard
        assertEquals(0, admin.put(200, "dashboard/" + id, Map.of("dashcards", List.of())).json().get("dashcards").size());
    }

    @Test
    void tabsAreReplacedWithTheirDashcards() {
        long a = card(admin, dbId, "Tabbed", null);
        long id = dashboard("Tabs");
        Map<String, Object> one = dashcard(-1, a, 0, 0);
        one.put("dashboard_tab_id", -10);
        Map<String, Object> two = dashcard(-2, a, 0, 0);
        two.put("dashboard_tab_id", -20);
        JsonNode put = admin.put(200, "dashboard/" + id, Map.of(
                "tabs", List.of(Map.of("id", -10, "name", "One"), Map.of("id", -20, "name", "Two")),
                "dashcards", List.of(one, two))).json();
        JsonNode tabs = put.get("tabs");
        assertEquals(2, tabs.size());
        assertEquals("One", tabs.get(0).get("name").asText());
        assertEquals(0, tabs.get(0).get("position").asInt());
        assertEquals(1, tabs.get(1).get("position").asInt());
        long tabOne = tabs.get(0).get("id").asLong();
        long tabTwo = tabs.get(1).get("id").asLong();
        assertEquals(tabOne, put.get("dashcards").get(0).get("dashboard_tab_id").asLong());
        assertEquals(tabTwo, put.get("dashcards").get(1).get("dashboard_tab_id").asLong());
        long dcOne = put.get("dashcards").get(0).get("id").asLong();

        // every card needs a tab once the dashboard has tabs
        assertEquals("This dashboard has tab, makes sure every card has a tab",
                admin.put(400, "dashboard/" + id, Map.of("dashcards", List.of(dashcard(-1, a, 0, 0)))).body());
        JsonNode badTab = admin.put(400, "dashboard/" + id, Map.of("tabs", List.of(Map.of("id", 1, "name", " ")),
                "dashcards", List.of())).json();
        assertEquals("nullable value must be seq of maps in which ids are unique", badTab.get("errors").get("tabs").asText());
        assertEquals(2, AppDbSql.count(server, "SELECT COUNT(*) FROM dashboard_tab WHERE dashboard_id = ?", id));

        // drop tab Two (its dashcard goes with it), rename One
        Map<String, Object> keep = dashcard(dcOne, a, 1, 1);
        keep.put("dashboard_tab_id", tabOne);
        JsonNode after = admin.put(200, "dashboard/" + id, Map.of("tabs", List.of(Map.of("id", tabOne, "name", "Only")),
                "dashcards", List.of(keep))).json();
        assertEquals(1, after.get("tabs").size());
        assertEquals("Only", after.get("tabs").get(0).get("name").asText());
        assertEquals(1, after.get("dashcards").size());
        assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM dashboard_tab WHERE id = ?", tabTwo));
    }

    @Test
    void copiesShallowAndDeep() {
        long a = card(admin, dbId, "Copied card", null);
        long id = dashboard("Original");
        Map<String, Object> dc = dashcard(-1, a, 0, 0);
        dc.put("dashboard_tab_id", -1);
        Map<String, Object> mapped = new LinkedHashMap<>(dc);
        mapped.put("parameter_mappings", List.of(Map.of("parameter_id", "p", "card_id", a, "target", List.of("variable", List.of("template-tag", "x")))));
        admin.put(200, "dashboard/" + id, Map.of("tabs", List.of(Map.of("id", -1, "name", "Tab")), "dashcards", List.of(mapped),
                "parameters", List.of(Map.of("id", "p", "type", "category"))));

        JsonNode shallow = admin.post(200, "dashboard/" + id + "/copy", Map.of()).json();
        assertNotEquals(id, shallow.get("id").asLong());
        assertEquals("Original", shallow.get("name").asText());
        assertEquals(a, shallow.get("dashcards").get(0).get("card_id").asLong(), "a shallow copy refers to the same card");
        assertEquals(1, shallow.get("tabs").size());
        assertEquals(shallow.get("tabs").get(0).get("id").asLong(), shallow.get("dashcards").get(0).get("dashboard_tab_id").asLong());
        assertEquals("p", shallow.get("parameters").get(0).get("id").asText());

        long cardsBefore = count("report_card");
        JsonNode deep = admin.post(200, "dashboard/" + id + "/copy", Map.of("name", "Deep", "is_deep_copy", true)).json();
        assertEquals("Deep", deep.get("name").asText());
        long copiedCard = deep.get("dashcards").get(0).get("card_id").asLong();
        assertNotEquals(a, copiedCard);
        assertEquals(cardsBefore + 1, count("report_card"));
        assertEquals("Copied card - Duplicate", deep.get("dashcards").get(0).get("card").get("name").asText());
        assertEquals(copiedCard, deep.get("dashcards").get(0).get("parameter_mappings").get(0).get("card_id").asLong());
        JsonNode metadata = admin.get(200, "dashboard/" + id + "/query_metadata").json();
        assertEquals(1, metadata.get("cards").size());
        assertEquals(a, metadata.get("cards").get(0).get("id").asLong());
        assertEquals(dbId, metadata.get("databases").get(0).get("id").asLong());

        JsonNode bad = admin.post(400, "dashboard/" + id + "/copy", Map.of("name", "", "is_deep_copy", "yes")).json().get("errors");
        assertEquals("nullable value must be a non-blank string.", bad.get("name").asText());
        assertEquals("nullable boolean", bad.get("is_deep_copy").asText());
        admin.post(404, "dashboard/" + (id + 9999) + "/copy", Map.of());
        anonymous.post(401, "dashboard/" + id + "/copy", Map.of());
        long dashboards = count("report_dashboard");
        long locked = ContentSql.collection(server, "Copy target");
        JsonNode curate = user.post(403, "dashboard/" + id + "/copy", Map.of("collection_id", locked)).json();
        assertEquals("You do not have curate permissions for this Collection.", curate.get("message").asText());
        assertEquals(dashboards, count("report_dashboard"));
    }

    @Test
    void archivingKeepsItInPlaceAndDeleteRemovesIt() {
        long id = dashboard("To archive");
        JsonNode archived = admin.put(200, "dashboard/" + id, Map.of("archived", true)).json();
        assertTrue(archived.get("archived").asBoolean());
        assertTrue(archived.get("archived_directly").asBoolean());
        assertTrue(admin.get(200, "dashboard", "f", "archived").json().toString().contains("\"To archive\""));
        assertFalse(admin.get(200, "dashboard", "f", "all").json().toString().contains("\"To archive\""));
        JsonNode layout = admin.put(404, "dashboard/" + id, Map.of("dashcards", List.of())).json();
        assertEquals("archived", layout.get("error_code").asText());
        assertFalse(admin.put(200, "dashboard/" + id, Map.of("archived", false)).json().get("archived").asBoolean());

        anonymous.delete(401, "dashboard/" + id);
        admin.delete(204, "dashboard/" + id);
        admin.get(404, "dashboard/" + id);
        admin.delete(404, "dashboard/" + id);
    }

    @Test
    void revertThroughTheRevisionApiRestoresAnEarlierRevision() {
        long a = card(admin, dbId, "Reverted card", null);
        long b = card(admin, dbId, "Second reverted card", null);
        long id = dashboard("First name");
        admin.put(200, "dashboard/" + id, Map.of("dashcards", List.of(dashcard(-1, a, 0, 0), dashcard(-2, b, 0, 4))));
        long withCards = admin.get(200, "revision", "entity", "dashboard", "id", id).json().get(0).get("id").asLong();
        JsonNode before = admin.get(200, "dashboard/" + id).json().get("dashcards");
        long dcA = before.get(0).get("id").asLong();
        admin.put(200, "dashboard/" + id, Map.of("dashcards", List.of(dashcard(dcA, a, 0, 0))));
        admin.put(200, "dashboard/" + id, Map.of("name", "Second name", "dashcards", List.of()));

        JsonNode history = user.get(200, "revision", "entity", "dashboard", "id", id).json();
        assertEquals(4, history.size());
        assertEquals("renamed this Dashboard from \"First name\" to \"Second name\" and removed a card.",
                history.get(0).get("description").asText());
        assertTrue(history.get(0).get("has_multiple_changes").asBoolean());
        assertEquals("removed a card.", history.get(1).get("description").asText());
        assertEquals("added 2 cards.", history.get(2).get("description").asText());
        assertEquals("created this.", history.get(3).get("description").asText());
        assertEquals(history.toString(), user.get(200, "revision/dashboard/" + id).json().toString());

        long otherDashboard = dashboard("Other");
        long otherRevision = admin.get(200, "revision", "entity", "dashboard", "id", otherDashboard).json().get(0).get("id").asLong();
        admin.post(404, "revision/revert", Map.of("entity", "dashboard", "id", id, "revision_id", otherRevision));
        admin.post(404, "revision/revert", Map.of("entity", "dashboard", "id", 999_999, "revision_id", withCards));
        anonymous.post(401, "revision/revert", Map.of("entity", "dashboard", "id", id, "revision_id", withCards));
        assertEquals("Second name", admin.get(200, "dashboard/" + id).json().get("name").asText());

        JsonNode reverted = admin.post(200, "revision/revert", Map.of("entity", "dashboard", "id", id, "revision_id", withCards)).json();
        assertTrue(reverted.get("is_reversion").asBoolean());
        assertEquals("reverted to an earlier version.", reverted.get("description").asText());
        JsonNode fetched = admin.get(200, "dashboard/" + id).json();
        assertEquals("First name", fetched.get("name").asText());
        assertEquals(2, fetched.get("dashcards").size());
        assertEquals(List.of(a, b), List.of(fetched.get("dashcards").get(0).get("card_id").asLong(),
                fetched.get("dashcards").get(1).get("card_id").asLong()));
        assertEquals(4, fetched.get("dashcards").get(1).get("col").asInt());
        assertEquals(1, AppDbSql.count(server, "SELECT COUNT(*) FROM revision WHERE model = 'Dashboard' AND model_id = ? AND is_reversion = TRUE", id));
        JsonNode after = admin.get(200, "revision", "entity", "dashboard", "id", id).json();
        assertEquals(5, after.size(), "the reversion is listed, recorded once");
        assertEquals(reverted.get("id").asLong(), after.get(0).get("id").asLong());
        assertTrue(after.get(0).get("is_reversion").asBoolean());

        // a user who may read but not write the dashboard's collection: 403, nothing changed
        long readOnly = ContentSql.collection(server, "Revert read only");
        ContentSql.grant(server, readOnly, "read");
        admin.put(200, "dashboard/" + id, Map.of("collection_id", readOnly, "name", "Guarded"));
        user.get(200, "revision", "entity", "dashboard", "id", id);
        assertEquals("You don't have permissions to do that.",
                user.post(403, "revision/revert", Map.of("entity", "dashboard", "id", id, "revision_id", withCards)).body());
        assertEquals("Guarded", admin.get(200, "dashboard/" + id).json().get("name").asText());
        ContentSql.revoke(server, readOnly);
        user.get(403, "revision", "entity", "dashboard", "id", id);
        user.post(403, "revision/revert", Map.of("entity", "dashboard", "id", id, "revision_id", withCards));
        assertEquals(6, admin.get(200, "revision", "entity", "dashboard", "id", id).json().size(), "refused reverts recorded nothing");
    }

    @Test
    void revertRestoresTabsAndRecreatesRemovedOnes() {
        long a = card(admin, dbId, "Tabbed card", null);
        long id = dashboard("Tabbed");
        admin.put(200, "dashboard/" + id, Map.of(
                "tabs", List.of(Map.of("id", -1, "name", "One"), Map.of("id", -2, "name", "Two")),
                "dashcards", List.of(withTab(dashcard(-1, a, 0, 0), -2))));
        long tabbed = admin.get(200, "revision", "entity", "dashboard", "id", id).json().get(0).get("id").asLong();
        admin.put(200, "dashboard/" + id, Map.of("tabs", List.of(), "dashcards", List.of()));
        assertEquals("removed a card and removed 2 tabs.", admin.get(200, "revision", "entity", "dashboard", "id", id).json().get(0).get("description").asText());
        admin.post(200, "revision/revert", Map.of("entity", "dashboard", "id", id, "revision_id", tabbed));
        JsonNode fetched = admin.get(200, "dashboard/" + id).json();
        assertEquals(2, fetched.get("tabs").size());
        assertEquals("Two", fetched.get("tabs").get(1).get("name").asText());
        assertEquals(fetched.get("tabs").get(1).get("id").asLong(), fetched.get("dashcards").get(0).get("dashboard_tab_id").asLong());
    }

    private static Map<String, Object> withTab(Map<String, Object> dashcard, long tabId) {
        dashcard.put("dashboard_tab_id", tabId);
        return dashcard;
    }

    @Test
    void publicLinksNeedPublicSharingAndASuperuser() {
        long id = dashboard("Shared");
        String uuid = admin.post(200, "dashboard/" + id + "/public_link", Map.of()).json().get("uuid").asText();
        assertEquals(36, uuid.length());
        assertEquals(uuid, admin.post(200, "dashboard/" + id + "/public_link", Map.of()).json().get("uuid").asText(), "same uuid when shared");
        user.post(403, "dashboard/" + id + "/public_link", Map.of());
        List<String> listed = new ArrayList<>();
        admin.get(200, "dashboard/public").json().forEach(d -> listed.add(d.get("public_uuid").asText()));
        assertTrue(listed.contains(uuid));
        user.get(403, "dashboard/public");
        admin.put(204, "setting/enable-public-sharing", Map.of("value", false));
        try {
            assertEquals("Public sharing is not enabled.", admin.post(400, "dashboard/" + id + "/public_link", Map.of()).body());
        } finally {
            admin.put(204, "setting/enable-public-sharing", Map.of("value", true));
        }
        admin.delete(204, "dashboard/" + id + "/public_link");
        admin.delete(404, "dashboard/" + id + "/public_link");
        assertTrue(admin.get(200, "dashboard/" + id).json().get("public_uuid").isNull());
        assertEquals("Embedding is not enabled.", admin.get(400, "dashboard/embeddable").body());
    }
}
