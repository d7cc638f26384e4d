package io.quarry.auth;

import io.quarry.appdb.Db;
import io.quarry.core.AppConfig;
import io.quarry.mail.Mailer;
import io.quarry.setting.Settings;
import io.quarry.user.UserService;
import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;

/** The authentication module: sessions, API keys, password resets, sign-in by JWT and the login history. */
public record AuthModule(Passwords passwords, SessionService sessions, ApiKeyService apiKeys,
                         PasswordResetService passwordResets, ExternalAuthService externalAuth, LoginHistory loginHistory) {
    /** Registers the JWT settings. */
    public static AuthModule create(AppConfig config, Clock clock, Db db, Settings settings, Passwords passwords, Mailer mailer,
            UserService users, ScheduledExecutorService scheduler) {
        SessionService sessions = new SessionService(db, settings, config, clock);
        AuthSettings.register(settings);
        return new AuthModule(passwords, sessions, new ApiKeyService(db, clock, !config.sessionThrottleDisabled),
                new PasswordResetService(db, settings, mailer, sessions, config, clock, scheduler),
                new ExternalAuthService(db, settings, sessions, users, config, clock), new LoginHistory(db, sessions, clock));
    }
}
