package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarry.testing.Api;
import io.quarry.testing.Fixtures;
import io.quarry.testing.InProcess;
import io.quarry.testing.Mailbox;
import io.quarry.testing.TestServer;
import jakarta.mail.internet.MimeMessage;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Reset-link poisoning: an anonymous caller chooses the Host header of its request, so the link in a reset email must
 * come from the site URL — which setup records from the administrator's own request when none is configured.
 */
class ResetLinkHostIT {
    @Test
    void aForgedHostHeaderNeverReachesTheResetLink() throws Exception {
        try (Mailbox mail = new Mailbox(); TestServer server = TestServer.start(mail.config())) {
            Api api = server.api();
            String admin = Fixtures.setUp(api);
            String siteUrl = api.as(admin).get(200, "session/properties").json().get("site-url").asText();
            assertEquals(server.base.toString().replaceAll("/$", ""), siteUrl, "setup records the site URL it was reached at");
            InProcess.createUser(server, "victim@example.com", "Victim-passw0rd", false);

            String body = "{\"email\":\"victim@example.com\"}";
            try (Socket socket = new Socket(server.base.getHost(), server.base.getPort())) {
                OutputStream out = socket.getOutputStream();
                out.write(("POST /api/session/forgot_password HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String status = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).split("\r\n")[0];
                assertEquals("HTTP/1.1 204 No Content", status);
            }
            MimeMessage email = mail.await(1)[0];
            String html = Mailbox.html(email);
            assertFalse(html.contains("evil.example"), html);
            assertTrue(html.contains(siteUrl + "/auth/reset_password/" + Mailbox.resetToken(email)), html);
        }
    }
}
