package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarry.testing.MutableClock;
import io.quarry.web.error.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThrottleTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));

    @Test
    void checkAndRecordCountsEveryCallAndForgetsThemAfterTheWindow() {
        // forgot_password by email: 3 within a second, then refused; a second later allowed again.
        Throttle throttle = new Throttle("email", 3, 1000, clock);
        for (int i = 0; i < 3; i++) {
            throttle.checkAndRecord("a@b.co");
            clock.advance(Duration.ofMillis(100));
        }
        ApiException refused = assertThrows(ApiException.class, () -> throttle.checkAndRecord("a@b.co"));
        assertEquals(400, refused.status());
        assertEquals(Map.of("email", "Too many attempts! You must wait 15 seconds before trying again."), refused.body().get("errors"));
        throttle.checkAndRecord("other@b.co");
        clock.advance(Duration.ofMillis(1000));
        throttle.checkAndRecord("a@b.co");
    }

    @Test
    void theWaitGrowsWithEveryAttemptOverTheThreshold() {
        Throttle throttle = new Throttle("username", 2, Duration.ofHours(1).toMillis(), clock);
        throttle.record("x");
        throttle.record("x");
        assertEquals(15L, throttle.secondsToWait("x"));
        clock.advance(Duration.ofSeconds(15));
        assertNull(throttle.secondsToWait("x"));
        throttle.record("x");
        assertEquals(43L, throttle.secondsToWait("x")); // 15 s × 2^1.5 ≈ 42.4 s
        assertNull(throttle.secondsToWait("y"));
    }
}
