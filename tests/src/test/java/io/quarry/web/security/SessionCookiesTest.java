package io.quarry.web.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SessionCookiesTest {

    @Test
    void twoContextsGiveBothSessionsMostSpecificFirst() {
        // What Chromium sends to /quarry when signed in to ROOT too: the /quarry cookie (longer path) comes first.
        String header = "metabase.DEVICE=d1; metabase.SESSION=quarry-ctx; metabase.SESSION=root-ctx; other=x";
        assertEquals(List.of("quarry-ctx", "root-ctx"), Credentials.sessionCookies(header));
    }

    @Test
    void quotedEmptyAndMissingValues() {
        assertEquals(List.of("abc"), Credentials.sessionCookies("metabase.SESSION=\"abc\""));
        assertEquals(List.of(), Credentials.sessionCookies("metabase.SESSION=; metabase.SESSIONX=y"));
        assertEquals(List.of(), Credentials.sessionCookies(null));
    }
}
