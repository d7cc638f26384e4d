package io.quarry.setup;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.auth.Passwords;
import io.quarry.auth.SessionResource;
import io.quarry.auth.SessionService;
import io.quarry.setting.Settings;
import io.quarry.user.User;
import io.quarry.user.UserService;
import io.quarry.web.Cookies;
import io.quarry.web.param.Body;
import io.quarry.web.param.NonBlank;
import io.quarry.web.param.ParamRule;
import io.quarry.web.param.Validation;
import io.quarry.web.security.Access;
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
import java.util.Map;

/** {@code /api/setup}: first-run setup, gated by the setup token. */
@Path("setup")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class SetupResource {
    private final SetupService setup;
    private final SessionService sessions;
    private final Passwords passwords;
    private final Settings settings;
    private final HttpServletRequest request;

    @Inject
    public SetupResource(SetupService setup, SessionService sessions, Passwords passwords, Settings settings,
                         @Context HttpServletRequest request) {
        this.setup = setup;
        this.sessions = sessions;
        this.passwords = passwords;
        this.settings = settings;
        this.request = request;
    }

    /**
     * Accepts both the spec's flat body ({@code email}, {@code password}, {@code site_name}, ...) and the nested body real
     * clients send ({@code user: {...}, prefs: {...}, invite: {...}, database: {...}}).
     */
    @POST
    @Access(Access.Level.PUBLIC)
    public Response setup(JsonNode json) {
        Body body = Body.of(json);
        Body user = body.has("user") ? body.nested("user") : body;
        Body prefs = body.has("prefs") ? body.nested("prefs") : body;
        String token = body.nonBlank("token");
        String email = user.email("email");
        String password = user.nonBlank("password");
        String firstName = user.optNonBlank("first_name");
        String lastName = user.optNonBlank("last_name");
        String siteName = prefs.nonBlank("site_name");
        String siteLocale = prefs.optLocale("site_locale");
        Boolean allowTracking = prefs.optBool("allow_tracking");
        body.throwIfInvalid();
        user.throwIfInvalid();
        prefs.throwIfInvalid();
        setup.checkToken(token);
        setup.checkNotSetUp();
        passwords.requireValid("password", password);
        if (body.hasValue("database") || body.hasValue("engine")) {
            throw io.quarry.web.error.ApiException.invalidField("engine", "Adding a database during setup is not supported yet.");
        }
        User admin = setup.setup(new UserService.NewUser(email, firstName, lastName, password, true, null, null),
                new SetupService.SitePrefs(siteName, siteLocale, allowTracking));
        String session = sessions.open(admin.id, SessionResource.requestInfo(request));
        return Cookies.withSession(Response.ok(Map.of("id", session)), session, null,
                settings.string("session-cookie-samesite"), request).build();
    }

    @GET
    @Path("user_defaults")
    @Access(Access.Level.PUBLIC)
    public Map<String, Object> userDefaults(@QueryParam("token") NonBlank token) {
        Validation.required("token", token, ParamRule.NON_BLANK);
        return setup.userDefaults(token.value());
    }
}
