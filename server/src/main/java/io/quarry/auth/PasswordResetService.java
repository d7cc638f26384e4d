package io.quarry.auth;

import io.quarry.appdb.Db;
import io.quarry.core.AppConfig;
import io.quarry.mail.Mailer;
import io.quarry.setting.Settings;
import io.quarry.user.User;
import io.quarry.user.UserMapper;
import io.quarry.web.error.ApiException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.ibatis.session.SqlSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Password reset by email, and the reset-token links that invitations use too. A token is {@code <user-id>_<uuid>}:
 * the id finds the user, the UUID is the secret; only a bcrypt hash of the whole token is stored, with the time it
 * was issued ({@code reset_triggered}, epoch milliseconds). A token is good once, for {@code reset-token-ttl-hours}.
 */
public final class PasswordResetService {
    private static final Logger log = LoggerFactory.getLogger(PasswordResetService.class);
    private static final Pattern TOKEN = Pattern.compile("^(\\d{1,18})_.+$");
    private static final long HOUR = Duration.ofHours(1).toMillis();

    private final Db db;
    private final Settings settings;
    private final Mailer mailer;
    private final SessionService sessions;
    private final Clock clock;
    private final Executor background;
    private final boolean throttled;
    // Metabase's throttles: forgot_password 3 a second per address and 50 an hour per client, both reported under
    // "email"; reset_password 10 an hour per client, under "password".
    private final Throttle forgotByEmail;
    private final Throttle forgotByIp;
    private final Throttle resetByIp;

    public PasswordResetService(Db db, Settings settings, Mailer mailer, SessionService sessions, AppConfig config, Clock clock,
                                Executor background) {
        this.db = db;
        this.settings = settings;
        this.mailer = mailer;
        this.sessions = sessions;
        this.clock = clock;
        this.background = background;
        this.throttled = !config.sessionThrottleDisabled;
        this.forgotByEmail = new Throttle("email", 3, 1000, clock);
        this.forgotByIp = new Throttle("email", 50, HOUR, clock);
        this.resetByIp = new Throttle("password", 10, HOUR, clock);
    }

    /**
     * Starts a reset for whoever owns {@code email}. The caller learns nothing about whether the account exists: the
     * lookup, the token and the email all happen in the background, so even the response time does not tell.
     */
    public void forgotPassword(String email, String ip, String siteUrl) {
        if (throttled) {
            forgotByIp.checkAndRecord(ip);
            forgotByEmail.checkAndRecord(email.trim().toLowerCase(Locale.ROOT));
        }
        background.execute(() -> {
            try {
                sendResetEmail(email, siteUrl);
            } catch (RuntimeException e) {
                log.warn("Could not send the password reset email: {}", e.getMessage());
            }
        });
    }

    private void sendResetEmail(String email, String siteUrl) {
        User user = db.with(UserMapper.class, m -> m.findUserByEmail(email.trim().toLowerCase(Locale.ROOT)));
        if (user == null || !"personal".equals(user.userType)) {
            return;
        }
        if (!mailer.configured()) {
            log.warn("A password reset was requested but email is not configured");
            return;
        }
        String app = appName();
        String subject = "[" + app + "] Password Reset Request";
        if (!user.isActive) {
            mailer.send(List.of(user.email), subject, page("Your " + app + " account has been deactivated.",
                    "<p>A password reset was requested for this address, but the account has been deactivated. "
                            + "Please contact your administrator to have it reactivated.</p>"));
            return;
        }
        if (user.ssoSource != null) {
            // Accounts that sign in through an identity provider have no password here to reset.
            mailer.send(List.of(user.email), subject, page("You sign in to " + app + " through your identity provider.",
                    "<p>A password reset was requested for this address, but this account signs in through an external "
                            + "identity provider (" + Mailer.escape(user.ssoSource) + "), so there is no password to reset "
                            + "here. Please sign in with your provider, or contact your administrator.</p>"));
            return;
        }
        if (siteUrl == null) {
            // Never build the link from the anonymous caller's Host header (reset-link poisoning).
            log.warn("A password reset was requested but site-url is not set, so no reset link can be sent");
            return;
        }
        String token = db.tx(session -> issueToken(session, user.id));
        String link = siteUrl + "/auth/reset_password/" + token;
        mailer.send(List.of(user.email), subject, page("Reset your " + app + " password",
                "<p>Someone (hopefully you) asked to reset the password of the " + Mailer.escape(app) + " account "
                        + Mailer.escape(user.email) + ".</p>"
                        + "<p><a href=\"" + Mailer.escape(link) + "\">Choose a new password</a></p>"
                        + "<p>The link works once and expires in " + ttlHours() + " hours. If you did not ask for this, "
                        + "ignore this email: your password stays as it is.</p>"));
    }

