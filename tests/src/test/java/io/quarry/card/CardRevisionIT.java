package io.quarry.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Card history over {@code /api/revision}: descriptions of each change, reverting, and rights. */
class CardRevisionIT {
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

    @Test
    void historyDescribesEachChangeAndRevertRestores() {
        long id = t.create(user, t.nativeCard("First", "SELECT 1"));
        JsonNode created = user.get(200, "revision", "entity", "card", "id", id).json();
        assertEquals(1, created.size());
        assertEquals("created this.", created.get(0).get("description").asText());
        assertTrue(created.get(0).get("is_creation").asBoolean());
        assertTrue(created.get(0).get("user").has("common_name"));

        user.put(200, "card/" + id, Map.of("name", "Second"));
        user.put(200, "card/" + id, Map.of("name", "Second"));
        user.put(200, "card/" + id, Map.of("name", "Third", "description", "now described"));
        user.put(200, "card/" + id, Map.of("display", "bar", "visualization_settings", Map.of("x", 1), "archived", true));
        JsonNode history = user.get(200, "revision", "entity", "card", "id", id).json();
        assertEquals(4, history.size(), "a save that changed nothing records no revision");
        assertEquals("changed the display from table to bar, changed the visualization settings and trashed it.",
                history.get(0).get("description").asText());
        assertTrue(history.get(0).get("has_multiple_changes").asBoolean());
        assertEquals("renamed this Card from \"Second\" to \"Third\" and added a description.", history.get(1).get("description").asText());
        assertEquals("renamed this Card from \"First\" to \"Second\".", history.get(2).get("description").asText());
        assertFalse(history.get(2).get("has_multiple_changes").asBoolean());
        assertEquals("First", history.get(2).get("diff").get("before").get("name").asText());
        assertEquals("Second", history.get(2).get("diff").get("after").get("name").asText());
        assertEquals(history.toString(), user.get(200, "revision/card/" + id).json().toString());

        long creation = history.get(3).get("id").asLong();
        JsonNode reverted = user.post(200, "revision/revert", Map.of("entity", "card", "id", id, "revision_id", creation)).json();
        assertTrue(reverted.get("is_reversion").asBoolean());
        assertEquals("reverted to an earlier version.", reverted.get("description").asText());
        JsonNode card = admin.get(200, "card/" + id).json();
        assertEquals("First", card.get("name").asText());
        assertEquals("table", card.get("display").asText());
        assertTrue(card.get("description").isNull());
        assertFalse(card.get("archived").asBoolean());
        assertEquals(5, user.get(200, "revision", "entity", "card", "id", id).json().size());
    }

    @Test
    void rightsAndBadInput() {
        long secret = t.collection("Revisions secret");
        long id = t.create(admin, t.with(t.nativeCard("Guarded", "SELECT 1"), "collection_id", secret));
        admin.put(200, "card/" + id, Map.of("name", "Guarded 2"));
        long first = admin.get(200, "revision", "entity", "card", "id", id).json().get(1).get("id").asLong();
        user.get(403, "revision", "entity", "card", "id", id);
        user.post(403, "revision/revert", Map.of("entity", "card", "id", id, "revision_id", first));
        t.grant(secret, "read");
        assertEquals(2, user.get(200, "revision", "entity", "card", "id", id).json().size());
        user.post(403, "revision/revert", Map.of("entity", "card", "id", id, "revision_id", first));
        assertEquals("Guarded 2", admin.get(200, "card/" + id).json().get("name").asText(), "a refused revert changed nothing");
        assertEquals(2, admin.get(200, "revision", "entity", "card", "id", id).json().size());
        t.anonymous.get(401, "revision", "entity", "card", "id", id);
        t.anonymous.post(401, "revision/revert", Map.of("entity", "card", "id", id, "revision_id", first));

        assertEquals("enum of card, dashboard", admin.get(400, "revision", "entity", "thing", "id", id).json()
                .get("errors").get("entity").asText());
        assertEquals("value must be an integer greater than zero.", admin.get(400, "revision", "entity", "card")
                .json().get("errors").get("id").asText());
        JsonNode errors = admin.post(400, "revision/revert", Map.of("entity", "x", "id", 0)).json().get("errors");
        assertEquals("value must be an integer greater than zero.", errors.get("id").asText());
        assertEquals("enum of card, dashboard", errors.get("entity").asText());
        assertEquals("value must be an integer greater than zero.", errors.get("revision_id").asText());
        admin.get(404, "revision", "entity", "card", "id", 999_999);
        long other = t.create(admin, t.nativeCard("Other", "SELECT 1"));
        admin.post(404, "revision/revert", Map.of("entity", "card", "id", other, "revision_id", first));
        admin.post(404, "revision/revert", Map.of("entity", "card", "id", id, "revision_id", 999_999));
        assertEquals("Guarded 2", admin.get(200, "card/" + id).json().get("name").asText());
        admin.post(200, "revision/revert", Map.of("entity", "card", "id", id, "revision_id", first));
        assertEquals("Guarded", admin.get(200, "card/" + id).json().get("name").asText());
    }
}
