package io.quarry.user;

import io.quarry.core.Caller;
import io.quarry.mail.Mailer;
import io.quarry.web.error.ApiException;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/email/test}: Metabase's "Send test email" button. Sends a short message with the saved SMTP settings
 * to the signed-in admin's own address; {@code {"ok": true}} when the server took it, a 400 with the reason otherwise
 * (not configured, connection or login refused). It lives in the user module because it needs the caller's address.
 */
@Path("email/test")
@Produces(MediaType.APPLICATION_JSON)
public final class TestEmailResource {
    private final Mailer mailer;
    private final UserService users;
    private final Caller caller;

    @Inject
    public TestEmailResource(Mailer mailer, UserService users, Caller caller) {
        this.mailer = mailer;
        this.users = users;
        this.caller = caller;
    }

    @POST
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> send() {
        User me = users.find(caller.id());
        if (me == null) {
            throw ApiException.notFound();
        }
        try {
            mailer.send(List.of(me.email), "Quarry test email",
                    "<p>Your Quarry emails are working — hooray!</p>");
        } catch (ApiException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        return Map.of("ok", true);
    }
}
