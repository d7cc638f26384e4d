package io.quarry.web.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Origins compared as browsers compare them, and the anti-CSRF token derived from a session id. */
class RequestOriginsTest {
    @Test
    void originsAreNormalisedWholeSchemeHostAndPort() {
        assertEquals("http://127.0.0.1:3000", RequestOrigins.normalize("http://127.0.0.1:3000"));
        assertEquals("https://bi.example.com", RequestOrigins.normalize("HTTPS://BI.Example.com:443"));
        assertEquals("http://bi.example.com", RequestOrigins.normalize("http://bi.example.com:80/quarry/"));
        assertEquals("https://bi.example.com:80", RequestOrigins.normalize("https://bi.example.com:80"));
        assertEquals("http://[::1]:8080", RequestOrigins.normalize("http://[::1]:8080"));
        assertNotEquals(RequestOrigins.normalize("http://127.0.0.1:3000"), RequestOrigins.normalize("http://127.0.0.1:3001"),
                "another port is another origin");
        assertNotEquals(RequestOrigins.normalize("http://bi.example.com"), RequestOrigins.normalize("https://bi.example.com"));
        for (String notAnOrigin : new String[]{null, "", "null", "bi.example.com", "file:///etc/passwd", "http://", "http://a b"}) {
            assertNull(RequestOrigins.normalize(notAnOrigin), String.valueOf(notAnOrigin));
        }
    }

    @Test
    void theTokenIsPerSessionStableAndCheckedWhole() {
        String session = "7f1f7c52-3d2c-4c7e-9a55-0a3b8a7d8e11";
        String token = AntiCsrfToken.of(session);
        assertTrue(token.matches("[0-9a-f]{32}"), token);
        assertEquals(token, AntiCsrfToken.of(session));
        assertNotEquals(token, AntiCsrfToken.of("7f1f7c52-3d2c-4c7e-9a55-0a3b8a7d8e12"));
        assertTrue(AntiCsrfToken.matches(session, token));
        assertFalse(AntiCsrfToken.matches(session, token.substring(0, 31)));
        assertFalse(AntiCsrfToken.matches(session, null));
        assertFalse(AntiCsrfToken.matches(null, token));
        assertFalse(AntiCsrfToken.matches(session, ""));
    }
}
