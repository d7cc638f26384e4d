package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.core.AppConfig;
import io.quarry.boot.Quarry;
import io.quarry.testing.MutableClock;
import io.quarry.user.User;
import io.quarry.user.UserService;
import io.quarry.web.error.ApiException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Time-dependent rules of sign-in, on the real services and a real (H2) application database, with the clock that
 * {@link Quarry} is given standing still until the test moves it.
 */
class ClockedSignInTest {
    private static final SessionService.RequestInfo REQUEST = new SessionService.RequestInfo("127.0.0.1", "test", null);
    private static final MutableClock CLOCK = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
    private static Quarry quarry;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("quarry-clock");
        Map<String, String> config = Map.of("MB_DB_FILE", dir.resolve("quarry.db").toString(), "MAX_SESSION_AGE", "60");
        quarry = new Quarry(new AppConfig(config::get), CLOCK, fraction -> { });
    }

    @AfterAll
    static void stop() {
        quarry.close();
    }

    private static User user(String email) {
        return quarry.db.tx(session -> quarry.users.insert(session,
                new UserService.NewUser(email, "Test", "User", "Sw0rdfish-42", false, null, null)));
    }

    @Test
    void aSessionLivesMaxSessionAgeMinutesFromItsCreation() {
        User user = user("session-age@example.com");
        String session = quarry.sessions.open(user.id, REQUEST);
        assertEquals(user.id, quarry.sessions.resolve(session).id);
        CLOCK.advance(Duration.ofMinutes(59).plusSeconds(59));
        assertNotNull(quarry.sessions.resolve(session), "still valid just before MAX_SESSION_AGE");
        String later = quarry.sessions.open(user.id, REQUEST);
        CLOCK.advance(Duration.ofSeconds(2));
        assertNull(quarry.sessions.resolve(session), "expired once MAX_SESSION_AGE has passed");
        assertNotNull(quarry.sessions.resolve(later), "a younger session of the same user is unaffected");
    }

    @Test
    void aResetTokenLivesResetTokenTtlHours() {
        User user = user("reset-age@example.com");
        String token = quarry.db.tx(session -> quarry.passwordResets.issueToken(session, user.id));
        assertTrue(quarry.passwordResets.isValid(token));
        CLOCK.advance(Duration.ofHours(48).minusSeconds(1));
        assertTrue(quarry.passwordResets.isValid(token), "valid just before 48 h");
        CLOCK.advance(Duration.ofSeconds(1));
        assertFalse(quarry.passwordResets.isValid(token), "expired at 48 h");
        ApiException e = assertThrows(ApiException.class, () -> quarry.passwordResets.resetPassword(token, "N3w-password", REQUEST));
        assertEquals(Map.of("password", "Invalid reset token"), e.body().get("errors"));
    }

    @Test
    void aNewResetTokenReplacesTheOldOneAndEachWorksOnce() {
        User user = user("reset-once@example.com");
        String first = quarry.db.tx(session -> quarry.passwordResets.issueToken(session, user.id));
        String second = quarry.db.tx(session -> quarry.passwordResets.issueToken(session, user.id));
        assertFalse(quarry.passwordResets.isValid(first));
        assertTrue(quarry.passwordResets.isValid(second));
        String old = quarry.sessions.open(user.id, REQUEST);
        String fresh = quarry.passwordResets.resetPassword(second, "N3w-password", REQUEST);
        assertNull(quarry.sessions.resolve(old), "other sessions end with the reset");
        assertEquals(user.id, quarry.sessions.resolve(fresh).id);
        assertThrows(ApiException.class, () -> quarry.passwordResets.resetPassword(second, "An0ther-password", REQUEST));
        assertNotNull(quarry.sessions.resolve(fresh));
    }

    @Test
    void theLoginThrottleLiftsAfterItsDelay() {
        user("throttled@example.com");
        for (int i = 0; i < 10; i++) {
            ApiException wrong = assertThrows(ApiException.class,
                    () -> quarry.sessions.login("throttled@example.com", "wrong-1", REQUEST));
            assertEquals(401, wrong.status());
        }
        ApiException throttled = assertThrows(ApiException.class,
                () -> quarry.sessions.login("throttled@example.com", "Sw0rdfish-42", REQUEST));
        assertEquals(Map.of("username", "Too many attempts! You must wait 15 seconds before trying again."), throttled.body().get("errors"));
        CLOCK.advance(Duration.ofSeconds(15));
        assertNotNull(quarry.sessions.login("throttled@example.com", "Sw0rdfish-42", REQUEST));
    }
}
