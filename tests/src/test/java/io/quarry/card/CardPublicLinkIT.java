package io.quarry.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Public links of cards: one UUID per card, superusers only, public sharing enabled; removal. */
class CardPublicLinkIT {
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
    void createReturnsTheSameUuidAndRemovalClearsIt() {
        long id = t.create(admin, t.nativeCard("Shared", "SELECT 1"));
        String uuid = admin.post(200, "card/" + id + "/public_link", Map.of()).json().get("uuid").asText();
        assertTrue(uuid.matches("[0-9a-f-]{36}"), uuid);
        assertEquals(uuid, admin.post(200, "card/" + id + "/public_link", Map.of()).json().get("uuid").asText());
        assertEquals(uuid, admin.get(200, "card/" + id).json().get("public_uuid").asText());
        assertTrue(admin.get(200, "card/" + id).json().get("made_public_by_id").asLong() > 0);
        assertTrue(admin.get(200, "card/public").json().toString().contains(uuid));
        user.post(403, "card/" + id + "/public_link", Map.of());
        user.delete(403, "card/" + id + "/public_link");
        user.get(403, "card/public");
        t.anonymous.post(401, "card/" + id + "/public_link", Map.of());
        admin.post(404, "card/999999/public_link", Map.of());
        admin.post(400, "card/abc/public_link", Map.of());

        admin.delete(204, "card/" + id + "/public_link");
        assertTrue(admin.get(200, "card/" + id).json().get("public_uuid").isNull());
        admin.delete(404, "card/" + id + "/public_link");
        String fresh = admin.post(200, "card/" + id + "/public_link", Map.of()).json().get("uuid").asText();
        assertTrue(!fresh.equals(uuid), "a new link after removal is a new UUID");
    }

    @Test
    void needsPublicSharingAndALiveCard() {
        long id = t.create(admin, t.nativeCard("Private", "SELECT 1"));
        admin.put(204, "setting/enable-public-sharing", Map.of("value", false));
        try {
            assertEquals("Public sharing is not enabled.", admin.post(400, "card/" + id + "/public_link", Map.of()).body());
            assertEquals("Public sharing is not enabled.", admin.get(400, "card/public").body());
            assertTrue(admin.get(200, "card/" + id).json().get("public_uuid").isNull(), "nothing was shared");
        } finally {
            admin.put(204, "setting/enable-public-sharing", Map.of("value", true));
        }
        admin.put(200, "card/" + id, Map.of("archived", true));
        admin.post(404, "card/" + id + "/public_link", Map.of());
        assertTrue(admin.get(200, "card/" + id).json().get("public_uuid").isNull());
    }
}
