package io.quarry.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.setting.Settings;
import io.quarry.web.Cookies;
import io.quarry.web.param.Body;
import io.quarry.web.param.NonBlank;
import io.quarry.web.param.ParamRule;
import io.quarry.web.param.Validation;
import io.quarry.web.security.Access;
import io.quarry.web.security.OpensSession;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code /api/session/forgot_password}, {@code reset_password} and {@code password_reset_token_valid}. */
@Path("session")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class PasswordResetResource {
    private final PasswordResetService resets;
    private final Passwords passwords;
    private final Settings settings;
    private final HttpServletRequest request;

    @Inject
    public PasswordResetResource(PasswordResetService resets, Passwords passwords, Settings settings,
                                 @Context HttpServletRequest request) {
        this.resets = resets;
        this.passwords = passwords;
        this.settings = settings;
        this.request = request;
    }

    @POST
    @Path("forgot_password")
    @Access(Access.Level.PUBLIC)
    public Response forgotPassword(JsonNode json) {
        Body body = Body.of(json);
        String email = body.email("email");
        body.throwIfInvalid();
        resets.forgotPassword(email, request.getRemoteAddr(), SiteUrls.configured(settings));
        return Response.noContent().build();
    }

    @GET
    @Path("password_reset_token_valid")
    @Access(Access.Level.PUBLIC)
    public Map<String, Object> tokenValid(@QueryParam("token") NonBlank token) {
        Validation.required("token", token, ParamRule.NON_BLANK);
        return Map.of("valid", resets.isValid(token.value()));
    }

    @POST
    @Path("reset_password")
    @Access(Access.Level.PUBLIC)
    @OpensSession
    public Response resetPassword(JsonNode json) {
        Body body = Body.of(json);
        String token = body.nonBlank("token");
        JsonNode password = body.get("password");
        // Metabase's ValidPassword: one message whether the password is missing, not a string, short or common.
        if (!password.isTextual() || !passwords.isValid(password.asText())) {
            body.addError("password", ParamRule.PASSWORD.message(false),
                    ParamRule.PASSWORD.specific(password.isTextual() ? password.asText() : password.isNull() ? null : password.toString()));
        }
        body.throwIfInvalid();
        String sessionId = resets.resetPassword(token, password.asText(), SessionService.RequestInfo.of(request));
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("success", true);
        result.put("session_id", sessionId);
        return Cookies.withSession(Response.ok(result), sessionId, null, settings.string("session-cookie-samesite"), request).build();
    }
}
