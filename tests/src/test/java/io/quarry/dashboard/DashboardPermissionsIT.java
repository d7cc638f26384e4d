package io.quarry.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Dashboards take the rights of their collection: read to see, write to change (both ends when moving). */
class DashboardPermissionsIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";
    private static final String CURATE = "You do not have curate permissions for this Collection.";
    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    private static Api user;
    private static long dbId;

    @BeforeAll
    static void start() {
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

    private static Map<String, Object> dashcard(long id, long cardId) {
        Map<String, Object> dc = new LinkedHashMap<>();
        dc.put("id", id);
        dc.put("card_id", cardId);
        dc.put("row", 0);
        dc.put("col", 0);
        dc.put("size_x", 4);
        dc.put("size_y", 4);
        return dc;
    }

    @Test
    void withoutRightsNothingIsVisibleOrChangeable() {
        long locked = ContentSql.collection(server, "Finance");
        long id = admin.post(200, "dashboard", Map.of("name", "Budget", "collection_id", locked)).json().get("id").asLong();
        assertEquals(locked, admin.get(200, "dashboard/" + id).json().get("collection").get("id").asLong());
        assertEquals(FORBIDDEN, user.get(403, "dashboard/" + id).body());
        assertEquals(FORBIDDEN, user.put(403, "dashboard/" + id, Map.of("name", "Hacked")).body());
        assertEquals(FORBIDDEN, user.delete(403, "dashboard/" + id).body());
        assertEquals(FORBIDDEN, user.post(403, "dashboard/" + id + "/copy", Map.of()).body());
        assertEquals(FORBIDDEN, user.get(403, "dashboard/" + id + "/query_metadata").body());
        assertFalse(user.get(200, "dashboard").json().toString().contains("\"Budget\""), "lists hide what one cannot read");
        long before = AppDbSql.count(server, "SELECT COUNT(*) FROM report_dashboard");
        JsonNode curate = user.post(403, "dashboard", Map.of("name", "Mine", "collection_id", locked)).json();
        assertEquals(CURATE, curate.get("message").asText());
        assertEquals(before, AppDbSql.count(server, "SELECT COUNT(*) FROM report_dashboard"));
        assertEquals("Budget", admin.get(200, "dashboard/" + id).json().get("name").asText());
        anonymous.get(401, "dashboard/" + id);
        anonymous.put(401, "dashboard/" + id, Map.of("name", "x"));
    }

    @Test
    void readRightsShowWriteRightsChange() {
        long shared = ContentSql.collection(server, "Shared");
        long id = admin.post(200, "dashboard", Map.of("name", "Team", "collection_id", shared)).json().get("id").asLong();
        ContentSql.grant(server, shared, "read");
        JsonNode seen = user.get(200, "dashboard/" + id).json();
        assertFalse(seen.get("can_write").asBoolean());
        assertEquals(FORBIDDEN, user.put(403, "dashboard/" + id, Map.of("name", "Renamed")).body());
        assertTrue(user.get(200, "dashboard").json().toString().contains("\"Team\""));
        ContentSql.grant(server, shared, "write");
        assertTrue(user.get(200, "dashboard/" + id).json().get("can_write").asBoolean());
        assertEquals("Renamed", user.put(200, "dashboard/" + id, Map.of("name", "Renamed")).json().get("name").asText());
        ContentSql.revoke(server, shared);
        user.get(403, "dashboard/" + id);
    }

    @Test
    void movingNeedsWriteOnBothCollections() {
        long target = ContentSql.collection(server, "Elsewhere");
        JsonNode mine = user.post(200, "dashboard", Map.of("name", "Movable")).json();
        long id = mine.get("id").asLong();
        assertTrue(mine.get("can_write").asBoolean(), "All Users curate Root");
        assertEquals(CURATE, user.put(403, "dashboard/" + id, Map.of("collection_id", target, "name", "Moved")).json().get("message").asText());
        JsonNode unchanged = user.get(200, "dashboard/" + id).json();
        assertTrue(unchanged.get("collection_id").isNull());
        assertEquals("Movable", unchanged.get("name").asText());
        ContentSql.grant(server, target, "write");
        assertEquals(target, user.put(200, "dashboard/" + id, Map.of("collection_id", target)).json().get("collection_id").asLong());
        ContentSql.grant(server, target, "read");
        // the source is now read-only: it cannot be moved back out
        Map<String, Object> toRoot = new LinkedHashMap<>();
        toRoot.put("collection_id", null);
        assertEquals(FORBIDDEN, user.put(403, "dashboard/" + id, toRoot).body());
        assertEquals(target, user.get(200, "dashboard/" + id).json().get("collection_id").asLong());
        ContentSql.revoke(server, target);
    }

    @Test
    void dashcardsMayOnlyShowCardsTheCallerCanRead() {
        long locked = ContentSql.collection(server, "Secret cards");
        long secret = DashboardIT.card(admin, dbId, "Secret", locked);
        long open = DashboardIT.card(admin, dbId, "Open", null);
        long id = user.post(200, "dashboard", Map.of("name", "Mine")).json().get("id").asLong();
        assertEquals(FORBIDDEN, user.put(403, "dashboard/" + id, Map.of("name", "Changed",
                "dashcards", List.of(dashcard(-1, open), dashcard(-2, secret)))).body());
        assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM report_dashboardcard WHERE dashboard_id = ?", id),
                "the readable dashcard of the same request was not written either");
        assertEquals("Mine", user.get(200, "dashboard/" + id).json().get("name").asText());
        // series count too
        Map<String, Object> withSeries = dashcard(-1, open);
        withSeries.put("series", List.of(Map.of("id", secret)));
        user.put(403, "dashboard/" + id, Map.of("dashcards", List.of(withSeries)));
        assertEquals(1, user.put(200, "dashboard/" + id, Map.of("dashcards", List.of(dashcard(-1, open)))).json().get("dashcards").size());
    }

    @Test
    void publicLinksAndListsAreForSuperusers() {
        long id = user.post(200, "dashboard", Map.of("name", "Public?")).json().get("id").asLong();
        assertEquals(FORBIDDEN, user.post(403, "dashboard/" + id + "/public_link", Map.of()).body());
        assertEquals(FORBIDDEN, user.delete(403, "dashboard/" + id + "/public_link").body());
        user.get(403, "dashboard/public");
        user.get(403, "dashboard/embeddable");
        assertTrue(AppDbSql.value(server, "SELECT public_uuid FROM report_dashboard WHERE id = ?", id) == null);
    }
}
