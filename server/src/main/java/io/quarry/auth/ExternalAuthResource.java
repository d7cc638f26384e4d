package io.quarry.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.setting.Settings;
import io.quarry.web.Cookies;
import io.quarry.web.param.Body;
import io.quarry.web.security.Access;
import io.quarry.web.security.OpensSession;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/** {@code POST /api/session/external_auth}: sign in with an identity provider's JWT. */
@Path("session/external_auth")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class ExternalAuthResource {
    private final ExternalAuthService externalAuth;
    private final Settings settings;
    private final HttpServletRequest request;

    @Inject
    public ExternalAuthResource(ExternalAuthService externalAuth, Settings settings, @Context HttpServletRequest request) {
        this.externalAuth = externalAuth;
        this.settings = settings;
        this.request = request;
    }

    @POST
    @Access(Access.Level.PUBLIC)
    @OpensSession
    public Response login(JsonNode json) {
        Body body = Body.of(json);
        String token = body.nonBlank("token");
        body.throwIfInvalid();
        String sessionId = externalAuth.login(token, SessionService.RequestInfo.of(request));
        return Cookies.withSession(Response.ok(Map.of("id", sessionId)), sessionId, null,
                settings.string("session-cookie-samesite"), request).build();
    }
}
