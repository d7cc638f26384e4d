package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
