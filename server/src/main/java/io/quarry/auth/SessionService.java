package io.quarry.auth;

import io.quarry.appdb.Db;
import io.quarry.appdb.RevisionCache;
import io.quarry.core.AppConfig;
import io.quarry.setting.Settings;
import io.quarry.user.User;
import io.quarry.user.UserMapper;
import io.quarry.web.Cookies;
import io.quarry.web.error.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Sign-in and sessions. A session id is a random UUID handed to the client once; only its SHA-512 is stored, so a leak
 * of the application database does not leak live sessions. A session lives {@code MAX_SESSION_AGE} minutes.
 */
public final class SessionService {
    private final Db db;
    private final Settings settings;
    private final Clock clock;
    private final Duration maxAge;
    private final boolean throttled;
    private final Throttle byUsername;
    private final Throttle byIp;
    /**
     * Session id → its user and start (null: no such session), until sessions or users change. Keyed by the id as the
     * client sent it, so that a request whose session is cached computes no SHA-512 (the id is held only in memory, as
     * each request holding it already does; the application database keeps only the hash).
     */
    private final RevisionCache<String, Live> live;

    /** A session as cached: the user it belongs to (null when inactive) and when it began. */
    private record Live(User user, OffsetDateTime createdAt) {
    }

    public SessionService(Db db, Settings settings, AppConfig config, Clock clock) {
        this.db = db;
        this.settings = settings;
        this.clock = clock;
        this.maxAge = Duration.ofMinutes(config.maxSessionAgeMinutes);
        this.throttled = !config.sessionThrottleDisabled;
        this.byUsername = new Throttle("username", 10, Duration.ofHours(1).toMillis(), clock);
        this.byIp = new Throttle("username", 50, Duration.ofHours(1).toMillis(), clock);
        this.live = db.cache(10_000);
    }

    public Duration maxAge() {
        return maxAge;
    }

    /** Checks credentials and opens a session; answers 401 in Metabase's shapes otherwise. */
    public String login(String username, String password, RequestInfo request) {
        String email = username.trim().toLowerCase(Locale.ROOT);
        if (throttled) {
            try {
                byUsername.check(email);
                byIp.check(request.ip());
            } catch (ApiException e) {
                // The login endpoint reports throttling as 401, under "username".
                throw new ApiException(401, e.getMessage(), e.body());
            }
        }
        User user = db.with(UserMapper.class, m -> m.findUserByEmail(email));
        boolean matches = user != null && "personal".equals(user.userType)
                && Passwords.verify(user.passwordSalt, password, user.password);
        if (user == null) {
            Passwords.spendTime();
        }
        if (!matches) {
            if (throttled) {
                byUsername.record(email);
                byIp.record(request.ip());
            }
            throw ApiException.withErrors(401, Map.of("password", "did not match stored password"), null);
        }
        if (!user.isActive) {
            throw ApiException.withErrors(401, Map.of("_error", "Your account is disabled."), null);
        }
        if (!settings.bool("enable-password-login") && !user.isSuperuser) {
            throw ApiException.badRequest("Password login is disabled for this instance.");
        }
        return open(user.id, request);
    }

    /** Opens a session for a user already authenticated some other way (setup, reset, external token). */
    public String open(long userId, RequestInfo request) {
        String key = UUID.randomUUID().toString();
        String hash = hash(key);
        OffsetDateTime now = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
        db.run(session -> {
            SessionMapper sessions = session.getMapper(SessionMapper.class);
            sessions.insertSession(hash, userId, now, "normal");
            sessions.insertLoginHistory(userId, now, hash, request.deviceId(), request.userAgent(), request.ip());
            session.getMapper(UserMapper.class).updateLastLogin(userId, now);
        });
        return key;
    }

    /** The active user behind a session id, or null when unknown, expired or deactivated. */
    public User resolve(String key) {
        if (key == null || key.isBlank() || key.length() > 64) {
            return null;
        }
        OffsetDateTime notBefore = OffsetDateTime.now(clock).minus(maxAge);
        // read once per change of the application database's cached data (a sign-in, a sign-out, a user's change...),
        // not on every request; the age is checked on every use
        Live found = live.get(key, id -> db.tx(session -> {
            String hash = hash(id);
            SessionMapper sessions = session.getMapper(SessionMapper.class);
            OffsetDateTime createdAt = sessions.findSessionStart(hash);
            Long userId = createdAt == null ? null : sessions.findSessionUser(hash, notBefore);
            if (userId == null) {
                return null;
            }
            User user = session.getMapper(UserMapper.class).findUser(userId);
            return new Live(user != null && user.isActive ? user : null, createdAt);
        }));
        return found == null || !found.createdAt().isAfter(notBefore) ? null : found.user();
    }

    /** Ends a session; false when there was none. */
    public boolean logout(String key) {
        return key != null && db.with(SessionMapper.class, m -> m.deleteSession(hash(key))) > 0;
    }

    /** Deletes sessions past their age; they no longer authenticate anyway. Returns how many went. */
    public int purgeExpired() {
        OffsetDateTime cutoff = OffsetDateTime.now(clock).minus(maxAge);
        return db.with(SessionMapper.class, m -> m.deleteSessionsCreatedBefore(cutoff));
    }

    public void endAllSessions(long userId) {
        db.run(session -> session.getMapper(SessionMapper.class).deleteSessionsOfUser(userId));
    }

    static String hash(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-512").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What a sign-in records about where it came from. */
    public record RequestInfo(String ip, String userAgent, String deviceId) {
        /** The client address, its user agent (at most 500 characters) and the device cookie of a request. */
        public static RequestInfo of(HttpServletRequest request) {
            String device = null;
            if (request.getCookies() != null) {
                for (jakarta.servlet.http.Cookie c : request.getCookies()) {
                    if (Cookies.DEVICE.equals(c.getName())) {
                        device = c.getValue();
                    }
                }
            }
            String agent = request.getHeader("User-Agent");
            if (agent != null && agent.length() > 500) {
                agent = agent.substring(0, 500);
            }
            return new RequestInfo(request.getRemoteAddr(), agent, device);
        }
    }
}
