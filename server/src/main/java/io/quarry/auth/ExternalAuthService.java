package io.quarry.auth;

import com.auth0.jwt.interfaces.Claim;
import com.auth0.jwt.interfaces.DecodedJWT;
import io.quarry.appdb.Db;
import io.quarry.core.AppConfig;
import io.quarry.setting.Settings;
import io.quarry.user.User;
import io.quarry.user.UserMapper;
import io.quarry.user.UserService;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Validation;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.ibatis.exceptions.PersistenceException;

/**
 * Sign-in with a JWT issued by a configured identity provider: a known active user gets a session, an unknown one is
 * created first (a plain member of All Users, {@code sso_source} "jwt") when provisioning is on.
 */
public final class ExternalAuthService {
    public static final String SSO_SOURCE = "jwt";

    private final Db db;
    private final Settings settings;
    private final SessionService sessions;
    private final UserService users;
    private final Clock clock;
    private final boolean throttled;
    /** Failed attempts per client address; like the login throttle, reported under "username". */
    private final Throttle byIp;

    public ExternalAuthService(Db db, Settings settings, SessionService sessions, UserService users, AppConfig config, Clock clock) {
        this.db = db;
        this.settings = settings;
        this.sessions = sessions;
        this.users = users;
        this.clock = clock;
        this.throttled = !config.sessionThrottleDisabled;
        this.byIp = new Throttle("username", 50, Duration.ofHours(1).toMillis(), clock);
    }

    /** Verifies the token and opens a session for the user it names; returns the session id. */
    public String login(String token, SessionService.RequestInfo request) {
        Jwts.Keys keys = keys();
        if (throttled) {
            try {
                byIp.check(request.ip());
            } catch (ApiException e) {
                throw new ApiException(401, e.getMessage(), e.body());
            }
        }
        try {
            return sessions.open(userFor(verify(token, keys)).id, request);
        } catch (ApiException e) {
            if (throttled && e.status() == 401) {
                byIp.record(request.ip());
            }
            throw e;
        }
    }

    /** The verification keys, or a 400 when the feature is off or has no key. */
    private Jwts.Keys keys() {
        if (!settings.bool("jwt-enabled")) {
            throw ApiException.badRequest("JWT authentication is disabled.");
        }
        String secret = settings.string("jwt-shared-secret");
        String pem = settings.string("jwt-public-key");
        if (secret == null && pem == null) {
            throw ApiException.badRequest("JWT authentication is not configured: set jwt-shared-secret or jwt-public-key.");
        }
        RSAPublicKey publicKey = null;
        if (pem != null) {
            try {
                publicKey = Jwts.parsePublicKey(pem);
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("JWT authentication is not configured: jwt-public-key is not a PEM-encoded RSA public key.");
            }
        }
        return new Jwts.Keys(secret, publicKey, settings.string("jwt-issuer"), settings.string("jwt-audience"));
    }

    private DecodedJWT verify(String token, Jwts.Keys keys) {
        try {
            return Jwts.verify(token, keys, clock);
        } catch (Jwts.InvalidTokenException e) {
            throw ApiException.withErrors(401, Map.of("token", e.getMessage()), null);
        }
    }

    private User userFor(DecodedJWT jwt) {
        String emailClaim = settings.string("jwt-attribute-email");
        String rawEmail = stringClaim(jwt, emailClaim);
        if (rawEmail == null || !Validation.isEmail(rawEmail.trim())) {
            throw ApiException.withErrors(401, Map.of("token", "Token has no valid email address in its \"" + emailClaim + "\" claim."), null);
        }
        String email = rawEmail.trim().toLowerCase(Locale.ROOT);
        String firstName = blankToNull(stringClaim(jwt, settings.string("jwt-attribute-firstname")));
        String lastName = blankToNull(stringClaim(jwt, settings.string("jwt-attribute-lastname")));

        User user = db.with(UserMapper.class, m -> m.findUserByEmail(email));
        if (user == null) {
            if (!settings.bool("jwt-user-provisioning-enabled?")) {
                throw new ApiException(401, "Sorry, but you'll need a " + slug(settings.string("site-name"))
                        + " account to view this page. Please contact your administrator.");
            }
            return create(email, firstName, lastName);
        }
        if (!user.isActive || !"personal".equals(user.userType)) {
            throw ApiException.withErrors(401, Map.of("account", "Your account is disabled."), null);
        }
        updateNames(user, firstName, lastName);
        return user;
    }

    private User create(String email, String firstName, String lastName) {
        try {
            return db.tx(session -> {
                User created = users.insert(session, new UserService.NewUser(email, firstName, lastName, null, false, null, null));
                created.ssoSource = SSO_SOURCE;
                session.getMapper(UserMapper.class).updateUser(created);
                return created;
            });
        } catch (PersistenceException raced) {
            // Another sign-in (possibly on another instance) created the same user first: use theirs.
            User existing = db.with(UserMapper.class, m -> m.findUserByEmail(email));
            if (existing == null) {
                throw raced;
            }
            return existing;
        }
    }

    /** The identity provider is the source of truth for names it sends, as in Metabase's JWT sign-in. */
    private void updateNames(User user, String firstName, String lastName) {
        boolean changed = false;
        if (firstName != null && !Objects.equals(firstName, user.firstName)) {
            user.firstName = firstName;
            changed = true;
        }
        if (lastName != null && !Objects.equals(lastName, user.lastName)) {
            user.lastName = lastName;
            changed = true;
        }
        if (changed) {
            user.updatedAt = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
            db.run(session -> session.getMapper(UserMapper.class).updateUser(user));
        }
    }

    private static String stringClaim(DecodedJWT jwt, String name) {
        if (name == null) {
            return null;
        }
        Claim claim = jwt.getClaim(name);
        return claim.isMissing() || claim.isNull() ? null : claim.asString();
    }

    private static String blankToNull(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String trimmed = value.trim();
        // core_user holds at most 254 characters per name; a longer claim is cut rather than failing the sign-in.
        return trimmed.length() > 254 ? trimmed.substring(0, 254) : trimmed;
    }

    /** Metabase words the refusal with the site name slugified. */
    static String slug(String siteName) {
        String base = siteName == null ? "Quarry" : siteName;
        return base.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
    }
}
