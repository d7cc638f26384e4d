package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.AppDbSql;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code /api/api-key} over HTTP, and what a key can do once it exists. */
class ApiKeyIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";
    private static final long ALL_USERS = 1;
    private static final long ADMINISTRATORS = 2;

    private static TestServer server;
    private static Api anonymous;
    private static Api admin;
    /** A caller without admin rights: an API key in All Users. */
    private static Api ordinary;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        anonymous = server.api();
        admin = anonymous.as(Fixtures.setUp(anonymous));
        ordinary = anonymous.withApiKey(create("Ordinary", ALL_USERS).get("unmasked_key").asText());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static JsonNode create(String name, long groupId) {
        return admin.post(200, "api-key", Map.of("name", name, "group_id", groupId)).json();
    }

    private static String unique(String prefix) {
        return prefix + " " + UUID.randomUUID().toString().substring(0, 8);
    }

    private static long keyCount() {
        return admin.get(200, "api-key/count").json().asLong();
    }

    private static long userRows() {
        return AppDbSql.count(server, "SELECT COUNT(*) FROM core_user");
    }

    @Test
    void everyEndpointNeedsASignedInAdministrator() {
        String[][] calls = {{"GET", "api-key"}, {"GET", "api-key/count"}, {"POST", "api-key"}, {"PUT", "api-key/1"},
                {"PUT", "api-key/1/regenerate"}, {"DELETE", "api-key/1"}};
        Map<String, Object> body = Map.of("name", "Nope", "group_id", 1);
        for (String[] call : calls) {
            Object payload = call[0].equals("POST") || call[0].equals("PUT") ? body : null;
            Api.Res anon = anonymous.call(call[0], call[1], payload);
            assertEquals(401, anon.status(), call[0] + " " + call[1]);
            assertEquals("Unauthenticated", anon.body());
            Api.Res denied = ordinary.call(call[0], call[1], payload);
            assertEquals(403, denied.status(), call[0] + " " + call[1]);
            assertEquals(FORBIDDEN, denied.body());
        }
        assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM api_key WHERE name = 'Nope'"), "nothing was created");
    }

    @Test
    void createShowsTheSecretOnceAndListShowsItMasked() {
        long before = keyCount();
        String name = unique("Reporting");
        JsonNode created = create(name, ADMINISTRATORS);
        String key = created.get("unmasked_key").asText();
        assertTrue(key.startsWith("mb_") && key.length() == 47, key);
        assertEquals(key.substring(0, 7) + "*".repeat(40), created.get("masked_key").asText());
        assertEquals(name, created.get("name").asText());
        assertEquals(ADMINISTRATORS, created.get("group").get("id").asLong());
        assertEquals("Administrators", created.get("group").get("name").asText());
        assertEquals(1, created.get("updated_by").get("id").asLong());
        assertEquals("Crowberto Corv", created.get("updated_by").get("common_name").asText());
        assertTrue(created.hasNonNull("created_at") && created.hasNonNull("updated_at"));
        assertFalse(created.has("key_hash") || created.has("user_id"), created.toString());

        assertEquals(before + 1, keyCount());
        Api.Res count = admin.get(200, "api-key/count");
        assertTrue(count.body().trim().matches("\\d+"), "a bare number: " + count.body());

        JsonNode listed = find(admin.get(200, "api-key").json(), created.get("id").asLong());
        assertEquals(created.get("masked_key"), listed.get("masked_key"));
        assertEquals(name, listed.get("name").asText());
        assertEquals("Administrators", listed.get("group").get("name").asText());
        assertFalse(admin.get(200, "api-key").body().contains(key), "the secret is never listed");
        for (JsonNode k : admin.get(200, "api-key").json()) {
            assertFalse(k.has("unmasked_key"), k.toString());
        }
        // only a bcrypt hash is stored
        String stored = (String) AppDbSql.value(server, "SELECT key_hash FROM api_key WHERE id = ?", created.get("id").asLong());
        assertTrue(stored.startsWith("$2a$") && !stored.contains(key));
    }

    private static JsonNode find(JsonNode list, long id) {
        for (JsonNode k : list) {
            if (k.get("id").asLong() == id) {
                return k;
            }
        }
        throw new AssertionError("key " + id + " not listed in " + list);
    }

    @Test
    void aKeyActsAsItsOwnUserWithItsGroupsRights() {
        String adminSecret = create(unique("Admin key"), ADMINISTRATORS).get("unmasked_key").asText();
        Api adminKey = anonymous.withApiKey(adminSecret);
        Api userKey = anonymous.withApiKey(create(unique("User key"), ALL_USERS).get("unmasked_key").asText());
        // superuser-only endpoints: the Administrators key may, the All Users key may not
        adminKey.get(200, "setting");
        adminKey.get(200, "api-key");
        assertEquals(FORBIDDEN, userKey.get(403, "setting").body());
        assertEquals(FORBIDDEN, userKey.get(403, "api-key").body());
        // the header name is case-insensitive
        anonymous.withHeader("x-api-key", adminSecret).get(200, "api-key/count");

        // each key is a user of its own: a user-local setting written through one is not another's
        userKey.put(204, "setting/expand-browse-in-nav", Map.of("value", false));
        assertFalse(userKey.get(200, "setting/expand-browse-in-nav").json().asBoolean());
        assertTrue(adminKey.get(200, "setting/expand-browse-in-nav").json().isNull());
        assertTrue(admin.get(200, "setting/expand-browse-in-nav").json().isNull());
        // a key user has never signed in
        assertEquals(0, userKey.get(200, "login-history/current").json().size());
    }

    @Test
    void badOrUnknownKeysAreAnonymous() {
        assertEquals("Unauthenticated", anonymous.withApiKey("mb_notAKeyAtAllButLongEnough000000000000000000").get(401, "setting/site-name").body());
        assertEquals("Unauthenticated", anonymous.withApiKey("short").get(401, "setting/site-name").body());
        String real = create(unique("Tampered"), ADMINISTRATORS).get("unmasked_key").asText();
        String tampered = real.substring(0, 20) + (real.charAt(20) == 'A' ? 'B' : 'A') + real.substring(21);
        anonymous.withApiKey(tampered).get(401, "api-key/count");
    }

    @Test
    void regeneratingReplacesTheSecret() {
        JsonNode created = create(unique("Rotating"), ADMINISTRATORS);
        long id = created.get("id").asLong();
        String oldKey = created.get("unmasked_key").asText();
        anonymous.withApiKey(oldKey).get(200, "api-key/count");

        JsonNode regenerated = admin.put(200, "api-key/" + id + "/regenerate", null).json();
        String newKey = regenerated.get("unmasked_key").asText();
        assertNotEquals(oldKey, newKey);
        assertEquals(id, regenerated.get("id").asLong());
        assertEquals(created.get("name"), regenerated.get("name"));
        assertEquals(newKey.substring(0, 7) + "*".repeat(40), regenerated.get("masked_key").asText());
        assertEquals(ADMINISTRATORS, regenerated.get("group").get("id").asLong());

        assertEquals("Unauthenticated", anonymous.withApiKey(oldKey).get(401, "api-key/count").body());
        anonymous.withApiKey(newKey).get(200, "api-key/count");
        assertEquals(regenerated.get("masked_key"), find(admin.get(200, "api-key").json(), id).get("masked_key"));

        admin.put(404, "api-key/999999/regenerate", null);
        assertEquals("value must be an integer greater than zero.",
                admin.put(400, "api-key/0/regenerate", null).json().get("errors").get("id").asText());
    }

    @Test
    void deletingStopsTheKeyAndDeactivatesItsUser() {
        JsonNode created = create(unique("Doomed"), ADMINISTRATORS);
        long id = created.get("id").asLong();
        String key = created.get("unmasked_key").asText();
        Api doomed = anonymous.withApiKey(key);
        doomed.get(200, "api-key/count");
        long userId = AppDbSql.count(server, "SELECT user_id FROM api_key WHERE id = ?", id);
        long before = keyCount();

        admin.delete(204, "api-key/" + id);
        assertEquals("Unauthenticated", doomed.get(401, "api-key/count").body());
        assertEquals(before - 1, keyCount());
        for (JsonNode k : admin.get(200, "api-key").json()) {
            assertNotEquals(id, k.get("id").asLong());
        }
        // the user stays, deactivated
        assertEquals(Boolean.FALSE, AppDbSql.value(server, "SELECT is_active FROM core_user WHERE id = ?", userId));
        admin.delete(404, "api-key/" + id);
        assertEquals("value must be an integer greater than zero.",
                admin.delete(400, "api-key/abc").json().get("errors").get("id").asText());
    }

    @Test
    void namesAreUnique() {
        String name = unique("Taken");
        create(name, ALL_USERS);
        long keys = keyCount();
        long users = userRows();
        JsonNode duplicate = admin.post(400, "api-key", Map.of("name", name, "group_id", ADMINISTRATORS)).json();
        assertEquals(Map.of("name", "An API key with this name already exists."),
                Map.of("name", duplicate.get("errors").get("name").asText()));
        assertEquals(1, duplicate.get("errors").size());
        assertEquals(keys, keyCount());
        assertEquals(users, userRows(), "no orphan user was left behind");

        // as in Metabase, names are compared exactly as written
        create(name.toUpperCase(), ALL_USERS);

        // renaming onto a taken name is refused too, and changes nothing
        JsonNode other = create(unique("Other"), ALL_USERS);
        JsonNode renamed = admin.put(400, "api-key/" + other.get("id").asLong(), Map.of("name", name, "group_id", ADMINISTRATORS)).json();
        assertEquals("An API key with this name already exists.", renamed.get("errors").get("name").asText());
        JsonNode unchanged = find(admin.get(200, "api-key").json(), other.get("id").asLong());
        assertEquals(other.get("name"), unchanged.get("name"));
        assertEquals(ALL_USERS, unchanged.get("group").get("id").asLong(), "the group change in the refused request was not applied");
    }

    @Test
    void anUnknownGroupWritesNothing() {
        long keys = keyCount();
        long users = userRows();
        long memberships = AppDbSql.count(server, "SELECT COUNT(*) FROM permissions_group_membership");
        String name = unique("Lost");
        assertEquals("Not found.", admin.post(404, "api-key", Map.of("name", name, "group_id", 99999)).body());
        assertEquals(keys, keyCount());
        assertEquals(users, userRows());
        assertEquals(memberships, AppDbSql.count(server, "SELECT COUNT(*) FROM permissions_group_membership"));
        assertEquals(0, AppDbSql.count(server, "SELECT COUNT(*) FROM core_user WHERE first_name = ?", name));

        JsonNode existing = create(unique("Stays"), ALL_USERS);
        long id = existing.get("id").asLong();
        String newName = unique("Renamed");
        admin.put(404, "api-key/" + id, Map.of("group_id", 99999, "name", newName));
        assertEquals(existing.get("name"), find(admin.get(200, "api-key").json(), id).get("name"),
                "the rename in the same refused request was not applied");
    }

    @Test
    void badInputIsRejectedPerParameter() {
        long keys = keyCount();
        JsonNode empty = admin.post(400, "api-key", Map.of()).json().get("errors");
        assertEquals("value must be an integer greater than zero.", empty.get("group_id").asText());
        assertEquals("value must be a non-blank string.", empty.get("name").asText());

        Map<String, Object> bad = new HashMap<>();
        bad.put("group_id", "two");
        bad.put("name", "   ");
        JsonNode errors = admin.post(400, "api-key", bad).json().get("errors");
        assertEquals("value must be an integer greater than zero.", errors.get("group_id").asText());
        assertEquals("value must be a non-blank string.", errors.get("name").asText());
        assertEquals("value must be an integer greater than zero.",
                admin.post(400, "api-key", Map.of("group_id", -1, "name", "Negative")).json().get("errors").get("group_id").asText());
        assertEquals("value must be a non-blank string of at most 254 characters.",
                admin.post(400, "api-key", Map.of("group_id", 1, "name", "x".repeat(255))).json().get("errors").get("name").asText());
        assertEquals("Value must be a map.", admin.post(400, "api-key", "[1]").json().get("errors").get("body").asText());
        assertEquals(keys, keyCount(), "no bad request created a key");

        JsonNode key = create(unique("Target"), ALL_USERS);
        long id = key.get("id").asLong();
        JsonNode updateErrors = admin.put(400, "api-key/" + id, Map.of("group_id", 0, "name", "")).json().get("errors");
        assertEquals("nullable value must be an integer greater than zero.", updateErrors.get("group_id").asText());
        assertEquals("nullable value must be a non-blank string.", updateErrors.get("name").asText());
        assertEquals("value must be an integer greater than zero.",
                admin.put(400, "api-key/x", Map.of("name", "Y")).json().get("errors").get("id").asText());
        admin.put(404, "api-key/999999", Map.of("name", unique("Ghost")));
        assertEquals(key.get("name"), find(admin.get(200, "api-key").json(), id).get("name"));
    }

    @Test
    void updateRenamesAndMovesBetweenGroups() {
        JsonNode created = create(unique("Mover"), ALL_USERS);
        long id = created.get("id").asLong();
        Api key = anonymous.withApiKey(created.get("unmasked_key").asText());
        key.get(403, "api-key");
        long userId = AppDbSql.count(server, "SELECT user_id FROM api_key WHERE id = ?", id);

        JsonNode promoted = admin.put(200, "api-key/" + id, Map.of("group_id", ADMINISTRATORS)).json();
        assertEquals("Administrators", promoted.get("group").get("name").asText());
        assertFalse(promoted.has("unmasked_key"));
        key.get(200, "api-key");

        String newName = unique("Renamed mover");
        JsonNode renamed = admin.put(200, "api-key/" + id, Map.of("name", newName)).json();
        assertEquals(newName, renamed.get("name").asText());
        assertEquals(ADMINISTRATORS, renamed.get("group").get("id").asLong(), "an absent group_id leaves the group");
        assertEquals(newName, AppDbSql.value(server, "SELECT first_name FROM core_user WHERE id = ?", userId),
                "the key's user is renamed with it");

        JsonNode demoted = admin.put(200, "api-key/" + id, Map.of("group_id", ALL_USERS)).json();
        assertEquals("All Users", demoted.get("group").get("name").asText());
        key.get(403, "api-key");
        assertEquals(1, AppDbSql.count(server, "SELECT COUNT(*) FROM permissions_group_membership WHERE user_id = ?", userId),
                "only All Users is left");
        // the same key string still works after updates
        key.get(200, "setting/expand-browse-in-nav");
    }
}
