package io.quarry.setup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.auth.PasswordResetService;
import io.quarry.auth.Passwords;
import io.quarry.auth.SessionService;
import io.quarry.auth.SiteUrls;
import io.quarry.core.AppConfig;
import io.quarry.core.Json;
import io.quarry.driver.ConnectionTester;
import io.quarry.driver.Drivers;
import io.quarry.mail.Mailer;
import io.quarry.setting.Settings;
import io.quarry.sync.SyncService;
import io.quarry.user.User;
import io.quarry.user.UserService;
import io.quarry.warehouse.DatabaseService;
import io.quarry.warehouse.NewDatabases;
import io.quarry.warehouse.SampleDatabaseService;
import io.quarry.web.Cookies;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Body;
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
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code /api/setup}: first-run setup, gated by the setup token. */
@Path("setup")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class SetupResource {
    private static final Logger log = LoggerFactory.getLogger(SetupResource.class);

    private final SetupService setup;
    private final SessionService sessions;
    private final Passwords passwords;
    private final Settings settings;
    private final PasswordResetService resets;
    private final Mailer mailer;
    private final AppConfig config;
    private final HttpServletRequest request;
    private final DatabaseService databases;
    private final SampleDatabaseService sample;
    private final Drivers drivers;
    private final SyncService sync;

    @Inject
    public SetupResource(SetupService setup, SessionService sessions, Passwords passwords, Settings settings,
                         PasswordResetService resets, Mailer mailer, AppConfig config, @Context HttpServletRequest request,
                         DatabaseService databases, SampleDatabaseService sample, Drivers drivers, SyncService sync) {
        this.databases = databases;
        this.sample = sample;
        this.drivers = drivers;
        this.sync = sync;
        this.setup = setup;
        this.sessions = sessions;
        this.passwords = passwords;
        this.settings = settings;
        this.resets = resets;
        this.mailer = mailer;
        this.config = config;
        this.request = request;
    }

    /**
     * Accepts both the spec's flat body ({@code email}, {@code password}, {@code site_name}, ...) and the nested body real
     * clients send ({@code user: {...}, prefs: {...}, invite: {...}, database: {...}}). A database given (nested
     * {@code database: {engine, name, details, ...}} or flat {@code engine}, {@code name}, {@code details}) is tried for
     * real before anything is written, and added once the administrator exists. The sample database is added too, in
     * the background, unless {@code MB_LOAD_SAMPLE_CONTENT=false}.
     */
    @POST
    @Access(Access.Level.PUBLIC)
    @OpensSession
    public Response setup(JsonNode json) {
        Body body = Body.of(json);
        Body user = (body.has("user") ? body.nested("user") : body).storedIn("core_user", "email", "first_name", "last_name");
        Body prefs = body.has("prefs") ? body.nested("prefs") : body;
        String token = body.nonBlank("token");
        String email = user.email("email");
        String password = user.nonBlank("password");
        String firstName = user.optNonBlank("first_name");
        String lastName = user.optNonBlank("last_name");
        String siteName = prefs.nonBlank("site_name");
        String siteLocale = prefs.optLocale("site_locale");
        Boolean allowTracking = prefs.optBool("allow_tracking");
        Body invite = inviteOf(body);
        boolean withDatabase = body.hasValue("database") || body.hasValue("engine");
        Body databaseBody = (body.hasValue("database") ? body.nested("database") : body).storedIn("metabase_database", "name");
        NewDatabases.NewDatabase database = withDatabase ? NewDatabases.NewDatabase.read(databaseBody, drivers) : null;
        if (databaseBody != body || !withDatabase) {
            // the spec's top-level schedules and auto_run_queries, for the database given nested (checked either way)
            Map<String, Object> schedules = NewDatabases.schedules(body);
            Boolean autoRun = body.optBool("auto_run_queries");
            if (database != null && (database.schedules() == null || database.autoRunQueries() == null)) {
                database = new NewDatabases.NewDatabase(database.engine(), database.name(), database.details(),
                        database.isFullSync(), database.isOnDemand(), database.schedules() != null ? database.schedules() : schedules,
                        database.autoRunQueries() != null ? database.autoRunQueries() : autoRun, database.cacheTtl(),
                        database.connectionSource());
            }
        }
        String invitedEmail = invite.optEmail("invited_email");
        String invitedFirstName = invite.optNonBlank("invited_first_name");
        String invitedLastName = invite.optNonBlank("invited_last_name");
        Body.throwIfInvalid(body, user, prefs, invite, databaseBody);
        setup.checkToken(token);
        setup.checkNotSetUp();
        passwords.requireValid("password", password);
        if (invitedEmail != null && invitedEmail.trim().equalsIgnoreCase(email.trim())) {
            throw ApiException.invalidField("invited_email", "Email address already in use.");
        }
        if (database != null) {
            // before anything is written: a database that cannot be reached fails setup as a whole
            databases.requireConnection(database.engine(), database.details());
        }
        UserService.NewUser invitee = null;
        if (invitedEmail != null) {
            // As Metabase: the invitation needs email to reach anyone, so without it there is none (and it is logged).
            if (mailer.configured()) {
                invitee = new UserService.NewUser(invitedEmail, invitedFirstName, invitedLastName, null, true, null, null);
            } else {
                log.warn("Setup asked to invite {} but email is not configured: no invitation was made", invitedEmail);
            }
        }
        SetupService.Created created = setup.setup(new UserService.NewUser(email, firstName, lastName, password, true, null, null),
                new SetupService.SitePrefs(siteName, siteLocale, allowTracking), invitee, resets::issueToken);
        User admin = created.admin();
        if (database != null) {
            NewDatabases.store(database, databases, sync, admin.id);
        }
        String sampleProblem = null;
        if (sample.loadByDefault()) {
            sampleProblem = sample.problem();
            if (sampleProblem == null) {
                sample.addInBackground();
            } else {
                log.warn("Setup done without the sample database: {}", sampleProblem);
            }
        }
        if (settings.string("site-url") == null) {
            // The setup request comes from the token holder: its address is trusted as the site URL, which emailed
            // links (password resets asked for anonymously) are built on from now on.
            settings.set("site-url", SiteUrls.fromRequest(request));
        }
        if (created.invitee() != null) {
            resets.sendInvite(created.invitee(), admin.commonName(), created.inviteToken(), SiteUrls.of(settings, request));
        }
        String session = sessions.open(admin.id, SessionService.RequestInfo.of(request));
        Map<String, Object> answer = new java.util.LinkedHashMap<>();
        answer.put("id", session);
        if (sampleProblem != null) {
            // Quarry's own key: setup succeeded, but the person should know why the sample database is missing.
            answer.put("sample_database_error", sampleProblem);
        }
        return Cookies.withSession(Response.ok(answer), session, null,
                settings.string("session-cookie-samesite"), request).build();
    }

    /**
     * The second administrator to invite, from the nested {@code invite} object real clients send or the spec's flat
     * {@code invited_*} keys, as one body whose errors name the {@code invited_*} keys either way.
     */
    private static Body inviteOf(Body body) {
        ObjectNode flat = Json.object();
        JsonNode nested = body.get("invite");
        if (nested.isObject()) {
            copy(nested, "email", flat, "invited_email");
            copy(nested, "first_name", flat, "invited_first_name");
            copy(nested, "last_name", flat, "invited_last_name");
        } else {
            if (!nested.isNull()) {
                body.nested("invite"); // records "Value must be a map."
            }
            for (String key : new String[]{"invited_email", "invited_first_name", "invited_last_name"}) {
                copy(body.raw(), key, flat, key);
            }
        }
        return Body.of(flat);
    }

    private static void copy(JsonNode from, String key, ObjectNode to, String as) {
        if (from.has(key)) {
            to.set(as, from.get(key));
        }
    }

    /** Metabase's user defaults: configured with MB_USER_DEFAULTS, which holds its own token (not the setup token). */
    @GET
    @Path("user_defaults")
    @Access(Access.Level.PUBLIC)
    public Map<String, Object> userDefaults(@QueryParam("token") String token) {
        return SetupService.userDefaults(config.get("MB_USER_DEFAULTS"), token);
    }

    /**
     * Tests a database connection during setup. Body as real clients send it, {@code {"token", "details": {"engine",
     * "details"}}}, or flat ({@code engine}, {@code details}, {@code token}). 200 {@code {"valid": true}} when the
     * database answers; otherwise 400 with Metabase's {@code {"message", "errors": {field: hint}}}. Once setup is done,
     * 403 whatever the fields (none is read, nothing connects): administrators test connections through
     * {@code POST /api/database/validate}.
     */
    @POST
    @Path("validate")
    @Access(Access.Level.PUBLIC)
    public Map<String, Object> validate(JsonNode json) {
        Body body = Body.of(json); // a body that is no JSON object is a 400 on every endpoint
        setup.checkValidateOpen();
        String token = body.nonBlank("token");
        body.throwIfInvalid();
        setup.checkToken(token);
        JsonNode nested = body.get("details");
        Body database = nested.isObject() && nested.has("engine") ? body.nested("details") : body;
        String engine = NewDatabases.engine(database, drivers, false);
        Map<String, Object> details = database.map("details");
        database.throwIfInvalid();
        ConnectionTester.Failure failure = databases.testConnection(engine, details);
        if (failure != null) {
            throw failure.toException();
        }
        return Map.of("valid", true);
    }

    @GET
    @Path("admin_checklist")
    @Access(Access.Level.SUPERUSER)
    public List<Map<String, Object>> adminChecklist() {
        return setup.adminChecklist(config.dbType == AppConfig.DbType.H2);
    }
}
