package io.quarry.setup;

import io.quarry.appdb.Db;
import io.quarry.setting.SettingMapper;
import io.quarry.setting.Settings;
import io.quarry.user.User;
import io.quarry.user.UserMapper;
import io.quarry.user.UserService;
import io.quarry.web.error.ApiException;
import java.util.Map;
import org.apache.ibatis.exceptions.PersistenceException;

/** First-run setup: the first administrator and the site's settings, once. */
public final class SetupService {
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
     * Creates the first administrator and applies the site preferences in one transaction. The insert of a
     * one-time marker row makes two racing setups (even on two instances) end with exactly one administrator.
     */
    public User setup(UserService.NewUser admin, SitePrefs prefs) {
        checkNotSetUp();
        User created;
        try {
            created = db.tx(session -> {
                session.getMapper(SettingMapper.class).insertSetting(DONE_MARKER, "true");
                if (session.getMapper(UserMapper.class).countPeople() > 0) {
                    throw new ApiException(403, "The /api/setup route can only be used to create the first user, however a user currently exists.");
                }
                return users.insert(session, admin);
            });
        } catch (PersistenceException raced) {
            throw new ApiException(403, "The /api/setup route can only be used to create the first user, however a user currently exists.");
        }
        settings.set("site-name", prefs.siteName());
        settings.set("admin-email", created.email);
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

    /** Defaults a deployment may pre-set for the first user (MB_USER_DEFAULTS), shown only with the right token. */
    public Map<String, Object> userDefaults(String token) {
        checkToken(token);
        return Map.of();
    }

}
