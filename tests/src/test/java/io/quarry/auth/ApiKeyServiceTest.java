package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.quarry.appdb.Db;
import java.time.Clock;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class ApiKeyServiceTest {
    @Test
    void keysAreMbPlusBase64OfThirtyTwoRandomBytes() {
        String key = ApiKeyService.newKey();
        assertEquals(47, key.length());
        assertTrue(key.startsWith("mb_"));
        assertEquals(32, Base64.getDecoder().decode(key.substring(3)).length);
        assertNotEquals(key, ApiKeyService.newKey());
    }

    @Test
    void maskShowsOnlyThePrefix() {
        String masked = ApiKeyService.mask("mb_AbCd");
        assertEquals(47, masked.length());
        assertEquals("mb_AbCd" + "*".repeat(40), masked);
    }

    @Test
    void onlyTheGeneratedShapeIsWellFormed() {
        String key = ApiKeyService.newKey();
        assertTrue(ApiKeyService.wellFormed(key));
        assertFalse(ApiKeyService.wellFormed(null));
        assertFalse(ApiKeyService.wellFormed(""));
        assertFalse(ApiKeyService.wellFormed("mb_short"));
        assertFalse(ApiKeyService.wellFormed(key + "A"), "one character too many");
        assertFalse(ApiKeyService.wellFormed(key.substring(0, 46)), "no padding");
        assertFalse(ApiKeyService.wellFormed("mx_" + key.substring(3)), "another prefix");
        assertFalse(ApiKeyService.wellFormed(key.substring(0, 10) + "-" + key.substring(11)), "not Base64's alphabet");
        assertFalse(ApiKeyService.wellFormed("mb_" + "A".repeat(251)), "Metabase's longest key, not one Quarry makes");
    }

    /** A malformed key is refused before anything else: the database (null here) is never asked, nothing is hashed. */
    @Test
    void aMalformedKeyCostsNoDatabaseAndNoBcrypt() {
        ApiKeyService keys = new ApiKeyService(null, Clock.systemUTC(), true);
        for (String bogus : new String[]{"mb_", "mb_notAKeyAtAllButLongEnough000000000000000000", "mb_" + "x".repeat(200),
                "mb_" + "%".repeat(43) + "=", "Bearer mb_abc"}) {
            assertNull(keys.authenticate(bogus, "10.0.0.1"));
        }
        assertEquals(0, keys.hashChecks());
    }

    /**
     * Well-formed unknown keys cost one (useless) bcrypt each until the address has failed {@code FAILURE_THRESHOLD}
     * times; then none, while another address still gets its keys checked.
     */
    @Test
    void failedKeysAreThrottledPerAddress() {
        Db db = mock(Db.class);
        when(db.with(eq(ApiKeyMapper.class), any())).thenReturn(null);
        ApiKeyService keys = new ApiKeyService(db, Clock.systemUTC(), true);
        for (int i = 0; i < ApiKeyService.FAILURE_THRESHOLD; i++) {
            assertNull(keys.authenticate(ApiKeyService.newKey(), "10.0.0.1"));
        }
        assertEquals(ApiKeyService.FAILURE_THRESHOLD, keys.hashChecks());
        for (int i = 0; i < 5; i++) {
            assertNull(keys.authenticate(ApiKeyService.newKey(), "10.0.0.1"));
        }
        assertEquals(ApiKeyService.FAILURE_THRESHOLD, keys.hashChecks(), "a throttled address costs no bcrypt");
        assertNull(keys.authenticate(ApiKeyService.newKey(), "10.0.0.2"));
        assertEquals(ApiKeyService.FAILURE_THRESHOLD + 1, keys.hashChecks(), "another address is checked as before");

        ApiKeyService unthrottled = new ApiKeyService(db, Clock.systemUTC(), false);
        for (int i = 0; i < ApiKeyService.FAILURE_THRESHOLD + 2; i++) {
            unthrottled.authenticate(ApiKeyService.newKey(), "10.0.0.1");
        }
        assertEquals(ApiKeyService.FAILURE_THRESHOLD + 2, unthrottled.hashChecks(), "MB_DISABLE_SESSION_THROTTLE switches it off");
    }
}
