package io.quarry.user;

import static io.quarry.user.Support.PASSWORD;
import static io.quarry.user.Support.createGroup;
import static io.quarry.user.Support.createUser;
import static io.quarry.user.Support.email;
import static io.quarry.user.Support.groupIds;
import static io.quarry.user.Support.ids;
import static io.quarry.user.Support.map;
import static io.quarry.user.Support.person;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import io.quarry.auth.Passwords;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import jakarta.mail.internet.MimeMessage;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code /api/user} over HTTP against the real webapp, with a real SMTP server (GreenMail) receiving invites. */
class UserIT {
    private static final String FORBIDDEN = "You don't have permissions to do that.";
    private static final String SITE_URL = "http://quarry.example.test";
    private static final Pattern INVITE_LINK = Pattern.compile(Pattern.quote(SITE_URL) + "/auth/reset_password/([0-9]+_[0-9a-f-]{36})#new");

    private static GreenMail mail;
    private static TestServer server;
    private static Api api;
    private static String admin;
    private static long adminId;

    @BeforeAll
    static void start() {
        int port = Support.freePort();
        mail = new GreenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        mail.start();
        server = TestServer.start(Map.of("MB_EMAIL_SMTP_HOST", "127.0.0.1", "MB_EMAIL_SMTP_PORT", String.valueOf(port),
                "MB_SITE_URL", SITE_URL));
        api = server.api();
        admin = Fixtures.setUp(api);
        adminId = api.as(admin).get(200, "user/current").json().get("id").asLong();
    }

    @AfterAll
    static void stop() {
        server.close();
        mail.stop();
    }

    // --- who may call ------------------------------------------------------------------------------------------------

    @Test
    void anonymousCallersAreUnauthenticated() {
        for (Api.Res res : List.of(api.call("GET", "user", null), api.call("GET", "user/current", null),
                api.call("GET", "user/1", null), api.call("POST", "user", map("email", "x@example.com")),
                api.call("PUT", "user/1", map("first_name", "X")), api.call("DELETE", "user/1", null),
                api.call("PUT", "user/1/reactivate", null), api.call("PUT", "user/1/password", map("password", "x")),
                api.call("PUT", "user/1/modal/qbnewb", null), api.call("POST", "user/1/send_invite", null))) {
            assertEquals(401, res.status());
            assertEquals("Unauthenticated", res.body());
        }
    }

    @Test
    void ordinaryUsersSeeOnlyThemselves() {
        Support.Person rasta = person(api, admin, "ordinary", "Rasta", "Toucan");
        Support.Person other = person(api, admin, "ordinary", "Lucky", "Pigeon");
        Api as = api.as(rasta.session());
        assertEquals(FORBIDDEN, as.get(403, "user").body());
        as.get(403, "user", "status", "all");
        as.post(403, "user", map("email", email("nope")));
        as.get(403, "user/" + other.id());
        as.get(403, "user/" + adminId);
        as.put(403, "user/" + other.id(), map("first_name", "Hijacked"));
        as.put(403, "user/" + other.id() + "/password", map("password", "Another-pass-1"));
        as.put(403, "user/" + other.id() + "/modal/qbnewb", null);
        as.delete(403, "user/" + other.id());
        as.put(403, "user/" + other.id() + "/reactivate", null);
        as.post(403, "user/" + other.id() + "/send_invite", null);
        assertEquals("Lucky", api.as(admin).get(200, "user/" + other.id()).json().get("first_name").asText());

        JsonNode self = as.get(200, "user/" + rasta.id()).json();
        assertEquals(rasta.email(), self.get("email").asText());
        assertEquals("Rasta Toucan", self.get("common_name").asText());
        assertFalse(self.get("is_superuser").asBoolean());
        assertFalse(self.has("password"));
        assertFalse(self.has("password_salt"));
        assertFalse(self.has("reset_token"));

        JsonNode current = as.get(200, "user/current").json();
        assertEquals(rasta.id(), current.get("id").asLong());
        assertEquals(List.of(1L), groupIds(current));
        assertTrue(current.get("is_active").asBoolean());
        assertNotNull(current.get("first_login").asText());
        assertFalse(current.get("has_invited_second_user").asBoolean());
        assertTrue(api.as(admin).get(200, "user/current").json().get("has_invited_second_user").asBoolean());
    }

