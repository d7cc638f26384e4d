package io.quarry.user;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.auth.Passwords;
import io.quarry.auth.SessionService;
import io.quarry.collection.CollectionService;
import io.quarry.core.Caller;
import io.quarry.setting.CoreSettings;
import io.quarry.setting.Settings;
import io.quarry.web.Cookies;
import io.quarry.web.error.ApiException;
import io.quarry.web.error.Checks;
import io.quarry.web.param.Body;
import io.quarry.web.param.BoolStr;
import io.quarry.web.param.Paging;
import io.quarry.web.param.ParamRule;
import io.quarry.web.param.PosInt;
import io.quarry.web.security.Access;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code /api/user}: people — listing, reading, inviting, editing, passwords, deactivation. */
@Path("user")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public final class UserResource {
    private static final Logger log = LoggerFactory.getLogger(UserResource.class);
    /** Metabase's description of the {@code user_group_memberships} schema, for a malformed value. */
    static final String MEMBERSHIPS_RULE = "nullable sequence of map where {:id -> <value must be an integer greater than zero.>, "
            + ":is_group_manager (optional) -> <boolean>}";
    private final UserService users;
    private final CollectionService collections;
    private final InviteMailer invites;
    private final SessionService sessions;
    private final Passwords passwords;
    private final Settings settings;
    private final Caller caller;
    private final HttpServletRequest request;
    private final UriInfo uri;

    @Inject
    public UserResource(UserService users, InviteMailer invites, SessionService sessions, Passwords passwords, Settings settings,
                        Caller caller, @Context HttpServletRequest request, @Context UriInfo uri,
                        CollectionService collections) {
        this.users = users;
        this.collections = collections;
        this.invites = invites;
        this.sessions = sessions;
        this.passwords = passwords;
        this.settings = settings;
        this.caller = caller;
        this.request = request;
        this.uri = uri;
    }

    /**
     * Superusers list everyone; a group manager lists the members of the groups they manage (with {@code group_id},
     * only a group they manage). {@code status} / {@code include_deactivated} are for superusers; {@code status} wins.
     */
    @GET
    @Access(Access.Level.USER)
    public Map<String, Object> list(@QueryParam("status") String status, @QueryParam("query") String query,
                                    @QueryParam("group_id") PosInt groupId,
                                    @QueryParam("include_deactivated") BoolStr includeDeactivated,
                                    @QueryParam("limit") String limit, @QueryParam("offset") String offset) {
        Paging paging = Paging.of(limit, offset);
        Long managerId = null;
        if (!caller.superuser()) {
            Set<Long> managed = users.managedGroups(caller.id());
            Checks.permitted(!managed.isEmpty() && (groupId == null || managed.contains(groupId.value())));
            Checks.permitted(status == null && includeDeactivated == null);
            managerId = groupId == null ? caller.id() : null;
        }
        Boolean active;
        if (status != null) {
            active = switch (status) {
                case "all" -> null;
                case "deactivated" -> false;
                default -> true; // "active", and anything else, as in Metabase
            };
        } else if (includeDeactivated != null && includeDeactivated.value()) {
            active = null;
        } else {
            active = true;
        }
        UserQuery q = new UserQuery(active, query, groupId == null ? null : groupId.value(), managerId, false,
                paging.limit(), paging.offset());
        UserService.Page page = users.list(q);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("data", page.data());
        result.put("total", page.total());
        result.put("limit", paging.limit());
        result.put("offset", paging.offset());
        return result;
    }

    @GET
    @Path("current")
    @Access(Access.Level.USER)
    public Map<String, Object> current() {
        Map<String, Object> current = users.current(caller.id());
        current.put("personal_collection_id", collections.personalCollectionId(caller.id()));
        return current;
    }

    @GET
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> get(@PathParam("id") PosInt id) {
        return users.get(caller, id.value());
    }

    /** Creates (invites) a user; an invite email goes out when email is set up, and its failure does not undo the user. */
    @POST
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> create(JsonNode json) {
        Body body = Body.of(json).storedIn("core_user", "email", "first_name", "last_name");
        String firstName = body.optNonBlank("first_name");
        String lastName = body.optNonBlank("last_name");
        String email = body.email("email");
        List<UserService.MembershipSpec> memberships = memberships(body);
        Map<String, Object> loginAttributes = body.optMap("login_attributes");
        JsonNode pw = body.get("password");
        String password = pw.isNull() ? null : pw.isTextual() ? pw.asText() : "";
        body.optNonBlank("source");
        body.throwIfInvalid();
        if (password != null) {
            passwords.requireValid("password", password);
        }
        UserService.Created created = users.create(new UserService.NewUser(email, firstName, lastName, password, false,
                loginAttributes, null), memberships);
        if (invites.configured()) {
            try {
                invites.send(created.user(), inviterName(), created.resetToken(), siteUrl());
            } catch (ApiException e) {
                // Metabase sends invites in the background: a mail failure never fails the creation.
                log.warn("Could not send the invite to user {}: {}", created.user().id, e.getMessage());
            }
        }
        return users.view(created.user().id);
    }

    @POST
    @Path("{id}/send_invite")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> sendInvite(@PathParam("id") PosInt id) {
        users.activePerson(id.value());
        Checks.check(invites.configured(), "Email is not configured. Please set up email in the admin settings.");
        UserService.Created created = users.newInviteToken(id.value());
        invites.send(created.user(), inviterName(), created.resetToken(), siteUrl());
        return Map.of("success", true);
    }

    @PUT
    @Path("{id}")
    @Access(Access.Level.USER)
    public Map<String, Object> update(@PathParam("id") PosInt id, JsonNode json) {
        Body body = Body.of(json).storedIn("core_user", "email", "first_name", "last_name");
        UserService.Changes changes = new UserService.Changes();
        changes.email = body.optEmail("email");
        changes.hasFirstName = body.has("first_name");
        changes.firstName = body.optNonBlank("first_name");
        changes.hasLastName = body.has("last_name");
        changes.lastName = body.optNonBlank("last_name");
        changes.hasLocale = body.has("locale");
        changes.locale = locale(body);
        changes.hasLoginAttributes = body.has("login_attributes");
        changes.loginAttributes = body.optMap("login_attributes");
        changes.superuser = body.optBool("is_superuser");
        body.optBool("is_group_manager"); // accepted and validated, but group management is per membership
        changes.memberships = memberships(body);
        body.throwIfInvalid();
        return users.update(caller, id.value(), changes);
    }

    @PUT
    @Path("{id}/modal/{modal}")
    @Access(Access.Level.USER)
    public Map<String, Object> modal(@PathParam("id") PosInt id, @PathParam("modal") String modal) {
        Checks.permitted(caller.is(id.value()) || caller.superuser());
        users.dismissModal(id.value(), modal);
        return Map.of("success", true);
    }

    /**
     * Changes a password. Whoever changes their own must give the old one; a superuser resetting someone else's need
     * not. Every session of that user ends; changing your own answers a fresh session (body and cookie).
     */
    @PUT
    @Path("{id}/password")
    @Access(Access.Level.USER)
    public Response password(@PathParam("id") PosInt id, JsonNode json) {
        long userId = id.value();
        boolean self = caller.is(userId);
        Checks.permitted(self || caller.superuser());
        Body body = Body.of(json);
        JsonNode pw = body.get("password");
        String oldPassword = body.optString("old_password");
        body.throwIfInvalid();
        // Metabase's ValidPassword rule has one message for every failure: missing, not a string, too weak.
        String password = pw.isTextual() ? pw.asText() : null;
        passwords.requireValid("password", password);
        User user = users.activePerson(userId);
        if (self && !Passwords.verify(user.passwordSalt, oldPassword, user.password)) {
            throw ApiException.invalidField("old_password", "Invalid password");
        }
        users.changePassword(userId, password);
        if (!self) {
            return Response.noContent().build();
        }
        String session = sessions.open(userId, SessionService.RequestInfo.of(request));
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("success", true);
        result.put("session_id", session);
        return Cookies.withSession(Response.ok(result), session, null, settings.string("session-cookie-samesite"), request).build();
    }

    @DELETE
    @Path("{id}")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> deactivate(@PathParam("id") PosInt id) {
        users.deactivate(caller, id.value());
        return Map.of("success", true);
    }

    @PUT
    @Path("{id}/reactivate")
    @Access(Access.Level.SUPERUSER)
    public Map<String, Object> reactivate(@PathParam("id") PosInt id) {
        return users.reactivate(id.value());
    }

    // --- parsing -----------------------------------------------------------------------------------------------------

    /** A locale Quarry offers: {@code en}, {@code pt_BR}, or a language we know with any country ({@code en_GB}). */
    private static String locale(Body body) {
        String value = body.optLocale("locale");
        if (value != null && !CoreSettings.LOCALES.contains(value) && !CoreSettings.LOCALES.contains(value.split("_")[0])) {
            body.addError("locale", ParamRule.LOCALE.message(true), ParamRule.LOCALE.specific(value));
            return null;
        }
        return value;
    }

    /** {@code user_group_memberships}: null when absent or null; each entry {@code {id: PosInt, is_group_manager?: bool}}. */
    static List<UserService.MembershipSpec> memberships(Body body) {
        List<Body> entries = body.optObjects("user_group_memberships", MEMBERSHIPS_RULE.substring("nullable ".length()));
        if (entries == null) {
            return null;
        }
        List<UserService.MembershipSpec> result = new ArrayList<>();
        for (Body entry : entries) {
            Long groupId = entry.posInt("id");
            Boolean manager = entry.bool("is_group_manager", true);
            if (!entry.valid()) {
                body.addError("user_group_memberships", MEMBERSHIPS_RULE, "invalid entry, received: " + entry.raw());
                return null;
            }
            result.add(new UserService.MembershipSpec(groupId, manager));
        }
        return result;
    }

    private String inviterName() {
        User inviter = users.find(caller.id());
        return inviter == null ? "Someone" : inviter.commonName();
    }

    /** Where this request came in, without {@code /api}: the link base when {@code site-url} is not set. */
    private String siteUrl() {
        String base = uri.getBaseUri().toString().replaceAll("/+$", "");
        return base.endsWith("/api") ? base.substring(0, base.length() - 4) : base;
    }
}
