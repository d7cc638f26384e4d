package io.quarry.web.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The interactive-embedding origins turned into a {@code frame-ancestors} source list. */
class SecurityHeadersFilterTest {
    @Test
    void originsBecomeASourceListAndAnythingElseIsLeftOut() {
        assertEquals("https://a.example.com http://*.example.org:8080 https://x.example.com:*",
                SecurityHeadersFilter.sourceList("  https://a.example.com\thttp://*.example.org:8080   https://x.example.com:* "));
        assertEquals("http://[::1]:3000", SecurityHeadersFilter.sourceList("http://[::1]:3000"));
        assertNull(SecurityHeadersFilter.sourceList(null));
        assertNull(SecurityHeadersFilter.sourceList("   "));
        assertNull(SecurityHeadersFilter.sourceList("'self'"), "keywords are not origins");
        assertNull(SecurityHeadersFilter.sourceList("https://a.example.com;script-src"), "no second directive");
        assertEquals("https://b.example.com", SecurityHeadersFilter.sourceList("https://a.example.com,evil https://b.example.com"));
        assertEquals("https://a.example.com", SecurityHeadersFilter.sourceList("https://a.example.com\r\nSet-Cookie: x=1"),
                "no header splitting");
        assertEquals("app.example.com *", SecurityHeadersFilter.sourceList("app.example.com * https://a/b?c"));
    }
}