    @Test
    void unknownAndMalformedIds() {
        api.as(admin).get(404, "user/999999");
        assertEquals("Not found.", api.as(admin).get(404, "user/999999").body());
        JsonNode bad = api.as(admin).get(400, "user/abc").json();
        assertEquals("value must be an integer greater than zero.", bad.get("errors").get("id").asText());
        api.as(admin).get(400, "user/0");
        api.as(admin).put(404, "user/999999", map("first_name", "Ghost"));
        api.as(admin).delete(404, "user/999999");
        api.as(admin).put(404, "user/999999/reactivate", null);
        api.as(admin).post(404, "user/999999/send_invite", null);
    }

    // --- creating ------------------------------------------------------------------------------------------------------

    @Test
    void createRejectsBadInputAndWritesNothing() {
        String tag = "badinput";
        String fresh = email(tag);
        assertError("email", "value must be a valid email address.", map("first_name", "No", "last_name", "Email"));
        assertError("email", "value must be a valid email address.", map("email", "not-an-email"));
        assertError("email", "value must be a valid email address.", map("email", 42));
        assertError("first_name", "nullable value must be a non-blank string.", map("email", fresh, "first_name", " "));
        assertError("last_name", "nullable value must be a non-blank string.", map("email", fresh, "last_name", 7));
        assertError("first_name", "value must be a string of at most 254 characters.", map("email", fresh, "first_name", "x".repeat(255)));
        assertError("login_attributes", "nullable Value must be a map.", map("email", fresh, "login_attributes", "x"));
        assertError("user_group_memberships", UserResource.MEMBERSHIPS_RULE, map("email", fresh, "user_group_memberships", "x"));
        assertError("user_group_memberships", UserResource.MEMBERSHIPS_RULE,
                map("email", fresh, "user_group_memberships", List.of(map("id", -1))));
        assertError("user_group_memberships", UserResource.MEMBERSHIPS_RULE,
                map("email", fresh, "user_group_memberships", List.of(map("id", 1, "is_group_manager", "perhaps"))));
        assertError("password", "password is too common.", map("email", fresh, "password", "password"));
        assertError("password", "password is too common.", map("email", fresh, "password", "short"));
        // every bad field is named at once
        JsonNode many = api.as(admin).post(400, "user", map("email", "x", "first_name", "")).json().get("errors");
        assertTrue(many.has("email") && many.has("first_name"), many.toString());

        // an unknown group is found only inside the transaction: the half-made user must be rolled back
        JsonNode unknownGroup = api.as(admin).post(400, "user", map("email", fresh, "first_name", "Half", "password", PASSWORD,
                "user_group_memberships", List.of(map("id", 1), map("id", 987654)))).json();
        assertTrue(unknownGroup.get("errors").has("user_group_memberships"), unknownGroup.toString());

        JsonNode taken = api.as(admin).post(400, "user", map("email", Fixtures.ADMIN_EMAIL.toUpperCase())).json();
        assertEquals("Email address already in use.", taken.get("errors").get("email").asText());

        assertEquals(0, api.as(admin).get(200, "user", "query", tag, "status", "all").json().get("total").asInt());
        api.post(401, "session", map("username", fresh, "password", PASSWORD));
        // and the address is still free
        createUser(api, admin, fresh, "Finally", "Made");
    }

    private static void assertError(String field, String message, Map<String, Object> body) {
        JsonNode err = api.as(admin).post(400, "user", body).json();
        assertEquals(message, err.get("errors").get(field).asText(), err.toString());
    }

