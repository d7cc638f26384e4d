package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.InProcess;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** How long sessions live, and that they live in the application database that instances share. */
class SessionLifetimeIT {
    /** Moves a session's creation time into the past, as if it had been opened {@code age} ago. */
    private static void age(TestServer server, String sessionId, Duration age) {
        int rows = InProcess.update(server, "UPDATE core_session SET created_at = ? WHERE key_hash = ?",
                OffsetDateTime.now(ZoneOffset.UTC).minus(age), SessionService.hash(sessionId));
        assertEquals(1, rows);
    }

    @Test
    void maxSessionAgeFromTheConfigurationIsHonoured() {
        try (TestServer server = TestServer.start(Map.of("MAX_SESSION_AGE", "1"))) {
            Api api = server.api();
            String admin = Fixtures.setUp(api);
            Api.Res remembered = api.post(200, "session",
                    Map.of("username", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD, "remember", true));
            assertTrue(remembered.header("Set-Cookie").contains("Max-Age=60"), "a remembered cookie lives MAX_SESSION_AGE: "
                    + remembered.header("Set-Cookie"));
            String young = remembered.json().get("id").asText();

            api.as(admin).get(200, "setup/admin_checklist");
            age(server, admin, Duration.ofSeconds(61));
            assertEquals("Unauthenticated", api.as(admin).get(401, "setup/admin_checklist").body());
            assertEquals("Unauthenticated", api.withHeader("Cookie", "metabase.SESSION=" + admin).get(401, "setup/admin_checklist").body());

            age(server, young, Duration.ofSeconds(50));
            api.as(young).get(200, "setup/admin_checklist");
        }
    }

    @Test
    void twoInstancesOnOnePostgresDatabaseShareUsersAndSessions() {
        Assumptions.assumeTrue(TestAppDb.isPostgres(), "two instances share an application database on PostgreSQL only");
        Map<String, String> config = new LinkedHashMap<>(TestAppDb.fresh());
        config.put("MB_DISABLE_SESSION_THROTTLE", "false");
        try (TestServer a = TestServer.startWith(config); TestServer b = TestServer.startWith(config)) {
            Api onA = a.api();
            Api onB = b.api();
            assertEquals(onA.get(200, "session/properties").json().get("setup-token").asText(),
                    onB.get(200, "session/properties").json().get("setup-token").asText(), "one setup token for the instance");

            Fixtures.setUp(onA);
            assertTrue(onB.get(200, "session/properties").json().get("has-user-setup").asBoolean());
            // a user created through A signs in on B
            String session = Fixtures.login(onB, Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
            onA.as(session).get(200, "setup/admin_checklist");

            String fromA = Fixtures.login(onA, Fixtures.ADMIN_EMAIL, Fixtures.ADMIN_PASSWORD);
            onB.as(fromA).get(200, "setup/admin_checklist");
            onB.as(fromA).delete(204, "session");
            assertEquals("Unauthenticated", onA.as(fromA).get(401, "setup/admin_checklist").body());
            onA.as(fromA).delete(404, "session");
            assertFalse(onA.as(fromA).get(200, "session/properties").json().has("site-uuid"));
            onA.as(session).get(200, "setup/admin_checklist");
        }
    }
}
