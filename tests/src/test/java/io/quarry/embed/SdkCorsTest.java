package io.quarry.embed;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Origin entries of {@code embedding-app-origins-sdk}, as Metabase matches them. */
class SdkCorsTest {
    @Test
    void entriesMatchHostPortAndScheme() {
        assertTrue(SdkCors.matches("example.com", "https://example.com"));
        assertTrue(SdkCors.matches("example.com", "http://example.com"));
        assertFalse(SdkCors.matches("example.com", "ftp://example.com"), "no scheme: http and https only");
        assertFalse(SdkCors.matches("example.com", "https://example.com:8443"));
        assertTrue(SdkCors.matches("example.com:*", "https://example.com:8443"));
        assertTrue(SdkCors.matches("*.example.com", "https://app.example.com"));
        assertFalse(SdkCors.matches("*.example.com", "https://example.org"));
        assertFalse(SdkCors.matches("*.example.com", "https://evilexample.com"));
        assertTrue(SdkCors.matches("*", "https://anything.net"));
        assertTrue(SdkCors.matches("https://example.com", "https://example.com"));
        assertFalse(SdkCors.matches("https://example.com", "http://example.com"), "a scheme must match exactly");
        assertTrue(SdkCors.matches("http://example.com:3000", "http://example.com:3000"));
        assertTrue(SdkCors.isLoopback("http://localhost:3000"));
        assertTrue(SdkCors.isLoopback("http://127.0.0.1:8080"));
        assertTrue(SdkCors.isLoopback("http://[::1]:5173"));
        assertFalse(SdkCors.isLoopback("http://localhost.example.com"));
    }
}