    @Test
    void createJoinsGroupsAndSendsAnInviteThatCarriesAStoredToken() throws Exception {
        long group = createGroup(api, admin, "Inviters");
        String address = email("invitee");
        JsonNode user = api.as(admin).post(200, "user", map("email", address.toUpperCase(), "first_name", "Ivy", "last_name", "Vite",
                "login_attributes", map("region", "north"),
                "user_group_memberships", List.of(map("id", 1), map("id", group, "is_group_manager", true)))).json();
        long id = user.get("id").asLong();
        assertEquals(address, user.get("email").asText(), "emails are stored lower-cased");
        assertEquals("Ivy Vite", user.get("common_name").asText());
        assertFalse(user.get("is_superuser").asBoolean());
        assertEquals("north", user.get("login_attributes").get("region").asText());
        assertEquals(List.of(1L, group), groupIds(user));
        assertTrue(user.get("user_group_memberships").get(1).get("is_group_manager").asBoolean());

        MimeMessage invite = awaitMailTo(address);
        assertEquals("You're invited to join Quarry Test's Quarry", invite.getSubject());
        String body = GreenMailUtil.getBody(invite);
        Matcher link = INVITE_LINK.matcher(body.replace("=\r\n", "").replace("=3D", "="));
        assertTrue(link.find(), body);
        String token = link.group(1);
        assertTrue(token.startsWith(id + "_"), token);
        User stored = Support.quarry(server).users.find(id);
        assertNotNull(stored.resetTriggered);
        assertNotEquals(token, stored.resetToken, "only a hash of the token is stored");
        assertTrue(Passwords.verifyToken(token, stored.resetToken));

        // resending makes a new token, and the old one stops matching
        assertTrue(api.as(admin).post(200, "user/" + id + "/send_invite", null).json().get("success").asBoolean());
        MimeMessage again = awaitMailTo(address, 2);
        Matcher second = INVITE_LINK.matcher(GreenMailUtil.getBody(again).replace("=\r\n", "").replace("=3D", "="));
        assertTrue(second.find());
        assertNotEquals(token, second.group(1));
        String newHash = Support.quarry(server).users.find(id).resetToken;
        assertTrue(Passwords.verifyToken(second.group(1), newHash));
        assertFalse(Passwords.verifyToken(token, newHash));

        // the Administrators group makes a superuser
        JsonNode boss = api.as(admin).post(200, "user", map("email", email("boss"), "password", PASSWORD,
                "user_group_memberships", List.of(map("id", 1), map("id", 2)))).json();
        assertTrue(boss.get("is_superuser").asBoolean());
        // All Users is always there, even when not asked for
        JsonNode plain = api.as(admin).post(200, "user", map("email", email("plain"), "user_group_memberships", List.of())).json();
        assertEquals(List.of(1L), groupIds(plain));
        assertTrue(plain.get("first_name").isNull());
        assertEquals(plain.get("email").asText(), plain.get("common_name").asText());
    }

