package io.quarry.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.InProcess;
import io.quarry.testing.Mailbox;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import io.quarry.user.Membership;
import io.quarry.user.User;
import io.quarry.user.UserMapper;
import jakarta.mail.internet.MimeMessage;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Setup's extras over HTTP: inviting a second administrator (with a real SMTP server), user defaults, connection
 * validation and the admin checklist. Setup happens once per instance, so each scenario has its own server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SetupIT {
    private static final String USER_DEFAULTS = "{\"token\":\"123456\",\"email\":\"john.doe@example.com\",\"first_name\":\"John\"}";

    private static Mailbox mail;
    /** Email configured and MB_USER_DEFAULTS set; set up with a nested invite. */
    private static TestServer withEmail;
    /** Nothing configured. */
    private static TestServer bare;

    @BeforeAll
    static void start() {
        mail = new Mailbox();
        Map<String, String> config = new HashMap<>(mail.config());
        config.put("MB_USER_DEFAULTS", USER_DEFAULTS);
        withEmail = TestServer.start(config);
        bare = TestServer.start(Map.of());
    }

    @AfterAll
    static void stop() {
        withEmail.close();
        bare.close();
        mail.close();
    }

    private static String setupToken(Api api) {
        return api.get(200, "session/properties").json().get("setup-token").asText();
    }

    private static Map<String, Object> setupBody(String token) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("token", token);
        body.put("user", Map.of("email", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD, "first_name", "Crowberto",
                "last_name", "Corv"));
        body.put("prefs", Map.of("site_name", "Quarry Test"));
        return body;
    }

    private static void assertNothingWritten(TestServer server) {
        Api api = server.api();
        assertFalse(api.get(200, "session/properties").json().get("has-user-setup").asBoolean());
        api.post(401, "session", Map.of("username", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD));
        assertEquals(0, InProcess.number(server, "SELECT COUNT(*) FROM core_user"));
    }

    private static String invitedError(TestServer server, Map<String, Object> body, String field) {
        return server.api().post(400, "setup", body).json().get("errors").get(field).asText();
    }

    @Test
    @Order(1)
    void aBadInviteFailsTheWholeSetup() {
        Api api = withEmail.api();
        String token = setupToken(api);
        int emails = mail.count();

        Map<String, Object> nestedBadEmail = setupBody(token);
        nestedBadEmail.put("invite", Map.of("email", "not-an-email", "first_name", "Rasta"));
        assertEquals("nullable value must be a valid email address.", invitedError(withEmail, nestedBadEmail, "invited_email"));

        Map<String, Object> nestedBlankName = setupBody(token);
        nestedBlankName.put("invite", Map.of("email", "rasta@example.com", "first_name", " "));
        assertEquals("nullable value must be a non-blank string.", invitedError(withEmail, nestedBlankName, "invited_first_name"));

        Map<String, Object> flatBadEmail = setupBody(token);
        flatBadEmail.put("invited_email", "nope");
        assertEquals("nullable value must be a valid email address.", invitedError(withEmail, flatBadEmail, "invited_email"));

        Map<String, Object> flatBlankLast = setupBody(token);
        flatBlankLast.put("invited_email", "rasta@example.com");
        flatBlankLast.put("invited_last_name", "");
        assertEquals("nullable value must be a non-blank string.", invitedError(withEmail, flatBlankLast, "invited_last_name"));

        Map<String, Object> notAMap = setupBody(token);
        notAMap.put("invite", "rasta@example.com");
        assertEquals("nullable Value must be a map.", invitedError(withEmail, notAMap, "invite"));

        Map<String, Object> sameAsAdmin = setupBody(token);
        sameAsAdmin.put("invite", Map.of("email", Fixtures.ADMIN_EMAIL.toUpperCase()));
        assertEquals("Email address already in use.", invitedError(withEmail, sameAsAdmin, "invited_email"));

        assertNothingWritten(withEmail);
        assertEquals(emails, mail.count());
    }

    @Test
    @Order(2)
    void setupWithAnInviteCreatesASecondAdministratorAndEmailsThem() {
        Api api = withEmail.api();
        int emails = mail.count();
        Map<String, Object> body = setupBody(setupToken(api));
        body.put("invite", Map.of("email", "Rasta@Example.com", "first_name", "Rasta", "last_name", "Toucan"));
        String adminSession = api.post(200, "setup", body).json().get("id").asText();

        User invited = InProcess.findUser(withEmail, "rasta@example.com");
        assertNotNull(invited);
        assertEquals("Rasta", invited.firstName);
        assertTrue(invited.isSuperuser);
        List<Membership> groups = withEmail.quarry().db.with(UserMapper.class, m -> m.listMembershipsOfUsers(List.of(invited.id)));
        assertEquals(List.of(1L, 2L), groups.stream().map(m -> m.groupId).toList());

        MimeMessage invite = mail.await(emails + 1)[emails];
        assertEquals("rasta@example.com", Mailbox.to(invite));
        String link = Mailbox.html(invite);
        assertTrue(link.contains("Crowberto Corv"), link);
        String token = Mailbox.resetToken(invite);
        assertNotNull(token, link);
        assertTrue(link.contains("/auth/reset_password/" + token + "#new"), link);

        // the invitee sets a password with the link and is an administrator
        assertTrue(api.get(200, "session/password_reset_token_valid", "token", token).json().get("valid").asBoolean());
        String session = api.post(200, "session/reset_password", Map.of("token", token, "password", "Inv1ted-pass")).json()
                .get("session_id").asText();
        api.as(session).get(200, "setup/admin_checklist");
        Fixtures.login(api, "rasta@example.com", "Inv1ted-pass");

        // the checklist sees the configured email and the second user
        JsonNode checklist = api.as(adminSession).get(200, "setup/admin_checklist").json();
        assertEquals(true, task(checklist, "Set up email").get("completed").asBoolean());
        assertEquals(true, task(checklist, "Invite team members").get("completed").asBoolean());
    }

    @Test
    @Order(2)
    void withoutEmailTheInviteIsSkippedAndSetupStillSucceeds() {
        Api api = bare.api();
        Map<String, Object> body = setupBody(setupToken(api));
        body.put("invited_email", "rasta@example.com");
        body.put("invited_first_name", "Rasta");
        api.post(200, "setup", body);
        assertEquals(1, InProcess.number(bare, "SELECT COUNT(*) FROM core_user"));
        assertTrue(api.get(200, "session/properties").json().get("has-user-setup").asBoolean());
    }

    @Test
    @Order(1)
    void aFlatInviteWorksToo() {
        try (Mailbox own = new Mailbox(); TestServer server = TestServer.start(own.config())) {
            Api api = server.api();
            Map<String, Object> body = setupBody(setupToken(api));
            body.put("invited_email", "toucan@example.com");
            body.put("invited_first_name", "Tou");
            body.put("invited_last_name", "Can");
            api.post(200, "setup", body);
            User invited = InProcess.findUser(server, "toucan@example.com");
            assertEquals("Can", invited.lastName);
            assertTrue(invited.isSuperuser);
            MimeMessage message = own.await(1)[0];
            assertEquals("toucan@example.com", Mailbox.to(message));
            assertTrue(Mailbox.resetToken(message).startsWith(invited.id + "_"));
        }
    }

    @Test
    @Order(1)
    void userDefaultsNeedTheirOwnToken() {
        Api api = withEmail.api();
        JsonNode defaults = api.get(200, "setup/user_defaults", "token", "123456").json();
        assertEquals("john.doe@example.com", defaults.get("email").asText());
        assertEquals("John", defaults.get("first_name").asText());
        assertFalse(defaults.has("token"));
        assertEquals("You don't have permissions to do that.", api.get(403, "setup/user_defaults", "token", "987654").body());
        assertEquals("You don't have permissions to do that.", api.get(403, "setup/user_defaults").body());
        // the setup token is not the user-defaults token
        assertEquals("You don't have permissions to do that.", api.get(403, "setup/user_defaults", "token", setupToken(api)).body());

        assertEquals("Not found.", bare.api().get(404, "setup/user_defaults", "token", "123456").body());
    }

    @Test
    @Order(1)
    void validateChecksTheTokenThenTheEngine() {
        Api api = bare.api();
        String token = setupToken(api);
        Map<String, Object> details = Map.of("engine", "postgres", "details", Map.of("host", "localhost"));

        assertEquals("Token does not match the setup token.",
                api.post(400, "setup/validate", Map.of("token", "nope", "details", details)).json().get("errors").get("token").asText());
        assertEquals("value must be a non-blank string.",
                api.post(400, "setup/validate", Map.of("details", details)).json().get("errors").get("token").asText());
        assertEquals("value must be a valid database engine.",
                api.post(400, "setup/validate", Map.of("token", token)).json().get("errors").get("engine").asText());
        assertEquals("value must be a valid database engine.",
                api.post(400, "setup/validate", Map.of("token", token, "engine", 5)).json().get("errors").get("engine").asText());
        // a known engine: its details are checked (connecting for real is covered by warehouse.SetupDatabaseIT)
        assertEquals("value must be a non-blank string.",
                api.post(400, "setup/validate", Map.of("token", token, "details", details)).json().get("errors").get("dbname").asText());
        assertEquals("value must be a non-blank string.", api.post(400, "setup/validate",
                Map.of("token", token, "engine", "h2", "details", Map.of())).json().get("errors").get("db").asText());
    }

    @Test
    @Order(3)
    void theAdminChecklistIsForAdministratorsAndReflectsTheInstance() {
        Api api = bare.api();
        assertEquals("Unauthenticated", api.get(401, "setup/admin_checklist").body());
        String admin = Fixtures.login(api, Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
        InProcess.createUser(bare, "plain@example.com", "Pla1n-pass", false);
        String plain = Fixtures.login(api, "plain@example.com", "Pla1n-pass");
        assertEquals("You don't have permissions to do that.", api.as(plain).get(403, "setup/admin_checklist").body());

        JsonNode checklist = api.as(admin).get(200, "setup/admin_checklist").json();
        assertEquals(List.of("Get connected", "Productionize", "Curate your data"),
                StreamSupport.stream(checklist.spliterator(), false).map(g -> g.get("name").asText()).toList());
        JsonNode email = task(checklist, "Set up email");
        assertFalse(email.get("completed").asBoolean());
        assertEquals("Get connected", email.get("group").asText());
        assertTrue(email.get("triggered").asBoolean());
        assertTrue(task(checklist, "Invite team members").get("completed").asBoolean(), "two people now");
        assertTrue(task(checklist, "Add a database").get("is_next_step").asBoolean());
        JsonNode appDb = task(checklist, "Switch to a production-ready app database");
        assertEquals(!TestAppDb.isPostgres(), appDb.get("triggered").asBoolean());
        assertEquals(TestAppDb.isPostgres(), appDb.get("completed").asBoolean());
    }

    private static JsonNode task(JsonNode checklist, String title) {
        for (JsonNode group : checklist) {
            for (JsonNode task : group.get("tasks")) {
                if (task.get("title").asText().equals(title)) {
                    return task;
                }
            }
        }
        throw new AssertionError("no task " + title + " in " + checklist);
    }
}
