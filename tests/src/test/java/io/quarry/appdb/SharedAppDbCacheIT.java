package io.quarry.appdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.PostgresTargets;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two instances on one PostgreSQL application database (in both test passes: the embedded PostgreSQL): what one
 * caches (settings, sessions, collection rights) follows what the other changes — the writer sees its change at once,
 * the other once its revision check comes round (no time is asserted: the reader is polled until it agrees, within a
 * deadline far beyond the 1-second check interval).
 */
class SharedAppDbCacheIT {
    private static final String PASSWORD = "Shared-cache-pw-1";
    private static TestServer a;
    private static TestServer b;
    private static Api adminOnA;
    private static Api adminOnB;
    private static String adminSession;

    @BeforeAll
    static void start() {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("MB_DB_TYPE", "postgres");
        config.putAll(TestAppDb.sharedPostgres(PostgresTargets.create("shared_appdb")));
        config.put("MB_CACHE_REVISION_CHECK_INTERVAL_MS", "1000");
        a = TestServer.startWith(config);
        adminSession = Fixtures.setUp(a.api());
        b = TestServer.startWith(config);
        adminOnA = a.api().as(adminSession);
        adminOnB = b.api().as(adminSession);
    }

    @AfterAll
    static void stop() {
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
    }

    /** Polls until {@code status} answers {@code expected}; returns the last answer. */
    private static int eventually(int expected, IntSupplier status) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        int last = status.getAsInt();
        while (last != expected && System.nanoTime() < deadline) {
            Thread.sleep(100);
            last = status.getAsInt();
        }
        return last;
    }

    private static Map<String, Object> value(Object v) {
        Map<String, Object> body = new HashMap<>();
        body.put("value", v);
        return body;
    }

    @Test
    void aSettingChangedOnOneInstanceIsSeenByTheOther() throws Exception {
        String before = adminOnB.get(200, "setting/site-name").body();
        adminOnA.put(204, "setting/site-name", value("Changed on A"));
        // the writer at once
        assertEquals("\"Changed on A\"", adminOnA.get(200, "setting/site-name").body());
        assertEquals(1, eventually(1, () -> adminOnB.get(200, "setting/site-name").body().equals("\"Changed on A\"") ? 1 : 0),
                "B still answered " + before);
        // and back, the other way round
        adminOnB.put(204, "setting/site-name", value("Changed on B"));
        assertEquals("\"Changed on B\"", adminOnB.get(200, "setting/site-name").body());
        assertEquals(1, eventually(1, () -> adminOnA.get(200, "setting/site-name").body().equals("\"Changed on B\"") ? 1 : 0));
    }

    @Test
    void aCollectionRightRevokedOnOneInstanceIsRevokedOnTheOther() throws Exception {
        String email = "shared-" + System.nanoTime() + "@example.com";
        adminOnA.post(200, "user", Map.of("email", email, "first_name", "Sam", "last_name", "Shared", "password", PASSWORD));
        Api userOnB = b.api().as(Fixtures.login(a.api(), email, PASSWORD));
        long collection = adminOnA.post(200, "collection", Map.of("name", "Shared rights")).json().get("id").asLong();
        userOnB.get(200, "collection/" + collection); // B caches the user's right
        long revision = adminOnA.get(200, "collection/graph").json().get("revision").asLong();
        adminOnA.put(200, "collection/graph", Map.of("revision", revision, "groups",
                Map.of("1", Map.of(String.valueOf(collection), "none"))));
        assertEquals(403, eventually(403, () -> userOnB.call("GET", "collection/" + collection, null).status()));
    }

    @Test
    void aSessionEndedOnOneInstanceEndsOnTheOtherAndADeactivatedUserIsOut() throws Exception {
        String email = "leaving-" + System.nanoTime() + "@example.com";
        long userId = adminOnA.post(200, "user", Map.of("email", email, "first_name", "Lee", "last_name", "Leaving", "password",
                PASSWORD)).json().get("id").asLong();
        String first = Fixtures.login(a.api(), email, PASSWORD);
        String second = Fixtures.login(a.api(), email, PASSWORD);
        b.api().as(first).get(200, "user/current"); // B caches both sessions
        b.api().as(second).get(200, "user/current");
        a.api().as(first).delete(204, "session");
        assertEquals(401, a.api().as(first).call("GET", "user/current", null).status(), "the writer at once");
        assertEquals(401, eventually(401, () -> b.api().as(first).call("GET", "user/current", null).status()));
        b.api().as(second).get(200, "user/current");
        adminOnA.delete(200, "user/" + userId);
        assertEquals(401, eventually(401, () -> b.api().as(second).call("GET", "user/current", null).status()));
    }
}
