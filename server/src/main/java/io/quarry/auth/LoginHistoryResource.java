package io.quarry.auth;

import io.quarry.web.security.Access;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/** {@code /api/login-history}: the caller's own sign-ins. */
@Path("login-history")
@Produces(MediaType.APPLICATION_JSON)
public final class LoginHistoryResource {
    private final LoginHistory history;
    private final Caller caller;

    @Inject
    public LoginHistoryResource(LoginHistory history, Caller caller) {
        this.history = history;
        this.caller = caller;
    }

    @GET
    @Path("current")
    @Access(Access.Level.USER)
    public List<Map<String, Object>> current() {
        return history.of(caller.id());
    }
}
