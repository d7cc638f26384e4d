package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.TestServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two Quarry contexts on one host (ROOT and {@code /quarry}): a browser signed in to both sends two
 * {@code metabase.SESSION} cookies to each, the more specific path first. Either order must sign the caller in with
 * the session this instance knows, and a session written while browsing must be the one this context set.
 */
class TwoContextCookiesIT {
    @Test
    void theSessionThisInstanceKnowsIsUsedWhicheverCookieComesFirst() {
        try (TestServer server = TestServer.start(Map.of())) {
            Api api = server.api();
            String admin = Fixtures.setUp(api);
            String foreign = "5c1c3b1e-0000-4000-8000-000000000000";

            Api mineFirst = api.withHeader("Cookie", "metabase.SESSION=" + admin + "; metabase.SESSION=" + foreign);
            assertEquals(Fixtures.ADMIN_EMAIL, mineFirst.get(200, "user/current").json().get("email").asText());
            Api mineLast = api.withHeader("Cookie", "metabase.DEVICE=x; metabase.SESSION=" + foreign + "; metabase.SESSION=" + admin);
            assertEquals(Fixtures.ADMIN_EMAIL, mineLast.get(200, "user/current").json().get("email").asText());

            assertEquals("Unauthenticated", api.withHeader("Cookie", "metabase.SESSION=" + foreign).get(401, "user/current").body());
        }
    }
}