    /** Issues a new reset token for the user inside the caller's transaction; an earlier token stops working. */
    public String issueToken(SqlSession session, long userId) {
        String token = userId + "_" + UUID.randomUUID();
        session.getMapper(UserMapper.class).updateResetToken(userId, Passwords.hashToken(token), clock.millis());
        return token;
    }

    /** The active user a token belongs to, when it matches their stored hash and is younger than the TTL; else null. */
    public User validUser(String token) {
        if (token == null) {
            return null;
        }
        Matcher m = TOKEN.matcher(token);
        if (!m.matches()) {
            return null;
        }
        long id = Long.parseLong(m.group(1));
        User user = db.with(UserMapper.class, mapper -> mapper.findUser(id));
        if (user == null || !user.isActive || user.resetToken == null || user.resetTriggered == null) {
            Passwords.spendTime();
            return null;
        }
        if (!Passwords.verifyToken(token, user.resetToken)) {
            return null;
        }
        long age = clock.millis() - user.resetTriggered;
        return age < ttlHours() * HOUR ? user : null;
    }

    public boolean isValid(String token) {
        return validUser(token) != null;
    }

    /**
     * Sets a new password with a reset token (the password already checked against the complexity rule), ends every
     * other session of the user and opens a new one, whose id is returned.
     */
    public String resetPassword(String token, String password, SessionService.RequestInfo request) {
        if (throttled) {
            resetByIp.checkAndRecord(request.ip());
        }
        User user = validUser(token);
        if (user == null) {
            throw invalidToken();
        }
        String salt = Passwords.newSalt();
        String hash = Passwords.hash(salt, password);
        boolean reset = db.tx(session -> {
            if (session.getMapper(PasswordResetMapper.class).resetPasswordWithToken(user.id, user.resetToken, hash, salt) == 0) {
                return false; // used (or replaced) meanwhile
            }
            session.getMapper(SessionMapper.class).deleteSessionsOfUser(user.id);
            return true;
        });
        if (!reset) {
            throw invalidToken();
        }
        return sessions.open(user.id, request);
    }

    /** Emails an invitation to set a password, in the background (a failure is logged, the invitation stands). */
    public void sendInvite(User invitee, String inviterName, String token, String siteUrl) {
        background.execute(() -> {
            try {
                String app = appName();
                String site = settings.string("site-name");
                String link = siteUrl + "/auth/reset_password/" + token + "#new";
                mailer.send(List.of(invitee.email), "You're invited to join " + site,
                        page(inviterName + " invited you to join " + site,
                                "<p>" + Mailer.escape(inviterName) + " has set up " + Mailer.escape(app) + " for "
                                        + Mailer.escape(site) + " and invited you as an administrator.</p>"
                                        + "<p><a href=\"" + Mailer.escape(link) + "\">Join now</a></p>"
                                        + "<p>The link expires in " + ttlHours() + " hours.</p>"));
            } catch (RuntimeException e) {
                log.warn("Could not send the invitation email to {}: {}", invitee.email, e.getMessage());
            }
        });
    }

    private static ApiException invalidToken() {
        return ApiException.invalidField("password", "Invalid reset token");
    }

    private long ttlHours() {
        Long hours = settings.integer("reset-token-ttl-hours");
        return hours == null ? 48 : hours;
    }

    private String appName() {
        String name = settings.string("application-name");
        return name == null ? "Quarry" : name;
    }

    private static String page(String heading, String body) {
        return "<html><body style=\"font-family: sans-serif\"><h2>" + Mailer.escape(heading) + "</h2>" + body + "</body></html>";
    }
}
