package io.quarry.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.Mailbox;
import io.quarry.testing.TestAppDb;
import io.quarry.testing.TestServer;
import jakarta.mail.internet.MimeMessage;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Deployed under {@code /quarry}: the site URL, the session cookie and e-mailed links all carry the context path. */
class ContextPathIT {
    @Test
    void siteUrlCookieAndLinksIncludeTheContextPath() throws Exception {
        Map<String, String> config = new LinkedHashMap<>(TestAppDb.fresh());
        try (Mailbox mail = new Mailbox()) {
            config.putAll(mail.config());
            try (TestServer server = TestServer.startWith(config, webapp -> webapp.setContextPath("/quarry"))) {
                Api api = server.api();
                String admin = Fixtures.setUp(api);
                String siteUrl = api.as(admin).get(200, "session/properties").json().get("site-url").asText();
                assertEquals("http://127.0.0.1:" + server.base.getPort() + "/quarry", siteUrl);

                Api.Res login = api.post(200, "session", Map.of("username", Fixtures.ADMIN_EMAIL, "password", Fixtures.ADMIN_PASSWORD));
                String cookie = login.header("Set-Cookie");
                assertTrue(cookie.contains("; Path=/quarry;"), cookie);
                String id = login.json().get("id").asText();
                for (String cleared : api.as(id).delete(204, "session").headerValues("Set-Cookie")) {
                    assertTrue(cleared.contains("; Path=/quarry;"), cleared);
                }

                api.post(204, "session/forgot_password", Map.of("email", Fixtures.ADMIN_EMAIL));
                MimeMessage email = mail.await(1)[0];
                String html = Mailbox.html(email);
                assertTrue(html.contains(siteUrl + "/auth/reset_password/" + Mailbox.resetToken(email)), html);
            }
        }
    }
}
