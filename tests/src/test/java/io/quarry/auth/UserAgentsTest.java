package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class UserAgentsTest {
    @Test
    void browsers() {
        assertEquals("Browser (Firefox/Linux)",
                UserAgents.describe("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"));
        assertEquals("Browser (Chrome/Windows)", UserAgents.describe(
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"));
        assertEquals("Browser (Edge/Windows)", UserAgents.describe(
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0"));
        assertEquals("Browser (Safari/Mac OS X)", UserAgents.describe(
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15"));
        assertEquals("Mobile Browser (Safari/iOS)", UserAgents.describe(
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"));
        assertEquals("Mobile Browser (Chrome/Android)", UserAgents.describe(
                "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"));
    }

    @Test
    void programs() {
        assertEquals("Library (curl/Unknown OS)", UserAgents.describe("curl/8.5.0"));
        assertEquals("Library (Java-http-client/Unknown OS)", UserAgents.describe("Java-http-client/17.0.12"));
        assertEquals("Unknown device type (QuarryTest/Unknown OS)", UserAgents.describe("QuarryTest/1.0"));
    }

    @Test
    void nothingToDescribe() {
        assertNull(UserAgents.describe(null));
        assertNull(UserAgents.describe("  "));
    }
}
