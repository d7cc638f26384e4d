package io.quarry.mail;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/** {@code /api/email}: set up (after a connection test) or forget the SMTP settings. */
@Path("email")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class EmailResource {
    private final EmailService email;
    private final Caller caller;

    @Inject
    public EmailResource(EmailService email, Caller caller) {
        this.email = email;
        this.caller = caller;
    }

    @PUT
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> update(JsonNode json) {
        return email.update(caller, json);
    }

    @DELETE
    @Access(Access.Level.SUPERUSER)
    public Response clear() {
        email.clear(caller);
        return Response.noContent().build();
    }
}
