package io.quarry.setup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.appdb.Db;
import io.quarry.setting.SettingMapper;
import io.quarry.setting.Settings;
import io.quarry.user.User;
import io.quarry.user.UserMapper;
import io.quarry.user.UserService;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** First-run setup: the first administrator and the site's settings, once. */
public final class SetupService {
    private static final Logger log = LoggerFactory.getLogger(SetupService.class);
    private static final String DONE_MARKER = "setup-done";

    private final Db db;
    private final Settings settings;
    private final UserService users;

    public SetupService(Db db, Settings settings, UserService users) {
        this.db = db;
        this.settings = settings;
        this.users = users;
    }

    public void checkToken(String token) {
        String expected = settings.string("setup-token-value");
        if (token == null || !java.security.MessageDigest.isEqual(token.getBytes(), expected.getBytes())) {
            throw ApiException.invalidField("token", "Token does not match the setup token.");
        }
    }

    public void checkNotSetUp() {
        if (settings.bool("has-user-setup")) {
            throw new ApiException(403, "The /api/setup route can only be used to create the first user, however a user currently exists.");
        }
    }

    /**
     * Closes the setup-time connection test once an administrator exists: Metabase's answer to CVE-2023-38646, where the
     * setup token (still readable after setup) let anyone test, and so open, a connection of their choosing.
     */
    public void checkValidateOpen() {
        if (settings.bool("has-user-setup")) {
            throw new ApiException(403, "Instance already initialized");
        }
    }

    /**
     * Creates the first administrator and applies the site preferences in one transaction. The insert of a
     * one-time marker row makes two racing setups (even on two instances) end with exactly one administrator.
     */
    public User setup(UserService.NewUser admin, SitePrefs prefs) {
        return setup(admin, prefs, null, null).admin();
    }

    /**
     * As {@link #setup(UserService.NewUser, SitePrefs)}, and in the same transaction invites a second administrator when
     * {@code invitee} is given: the account is created with a reset token from {@code issueToken}, which the caller
     * emails once this returns. Either both accounts exist afterwards or neither does.
     */
    public Created setup(UserService.NewUser admin, SitePrefs prefs, UserService.NewUser invitee,
                         BiFunction<SqlSession, Long, String> issueToken) {
        checkNotSetUp();
        Created created;
        try {
            created = db.tx(session -> {
                session.getMapper(SettingMapper.class).insertSetting(DONE_MARKER, "true");
                if (session.getMapper(UserMapper.class).countPeople() > 0) {
                    throw new ApiException(403, "The /api/setup route can only be used to create the first user, however a user currently exists.");
                }
                User first = users.insert(session, admin);
                if (invitee == null) {
                    return new Created(first, null, null);
                }
                User second = users.insert(session, invitee);
                return new Created(first, second, issueToken.apply(session, second.id));
            });
        } catch (PersistenceException raced) {
            throw new ApiException(403, "The /api/setup route can only be used to create the first user, however a user currently exists.");
        }
        settings.set("site-name", prefs.siteName());
        settings.set("admin-email", created.admin().email);
        if (prefs.siteLocale() != null) {
            settings.set("site-locale", prefs.siteLocale());
        }
        if (prefs.allowTracking() != null) {
            settings.set("anon-tracking-enabled", prefs.allowTracking());
        }
        return created;
    }

    public record SitePrefs(String siteName, String siteLocale, Boolean allowTracking) {
    }

    /** What setup created: the first administrator, and the invited one with their reset token (both null if none). */
    public record Created(User admin, User invitee, String inviteToken) {
    }

    /**
     * Defaults a deployment pre-sets for the first user: the JSON object in {@code MB_USER_DEFAULTS}, which carries its
     * own {@code token}. As in Metabase: 404 when none is configured (or it has no token), 403 when the token given
     * differs, otherwise the object without its token.
     */
    public static Map<String, Object> userDefaults(String configured, String token) {
        Map<String, Object> defaults = null;
        if (configured != null) {
            try {
                JsonNode parsed = Json.read(configured);
                if (parsed.isObject()) {
                    defaults = Json.MAPPER.convertValue(parsed, new TypeReference<LinkedHashMap<String, Object>>() { });
                }
            } catch (JsonProcessingException e) {
                log.warn("MB_USER_DEFAULTS is not a JSON object; ignoring it");
            }
        }
        Object expected = defaults == null ? null : defaults.get("token");
        if (expected == null) {
            throw ApiException.notFound();
        }
        if (token == null || !MessageDigest.isEqual(expected.toString().getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8))) {
            throw ApiException.forbidden();
        }
        defaults.remove("token");
        return defaults;
    }

    /**
     * The admin checklist from the instance's real state. Databases, cards, dashboards, pulses, collections and
     * embedding are not part of the platform yet: until their modules land they count as absent.
     */
    public List<Map<String, Object>> adminChecklist(boolean h2AppDb) {
        long people = db.with(UserMapper.class, UserMapper::countPeople);
        return AdminChecklist.build(new AdminChecklist.State(h2AppDb, false, settings.bool("email-configured?"),
                settings.bool("jwt-enabled") && settings.bool("jwt-configured"), false, false, false,
                people, 0, 0, false, false, false, false, false, false, false));
    }

}
