package io.quarry.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.dashboard.ContentSql;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TargetDatabases;
import io.quarry.testing.TestServer;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Timelines and their events: CRUD, archiving, listing by collection and card with date windows, and rights. */
class TimelineIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";
    private static final String CURATE = "You do not have curate permissions for this Collection.";
    private static final String ICONS = "nullable enum of star, cake, mail, warning, bell, cloud";
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

    private static long timeline(Api api, String name, Long collectionId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("collection_id", collectionId);
        return api.post(200, "timeline", body).json().get("id").asLong();
    }

    private static JsonNode event(Api api, long timelineId, String name, String timestamp, boolean timeMatters) {
        return api.post(200, "timeline-event", Map.of("timeline_id", timelineId, "name", name, "timestamp", timestamp,
                "time_matters", timeMatters, "timezone", "UTC")).json();
    }

    private static List<String> names(JsonNode list) {
        List<String> names = new ArrayList<>();
        list.forEach(n -> names.add(n.get("name").asText()));
        return names;
    }

    @Test
    void timelinesAreCreatedValidatedUpdatedAndDeleted() {
        anonymous.post(401, "timeline", Map.of("name", "Anon"));
        long before = AppDbSql.count(server, "SELECT COUNT(*) FROM timeline");
        JsonNode bad = admin.post(400, "timeline", Map.of("name", " ", "icon", "balloons", "collection_id", 0, "default", "x",
                "description", 5)).json().get("errors");
        assertEquals("value must be a non-blank string.", bad.get("name").asText());
        assertEquals(ICONS, bad.get("icon").asText());
        assertEquals("nullable value must be an integer greater than zero.", bad.get("collection_id").asText());
        assertEquals("nullable boolean", bad.get("default").asText());
        assertEquals("nullable string", bad.get("description").asText());
        admin.post(404, "timeline", Map.of("name", "Nowhere", "collection_id", 424242));
        assertEquals(before, AppDbSql.count(server, "SELECT COUNT(*) FROM timeline"));

        JsonNode created = admin.post(200, "timeline", Map.of("name", "Releases", "description", "Ship dates")).json();
        long id = created.get("id").asLong();
        assertEquals("star", created.get("icon").asText(), "Metabase's default icon");
        assertFalse(created.get("default").asBoolean());
        assertFalse(created.get("archived").asBoolean());
        assertTrue(created.get("collection_id").isNull());
        JsonNode fetched = admin.get(200, "timeline/" + id).json();
        assertEquals("root", fetched.get("collection").get("id").asText());
        assertEquals(Fixtures.ADMIN_EMAIL, fetched.get("creator").get("email").asText());
        assertFalse(fetched.has("events"), "events only when asked");
        admin.get(404, "timeline/" + (id + 1000));
        assertEquals("nullable enum of events", admin.get(400, "timeline/" + id, "include", "cards").json().get("errors").get("include").asText());

        JsonNode updated = admin.put(200, "timeline/" + id, Map.of("name", "Launches", "icon", "cake", "default", true)).json();
        assertEquals("Launches", updated.get("name").asText());
        assertEquals("cake", updated.get("icon").asText());
        assertTrue(updated.get("default").asBoolean());
        assertEquals("Ship dates", updated.get("description").asText());
        assertEquals(ICONS, admin.put(400, "timeline/" + id, Map.of("icon", "rocket", "name", "Nope")).json().get("errors").get("icon").asText());
        assertEquals("Launches", admin.get(200, "timeline/" + id).json().get("name").asText());
        assertTrue(names(admin.get(200, "timeline").json()).contains("Launches"));

        event(admin, id, "Doomed", "2024-01-01", false);
        anonymous.delete(401, "timeline/" + id);
        admin.delete(204, "timeline/" + id);
        admin.get(404, "timeline/" + id);
        assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM timeline_event WHERE timeline_id = ?", id), "events go with it");
    }

    @Test
    void eventsCarryTimestampTimeMattersAndIcon() {
        long id = admin.post(200, "timeline", Map.of("name", "Weather", "icon", "cloud")).json().get("id").asLong();
        long before = AppDbSql.count(server, "SELECT COUNT(*) FROM timeline_event");
        JsonNode bad = admin.post(400, "timeline-event", Map.of("name", "", "timestamp", "yesterday", "icon", "sun",
                "time_matters", "no")).json().get("errors");
        assertEquals("value must be a non-blank string.", bad.get("name").asText());
        assertEquals("value must be a valid date string", bad.get("timestamp").asText());
        assertEquals(ICONS, bad.get("icon").asText());
        assertEquals("nullable boolean", bad.get("time_matters").asText());
        assertEquals("string", bad.get("timezone").asText());
        assertEquals("value must be an integer greater than zero.", bad.get("timeline_id").asText());
        assertEquals("Timeline with id 987654 not found", admin.post(404, "timeline-event", Map.of("timeline_id", 987654, "name", "X",
                "timestamp", "2024-01-01", "timezone", "UTC")).body());
        anonymous.post(401, "timeline-event", Map.of());
        assertEquals(before, AppDbSql.count(server, "SELECT COUNT(*) FROM timeline_event"));

        JsonNode storm = admin.post(200, "timeline-event", Map.of("timeline_id", id, "name", "Storm", "description", "Big one",
                "timestamp", "2024-03-05T14:30:00+02:00", "time_matters", true, "timezone", "Europe/Berlin")).json();
        long eventId = storm.get("id").asLong();
        assertEquals("cloud", storm.get("icon").asText(), "an event takes its timeline's icon by default");
        assertTrue(storm.get("time_matters").asBoolean());
        assertEquals("Europe/Berlin", storm.get("timezone").asText());
        assertEquals(OffsetDateTime.parse("2024-03-05T12:30:00Z").toInstant(),
                OffsetDateTime.parse(storm.get("timestamp").asText()).toInstant());
        assertEquals("Storm", admin.get(200, "timeline-event/" + eventId).json().get("name").asText());
        admin.get(404, "timeline-event/" + (eventId + 1000));

        JsonNode moved = admin.put(200, "timeline-event/" + eventId, Map.of("name", "Storm II", "timestamp", "2024-03-06",
                "icon", "warning", "time_matters", false)).json();
        assertEquals("Storm II", moved.get("name").asText());
        assertEquals("warning", moved.get("icon").asText());
        assertFalse(moved.get("time_matters").asBoolean());
        assertTrue(moved.get("timestamp").asText().startsWith("2024-03-06T00:00"), moved.toString());
        assertEquals("nullable value must be a valid date string",
                admin.put(400, "timeline-event/" + eventId, Map.of("timestamp", "soon", "name", "Nope")).json().get("errors").get("timestamp").asText());
        assertEquals("Storm II", admin.get(200, "timeline-event/" + eventId).json().get("name").asText());
        assertEquals(1, admin.get(200, "timeline-event", "timeline_id", id).json().size());
        admin.delete(204, "timeline-event/" + eventId);
        admin.get(404, "timeline-event/" + eventId);
    }

    @Test
    void includeEventsHonoursArchiveAndDateWindows() {
        long id = timeline(admin, "Windows", null);
        event(admin, id, "January", "2024-01-15T10:00:00Z", true);
        event(admin, id, "February", "2024-02-10", false);
        event(admin, id, "March", "2024-03-31T23:00:00Z", true);
        long archived = event(admin, id, "Old", "2023-06-01", false).get("id").asLong();
        admin.put(200, "timeline-event/" + archived, Map.of("archived", true));

        assertEquals(List.of("January", "February", "March"), names(admin.get(200, "timeline/" + id, "include", "events").json().get("events")));
        assertEquals(List.of("Old", "January", "February", "March"),
                names(admin.get(200, "timeline/" + id, "include", "events", "archived", "true").json().get("events")));
        assertEquals(List.of("February"), names(admin.get(200, "timeline/" + id, "include", "events",
                "start", "2024-02-01", "end", "2024-02-10T00:00:00Z").json().get("events")), "all-day events compare by date");
        assertEquals(List.of("January", "February"), names(admin.get(200, "timeline/" + id, "include", "events",
                "end", "2024-03-31T22:59:59Z").json().get("events")));
        assertEquals("nullable value must be a valid date string",
                admin.get(400, "timeline/" + id, "include", "events", "start", "someday").json().get("errors").get("start").asText());

        // archiving a timeline archives its events; unarchiving brings them back
        assertTrue(admin.put(200, "timeline/" + id, Map.of("archived", true)).json().get("archived").asBoolean());
        assertEquals(4, AppDbSql.count(server, "SELECT COUNT(*) FROM timeline_event WHERE timeline_id = ? AND archived = TRUE", id));
        assertFalse(names(admin.get(200, "timeline").json()).contains("Windows"));
        JsonNode archivedList = admin.get(200, "timeline", "archived", "true", "include", "events").json();
        assertTrue(names(archivedList).contains("Windows"));
        admin.put(200, "timeline/" + id, Map.of("archived", false));
        assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM timeline_event WHERE timeline_id = ? AND archived = TRUE", id));
    }

    @Test
    void listedByCollectionAndByCard() {
        long collection = ContentSql.collection(server, "Marketing");
        long inCollection = timeline(admin, "Campaigns", collection);
        event(admin, inCollection, "Spring sale", "2024-04-01", false);
        event(admin, inCollection, "Summer sale", "2024-07-01", false);
        long rootTimeline = timeline(admin, "Company", null);
        event(admin, rootTimeline, "Founded", "2020-01-01", false);

        JsonNode ofCollection = admin.get(200, "collection/" + collection + "/timelines", "include", "events").json();
        assertEquals(List.of("Campaigns"), names(ofCollection));
        assertEquals(List.of("Spring sale", "Summer sale"), names(ofCollection.get(0).get("events")));
        assertEquals(collection, ofCollection.get(0).get("collection").get("id").asLong());
        assertFalse(admin.get(200, "collection/" + collection + "/timelines").json().get(0).has("events"));
        assertTrue(names(admin.get(200, "collection/root/timelines").json()).contains("Company"));
        assertFalse(names(admin.get(200, "collection/root/timelines").json()).contains("Campaigns"));
        for (JsonNode listed : admin.get(200, "timeline").json()) {
            String expected = listed.get("collection_id").isNull() ? "root" : String.valueOf(listed.get("collection_id").asLong());
            assertEquals(expected, listed.get("collection").get("id").asText(), "each listed timeline shows its own collection");
            if (listed.get("id").asLong() == inCollection) {
                assertEquals("Marketing", listed.get("collection").get("name").asText());
            }
        }
        admin.get(404, "collection/424242/timelines");
        assertEquals("nullable enum of events",
                admin.get(400, "collection/root/timelines", "include", "all").json().get("errors").get("include").asText());

        Map<String, Object> card = new LinkedHashMap<>();
        card.put("name", "Sales");
        card.put("display", "line");
        card.put("visualization_settings", Map.of());
        card.put("collection_id", collection);
        card.put("dataset_query", Map.of("database", dbId, "type", "native", "native", Map.of("query", "SELECT 1")));
        long cardId = admin.post(200, "card", card).json().get("id").asLong();
        JsonNode forCard = admin.get(200, "card/" + cardId + "/timelines", "include", "events", "start", "2024-06-01", "end", "2024-12-31").json();
        assertEquals(List.of("Campaigns"), names(forCard));
        assertEquals(List.of("Summer sale"), names(forCard.get(0).get("events")));
        admin.get(404, "card/424242/timelines");

        // rights come from the collection
        assertEquals(FORBIDDEN, user.get(403, "collection/" + collection + "/timelines").body());
        assertEquals(FORBIDDEN, user.get(403, "card/" + cardId + "/timelines").body());
        assertTrue(names(user.get(200, "collection/root/timelines").json()).contains("Company"));
        anonymous.get(401, "collection/root/timelines");
        ContentSql.grant(server, collection, "read");
        assertEquals(List.of("Campaigns"), names(user.get(200, "card/" + cardId + "/timelines").json()));
        ContentSql.revoke(server, collection);
    }

    @Test
    void rightsComeFromTheTimelinesCollection() {
        long locked = ContentSql.collection(server, "Board");
        long secret = timeline(admin, "Board meetings", locked);
        long eventId = event(admin, secret, "Q1 review", "2024-04-02", false).get("id").asLong();
        long timelines = AppDbSql.count(server, "SELECT COUNT(*) FROM timeline");
        long events = AppDbSql.count(server, "SELECT COUNT(*) FROM timeline_event");

        assertEquals(CURATE, user.post(403, "timeline", Map.of("name", "Sneaky", "collection_id", locked)).json().get("message").asText());
        assertEquals(CURATE, user.post(403, "timeline-event", Map.of("timeline_id", secret, "name", "Sneaky",
                "timestamp", "2024-01-01", "timezone", "UTC")).json().get("message").asText());
        assertEquals(FORBIDDEN, user.get(403, "timeline/" + secret).body());
        assertEquals(FORBIDDEN, user.put(403, "timeline/" + secret, Map.of("name", "Mine")).body());
        assertEquals(FORBIDDEN, user.delete(403, "timeline/" + secret).body());
        assertEquals(FORBIDDEN, user.get(403, "timeline-event/" + eventId).body());
        assertEquals(FORBIDDEN, user.put(403, "timeline-event/" + eventId, Map.of("name", "Mine")).body());
        assertEquals(FORBIDDEN, user.delete(403, "timeline-event/" + eventId).body());
        assertFalse(names(user.get(200, "timeline").json()).contains("Board meetings"));
        user.get(403, "timeline-event", "timeline_id", secret);

        // an ordinary user's own Root timeline cannot be moved into the locked collection, nor its events onto the locked timeline
        long own = timeline(user, "Mine", null);
        long ownEvent = event(user, own, "Mine too", "2024-05-05", false).get("id").asLong();
        assertEquals(CURATE, user.put(403, "timeline/" + own, Map.of("collection_id", locked)).json().get("message").asText());
        assertEquals(CURATE, user.put(403, "timeline-event/" + ownEvent, Map.of("timeline_id", secret)).json().get("message").asText());
        assertEquals(own, user.get(200, "timeline-event/" + ownEvent).json().get("timeline_id").asLong());
        assertTrue(user.get(200, "timeline/" + own).json().get("collection_id").isNull());
        assertEquals(timelines + 1, AppDbSql.count(server, "SELECT COUNT(*) FROM timeline"));
        assertEquals(events + 1, AppDbSql.count(server, "SELECT COUNT(*) FROM timeline_event"));
        assertEquals("Board meetings", admin.get(200, "timeline/" + secret).json().get("name").asText());

        ContentSql.grant(server, locked, "read");
        assertEquals("Q1 review", user.get(200, "timeline-event/" + eventId).json().get("name").asText());
        assertFalse(user.get(200, "timeline/" + secret).json().get("collection").get("can_write").asBoolean());
        user.put(403, "timeline/" + secret, Map.of("name", "Still not"));
        ContentSql.grant(server, locked, "write");
        assertEquals("Renamed", user.put(200, "timeline/" + secret, Map.of("name", "Renamed")).json().get("name").asText());
        ContentSql.revoke(server, locked);
    }
}