    /** The newest message to {@code address}, once {@code count} have arrived for it. */
    private static MimeMessage awaitMailTo(String address, int count) throws Exception {
        long deadline = System.currentTimeMillis() + 15_000;
        while (System.currentTimeMillis() < deadline) {
            List<MimeMessage> mine = new java.util.ArrayList<>();
            for (MimeMessage m : mail.getReceivedMessages()) {
                if (m.getAllRecipients()[0].toString().equalsIgnoreCase(address)) {
                    mine.add(m);
                }
            }
            if (mine.size() >= count) {
                return mine.get(mine.size() - 1);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("No email number " + count + " for " + address);
    }

    private static MimeMessage awaitMailTo(String address) throws Exception {
        return awaitMailTo(address, 1);
    }

    @Test
    void withoutEmailSetUpUsersAreStillCreatedButInvitesCannotBeResent() {
        try (TestServer bare = TestServer.start()) {
            Api bareApi = bare.api();
            String boss = Fixtures.setUp(bareApi);
            JsonNode user = bareApi.as(boss).post(200, "user", map("email", email("nomail"), "first_name", "No", "last_name", "Mail")).json();
            long id = user.get("id").asLong();
            assertTrue(user.get("is_active").asBoolean());
            Api.Res res = bareApi.as(boss).post(400, "user/" + id + "/send_invite", null);
            assertEquals("Email is not configured. Please set up email in the admin settings.", res.body());

            // on a fresh instance the only administrator cannot be demoted or removed
            long bossId = bareApi.as(boss).get(200, "user/current").json().get("id").asLong();
            assertEquals("You cannot remove the last member of the 'Admin' group!",
                    bareApi.as(boss).put(400, "user/" + bossId, map("is_superuser", false)).body());
            assertEquals("You cannot remove the last member of the 'Admin' group!",
                    bareApi.as(boss).put(400, "user/" + bossId, map("user_group_memberships", List.of(map("id", 1)))).body());
            assertEquals("You cannot deactivate yourself.", bareApi.as(boss).delete(400, "user/" + bossId).body());
            assertTrue(bareApi.as(boss).get(200, "user/current").json().get("is_superuser").asBoolean());
            // with a second administrator, the first may step down
            bareApi.as(boss).put(200, "user/" + id, map("is_superuser", true));
            JsonNode stepped = bareApi.as(boss).put(200, "user/" + bossId, map("is_superuser", false)).json();
            assertFalse(stepped.get("is_superuser").asBoolean());
            bareApi.as(boss).get(403, "user");
        }
    }

    // --- listing -------------------------------------------------------------------------------------------------------

    @Test
    void listRules() {
        String tag = "lister";
        long a = createUser(api, admin, email(tag), "Abel", "Zed").get("id").asLong();
        long b = createUser(api, admin, email(tag), "Bea", "Young").get("id").asLong();
        long c = createUser(api, admin, email(tag), "Cy", "Xavier").get("id").asLong();
        long d = createUser(api, admin, email(tag), "Dee", "Walker").get("id").asLong();
        long e = createUser(api, admin, email(tag), "Eve", "Vance").get("id").asLong();
        api.as(admin).delete(200, "user/" + d);
        api.as(admin).delete(200, "user/" + e);
        Api as = api.as(admin);

        JsonNode active = as.get(200, "user", "query", tag).json();
        assertEquals(List.of(a, b, c), ids(active.get("data")), "active users by default, ordered by first name");
        assertEquals(3, active.get("total").asInt());
        assertTrue(active.get("limit").isNull());
        assertTrue(active.get("offset").isNull());
        JsonNode first = active.get("data").get(0);
        for (String key : List.of("id", "email", "first_name", "last_name", "common_name", "is_active", "is_superuser",
                "date_joined", "last_login", "group_ids", "user_group_memberships", "locale")) {
            assertTrue(first.has(key), key);
        }

        assertEquals(List.of(d, e), ids(as.get(200, "user", "query", tag, "status", "deactivated").json().get("data")));
        assertEquals(List.of(a, b, c, d, e), ids(as.get(200, "user", "query", tag, "status", "all").json().get("data")));
        assertEquals(List.of(a, b, c), ids(as.get(200, "user", "query", tag, "status", "active").json().get("data")));
        assertEquals(5, as.get(200, "user", "query", tag, "include_deactivated", "true").json().get("total").asInt());
        assertEquals(3, as.get(200, "user", "query", tag, "include_deactivated", "false").json().get("total").asInt());
        assertEquals(3, as.get(200, "user", "query", tag, "include_deactivated", "TRUE", "status", "active").json().get("total").asInt(),
                "status wins over include_deactivated");
        assertEquals(2, as.get(200, "user", "query", tag, "include_deactivated", "false", "status", "deactivated").json()
                .get("total").asInt(), "status wins over include_deactivated");

        // query: first name, last name and email, ignoring case
        assertEquals(List.of(b), ids(as.get(200, "user", "query", "bEa").json().get("data")));
        assertEquals(List.of(c), ids(as.get(200, "user", "query", "XAVIER").json().get("data")));
        assertEquals(3, as.get(200, "user", "query", tag.toUpperCase()).json().get("total").asInt());
        assertEquals(0, as.get(200, "user", "query", "%").json().get("total").asInt(), "LIKE wildcards are literal");

        // group_id
        long group = createGroup(api, admin, "Listers");
        as.post(200, "permissions/membership", map("user_id", b, "group_id", group));
        as.post(200, "permissions/membership", map("user_id", d, "group_id", group));
        assertEquals(List.of(b), ids(as.get(200, "user", "group_id", group).json().get("data")));
        assertEquals(List.of(b, d), ids(as.get(200, "user", "group_id", group, "status", "all").json().get("data")));

        // limit and offset page through, total counts them all
        JsonNode page1 = as.get(200, "user", "query", tag, "status", "all", "limit", 2, "offset", 0).json();
        assertEquals(List.of(a, b), ids(page1.get("data")));
        assertEquals(5, page1.get("total").asInt());
        assertEquals(2, page1.get("limit").asInt());
        assertEquals(0, page1.get("offset").asInt());
        assertEquals(List.of(c, d), ids(as.get(200, "user", "query", tag, "status", "all", "limit", 2, "offset", 2).json().get("data")));
        JsonNode last = as.get(200, "user", "query", tag, "status", "all", "offset", 4).json();
        assertEquals(List.of(e), ids(last.get("data")));
        assertEquals(50, last.get("limit").asInt(), "an offset alone pages with Metabase's default limit");

        // bad parameters
        JsonNode badBool = as.get(400, "user", "include_deactivated", "maybe").json();
        assertEquals("nullable value must be a valid boolean string ('true' or 'false').",
                badBool.get("errors").get("include_deactivated").asText());
        assertEquals("nullable value must be an integer greater than zero.",
                as.get(400, "user", "group_id", "abc").json().get("errors").get("group_id").asText());
        as.get(400, "user", "group_id", "0");
        JsonNode badLimit = as.get(400, "user", "limit", "ten").json();
        assertEquals("nullable value must be an integer greater than zero.", badLimit.get("errors").get("limit").asText());
        assertTrue(badLimit.get("message").asText().startsWith("Error parsing paging parameters"));
        assertEquals("nullable value must be an integer greater than zero.",
                as.get(400, "user", "offset", "-1").json().get("errors").get("offset").asText());
    }

    @Test
    void apiKeyUsersAreNotListedButKnowThemselves() {
        String secret = api.as(admin).post(200, "api-key", Map.of("name", "Lister key", "group_id", 1))
                .json().get("unmasked_key").asText();
        JsonNode me = api.withApiKey(secret).get(200, "user/current").json();
        assertEquals("api-key", me.get("type").asText());
        assertEquals("Lister key", me.get("first_name").asText());
        assertEquals(0, api.as(admin).get(200, "user", "query", "api-key.invalid", "status", "all").json().get("total").asInt());
        assertEquals(0, api.as(admin).get(200, "user", "query", "Lister key", "status", "all").json().get("total").asInt());
        api.withApiKey(secret).get(403, "user");
    }

    @Test
    void groupManagersWorkWithinTheirGroups() {
        long managed = createGroup(api, admin, "Managed by Mo");
        long elsewhere = createGroup(api, admin, "Not Mo's");
        Support.Person mo = person(api, admin, "gm", "Mo", "Manager",
                "user_group_memberships", List.of(map("id", 1), map("id", managed, "is_group_manager", true)));
        Support.Person uma = person(api, admin, "gm", "Uma", "Member",
                "user_group_memberships", List.of(map("id", 1), map("id", managed)));
        Support.Person olaf = person(api, admin, "gm", "Olaf", "Outsider",
                "user_group_memberships", List.of(map("id", 1), map("id", elsewhere)));
        Api as = api.as(mo.session());

        assertEquals(List.of(mo.id(), uma.id()), ids(as.get(200, "user").json().get("data")));
        assertEquals(2, as.get(200, "user").json().get("total").asInt());
        assertEquals(List.of(mo.id(), uma.id()), ids(as.get(200, "user", "group_id", managed).json().get("data")));
        assertEquals(FORBIDDEN, as.get(403, "user", "group_id", elsewhere).body());
        as.get(403, "user", "group_id", 1);
        as.get(403, "user", "status", "all");
        as.get(403, "user", "include_deactivated", "true");

        as.get(200, "user/" + uma.id());
        as.get(403, "user/" + olaf.id());
        as.get(403, "user/" + adminId);

        // info of others is not theirs to change, with or without a membership change
        as.put(403, "user/" + olaf.id(), map("first_name", "Renamed"));
        JsonNode same = as.put(200, "user/" + uma.id(), map("first_name", "Renamed",
                "user_group_memberships", List.of(map("id", 1), map("id", managed)))).json();
        assertEquals("Uma", same.get("first_name").asText());

        // add an outsider to the managed group: fine; take them out of a group Mo does not manage: 403, nothing changes
        JsonNode added = as.put(200, "user/" + olaf.id(), map("user_group_memberships",
                List.of(map("id", 1), map("id", elsewhere), map("id", managed)))).json();
        assertEquals(List.of(1L, managed, elsewhere), groupIds(added), "memberships come ordered by group id");
        as.put(403, "user/" + olaf.id(), map("user_group_memberships", List.of(map("id", 1), map("id", managed))));
        as.put(403, "user/" + olaf.id(), map("user_group_memberships", List.of(map("id", 1), map("id", managed), map("id", 2))));
        assertEquals(List.of(1L, managed, elsewhere), groupIds(api.as(admin).get(200, "user/" + olaf.id()).json()));
        // and remove a member from the managed group
        JsonNode removed = as.put(200, "user/" + uma.id(), map("user_group_memberships", List.of(map("id", 1)))).json();
        assertEquals(List.of(1L), groupIds(removed));
        as.get(403, "user/" + uma.id());

        // members are not managers
        api.as(uma.session()).get(403, "user");
        api.as(uma.session()).put(403, "user/" + uma.id(), map("user_group_memberships", List.of(map("id", 1), map("id", managed))));
    }

    // --- updating ------------------------------------------------------------------------------------------------------

    @Test
    void usersEditThemselvesWithinLimits() {
        Support.Person pat = person(api, admin, "editor", "Pat", "Self");
        Support.Person other = person(api, admin, "editor", "Taken", "Already");
        Api as = api.as(pat.session());
        String path = "user/" + pat.id();

        JsonNode edited = as.put(200, path, map("first_name", "Patricia", "last_name", null, "locale", "pt-br")).json();
        assertEquals("Patricia", edited.get("first_name").asText());
        assertTrue(edited.get("last_name").isNull());
        assertEquals("pt_BR", edited.get("locale").asText());
        assertEquals("Patricia", edited.get("common_name").asText());

        // bad values, each with its message; nothing changes
        String localeRule = "nullable String must be a valid two-letter ISO language or language-country code e.g. 'en' or 'en_US'.";
        assertEquals(localeRule, as.put(400, path, map("locale", "english")).json().get("errors").get("locale").asText());
        assertEquals(localeRule, as.put(400, path, map("locale", "zz")).json().get("errors").get("locale").asText());
        assertEquals("nullable value must be a valid email address.",
                as.put(400, path, map("email", "nope", "first_name", "Changed")).json().get("errors").get("email").asText());
        assertEquals("nullable value must be a non-blank string.",
                as.put(400, path, map("first_name", "")).json().get("errors").get("first_name").asText());
        assertEquals("nullable value must be a boolean.",
                as.put(400, path, map("is_superuser", "yes")).json().get("errors").get("is_superuser").asText());
        assertEquals("nullable value must be a boolean.",
                as.put(400, path, map("is_group_manager", 3)).json().get("errors").get("is_group_manager").asText());
        assertEquals("nullable Value must be a map.",
                as.put(400, path, map("login_attributes", List.of())).json().get("errors").get("login_attributes").asText());
        assertEquals(UserResource.MEMBERSHIPS_RULE,
                as.put(400, path, map("user_group_memberships", List.of(1))).json().get("errors").get("user_group_memberships").asText());
        assertEquals("Email address already associated to another user.",
                as.put(400, path, map("email", other.email().toUpperCase(), "first_name", "Changed")).json().get("errors").get("email").asText());
        JsonNode unchanged = as.get(200, path).json();
        assertEquals("Patricia", unchanged.get("first_name").asText());
        assertEquals(pat.email(), unchanged.get("email").asText());

        // superuser-only fields are ignored for everyone else; groups need a superuser
        JsonNode ignored = as.put(200, path, map("is_superuser", true, "login_attributes", map("k", "v"))).json();
        assertFalse(ignored.get("is_superuser").asBoolean());
        assertTrue(ignored.get("login_attributes").isNull());
        long group = createGroup(api, admin, "Self-service");
        as.put(403, path, map("user_group_memberships", List.of(map("id", 1), map("id", group))));
        assertEquals(List.of(1L), groupIds(as.get(200, path).json()));

        // a new email is stored lower-cased and signs in
        String newEmail = email("renamed");
        as.put(200, path, map("email", newEmail.toUpperCase()));
        Fixtures.login(api, newEmail, PASSWORD);
    }

    @Test
    void superusersEditAnyoneAndGrantAdminRights() {
        Support.Person sam = person(api, admin, "promoted", "Sam", "Sudo");
        String path = "user/" + sam.id();
        Api as = api.as(admin);

        JsonNode promoted = as.put(200, path, map("is_superuser", true, "login_attributes", map("team", "blue"))).json();
        assertTrue(promoted.get("is_superuser").asBoolean());
        assertEquals(List.of(1L, 2L), groupIds(promoted));
        assertEquals("blue", promoted.get("login_attributes").get("team").asText());
        api.as(sam.session()).get(200, "user", "status", "all");

        JsonNode mismatch = as.put(400, path, map("is_superuser", false,
                "user_group_memberships", List.of(map("id", 1), map("id", 2)))).json();
        assertEquals("Value of is_superuser must correspond to presence of Admin group ID in group_ids.",
                mismatch.get("errors").get("is_superuser").asText());
        assertTrue(as.get(200, path).json().get("is_superuser").asBoolean());

        long group = createGroup(api, admin, "Edited by admin");
        JsonNode regrouped = as.put(200, path, map("is_superuser", false, "first_name", "Samuel",
                "user_group_memberships", List.of(map("id", 1), map("id", group, "is_group_manager", true)))).json();
        assertFalse(regrouped.get("is_superuser").asBoolean());
        assertEquals("Samuel", regrouped.get("first_name").asText());
        assertEquals(List.of(1L, group), groupIds(regrouped));
        assertTrue(regrouped.get("user_group_memberships").get(1).get("is_group_manager").asBoolean());
        api.as(sam.session()).get(403, "user", "status", "all");

        JsonNode unknown = as.put(400, path, map("user_group_memberships", List.of(map("id", 1), map("id", 424242)))).json();
        assertTrue(unknown.get("errors").has("user_group_memberships"));
        assertEquals(List.of(1L, group), groupIds(as.get(200, path).json()), "a rejected change leaves the groups as they were");

        // deactivated users cannot be edited
        as.delete(200, path);
        assertEquals("Not found.", as.put(404, path, map("first_name", "Zombie")).body());
    }

    @Test
    void modals() {
        Support.Person newbie = person(api, admin, "modal", "New", "Bie");
        Support.Person other = person(api, admin, "modal", "Oth", "Er");
        Api as = api.as(newbie.session());
        assertTrue(as.get(200, "user/current").json().get("is_qbnewb").asBoolean());
        assertTrue(as.put(200, "user/" + newbie.id() + "/modal/qbnewb", null).json().get("success").asBoolean());
        as.put(200, "user/" + newbie.id() + "/modal/datasetnewb", null);
        JsonNode me = as.get(200, "user/current").json();
        assertFalse(me.get("is_qbnewb").asBoolean());
        assertFalse(me.get("is_datasetnewb").asBoolean());
        assertEquals("Unrecognized modal: nope", as.put(400, "user/" + newbie.id() + "/modal/nope", null).body());
        as.put(403, "user/" + other.id() + "/modal/qbnewb", null);
        assertTrue(api.as(admin).get(200, "user/" + other.id()).json().get("is_qbnewb").asBoolean());
        api.as(admin).put(200, "user/" + other.id() + "/modal/qbnewb", null);
        assertFalse(api.as(admin).get(200, "user/" + other.id()).json().get("is_qbnewb").asBoolean());
    }

    // --- passwords -------------------------------------------------------------------------------------------------------

    @Test
    void changingYourPasswordEndsYourOtherSessions() {
        Support.Person kim = person(api, admin, "pw", "Kim", "Keys");
        String second = Fixtures.login(api, kim.email(), PASSWORD);
        Api as = api.as(kim.session());
        String path = "user/" + kim.id() + "/password";

        assertEquals("Invalid password", as.put(400, path, map("password", "New-secret-42", "old_password", "wrong-1"))
                .json().get("errors").get("old_password").asText());
        assertEquals("Invalid password", as.put(400, path, map("password", "New-secret-42")).json().get("errors").get("old_password").asText());
        assertEquals("password is too common.", as.put(400, path, map("password", "no-digits-here", "old_password", PASSWORD))
                .json().get("errors").get("password").asText());
        assertEquals("password is too common.", as.put(400, path, map("old_password", PASSWORD)).json().get("errors").get("password").asText());
        assertEquals("password is too common.", as.put(400, path, map("password", 123456789, "old_password", PASSWORD))
                .json().get("errors").get("password").asText());
        // none of that changed anything
        api.as(second).get(200, "user/current");
        Fixtures.login(api, kim.email(), PASSWORD);

        Api.Res ok = as.put(200, path, map("password", "New-secret-42", "old_password", PASSWORD));
        assertTrue(ok.json().get("success").asBoolean());
        String fresh = ok.json().get("session_id").asText();
        assertTrue(ok.header("Set-Cookie").startsWith("metabase.SESSION=" + fresh), ok.header("Set-Cookie"));
        assertEquals("Unauthenticated", api.as(kim.session()).get(401, "user/current").body());
        api.as(second).get(401, "user/current");
        assertEquals(kim.id(), api.as(fresh).get(200, "user/current").json().get("id").asLong());
        api.post(401, "session", map("username", kim.email(), "password", PASSWORD));
        Fixtures.login(api, kim.email(), "New-secret-42");
    }

    @Test
    void superusersResetOthersPasswordsWithoutTheOldOne() {
        Support.Person lee = person(api, admin, "pwreset", "Lee", "Locked");
        api.as(admin).put(204, "user/" + lee.id() + "/password", map("password", "Reset-by-admin-7"));
        api.as(lee.session()).get(401, "user/current");
        Fixtures.login(api, lee.email(), "Reset-by-admin-7");
        api.as(admin).get(200, "user/current");
        api.as(admin).put(400, "user/" + lee.id() + "/password", map("password", "qwerty"));
        api.as(admin).delete(200, "user/" + lee.id());
        api.as(admin).put(404, "user/" + lee.id() + "/password", map("password", "Reset-by-admin-8"));
        api.as(admin).put(404, "user/999999/password", map("password", "Reset-by-admin-8"));
    }

    // --- deactivation ----------------------------------------------------------------------------------------------------

    @Test
    void deactivatedUsersCannotSignInUntilReactivated() {
        Support.Person dan = person(api, admin, "deact", "Dan", "Gone", "user_group_memberships", List.of(map("id", 1), map("id", 2)));
        assertTrue(api.as(admin).delete(200, "user/" + dan.id()).json().get("success").asBoolean());
        api.as(dan.session()).get(401, "user/current");
        JsonNode refused = api.post(401, "session", map("username", dan.email(), "password", PASSWORD)).json();
        assertEquals("Your account is disabled.", refused.get("errors").get("_error").asText());
        JsonNode seen = api.as(admin).get(200, "user/" + dan.id()).json();
        assertFalse(seen.get("is_active").asBoolean());
        assertTrue(api.as(admin).delete(200, "user/" + dan.id()).json().get("success").asBoolean(), "deactivating twice is harmless");
        assertEquals("You cannot deactivate yourself.", api.as(admin).delete(400, "user/" + adminId).body());

        JsonNode back = api.as(admin).put(200, "user/" + dan.id() + "/reactivate", null).json();
        assertTrue(back.get("is_active").asBoolean());
        assertFalse(back.get("is_superuser").asBoolean(), "a reactivated user comes back without admin rights");
        String session = Fixtures.login(api, dan.email(), PASSWORD);
        api.as(session).get(200, "user/current");
        JsonNode again = api.as(admin).put(400, "user/" + dan.id() + "/reactivate", null).json();
        assertEquals("Not able to reactivate an active user", again.get("message").asText());
    }
}
