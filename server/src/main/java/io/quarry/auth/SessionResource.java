package io.quarry.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.core.Caller;
import io.quarry.setting.Settings;
import io.quarry.web.Cookies;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Body;
import io.quarry.web.security.Access;
import io.quarry.web.security.OpensSession;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/** {@code /api/session}: sign in and out, and what a client may know before and after signing in. */
@Path("session")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class SessionResource {
    private final SessionService sessions;
    private final Settings settings;
    private final Caller caller;
    private final HttpServletRequest request;

    @Inject
    public SessionResource(SessionService sessions, Settings settings, Caller caller, @Context HttpServletRequest request) {
        this.sessions = sessions;
        this.settings = settings;
        this.caller = caller;
        this.request = request;
    }

    @POST
    @Access(Access.Level.PUBLIC)
    @OpensSession
    public Response login(JsonNode json) {
        Body body = Body.of(json);
        String username = body.nonBlank("username");
        String password = body.nonBlank("password");
        Boolean remember = body.optBool("remember");
        body.throwIfInvalid();
        String id = sessions.login(username, password, SessionService.RequestInfo.of(request));
        return sessionResponse(Response.ok(Map.of("id", id)), id, Boolean.TRUE.equals(remember));
    }

    @DELETE
    @Access(Access.Level.PUBLIC)
    public Response logout() {
        if (caller.sessionKey() == null || !sessions.logout(caller.sessionKey())) {
            throw ApiException.notFound();
        }
        return Cookies.clearSession(Response.noContent(), request).build();
    }

    @GET
    @Path("properties")
    @Access(Access.Level.PUBLIC)
    public Map<String, Object> properties() {
        return settings.readableBy(caller);
    }

    /** The 200 that opens a session: the id in the body and the cookie beside it. */
    Response sessionResponse(Response.ResponseBuilder builder, String sessionId, boolean remember) {
        Long maxAge = remember && !settings.bool("session-cookies") ? sessions.maxAge().toSeconds() : null;
        return Cookies.withSession(builder, sessionId, maxAge, settings.string("session-cookie-samesite"), request).build();
    }
}
