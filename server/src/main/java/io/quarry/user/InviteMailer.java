package io.quarry.user;

import io.quarry.mail.Mailer;
import io.quarry.setting.Settings;

/**
 * The invitation a new user receives: a link to set their password, {@code {site-url}/auth/reset_password/<token>#new}
 * (the {@code #new} tells the client to greet a new user rather than a forgetful one, as Metabase's link does).
 */
public final class InviteMailer {
    private final Settings settings;
    private final Mailer mailer;

    public InviteMailer(Settings settings, Mailer mailer) {
        this.settings = settings;
        this.mailer = mailer;
    }

    public boolean configured() {
        return mailer.configured();
    }

    /**
     * Sends the invite; a 400 when email is not set up. {@code fallbackSiteUrl} (the address this request came to)
     * is used when the {@code site-url} setting is empty.
     */
    public void send(User invitee, String inviterName, String token, String fallbackSiteUrl) {
        String siteUrl = settings.string("site-url");
        if (siteUrl == null || siteUrl.isBlank()) {
            siteUrl = fallbackSiteUrl;
        }
        String siteName = settings.string("site-name");
        String appName = settings.string("application-name");
        String link = siteUrl.replaceAll("/+$", "") + "/auth/reset_password/" + token + "#new";
        String subject = "You're invited to join " + siteName + "'s " + appName;
        String greeting = invitee.firstName != null ? "Hi " + Mailer.escape(invitee.firstName) + "," : "Hi,";
        String html = "<html><body style=\"font-family: sans-serif\">"
                + "<p>" + greeting + "</p>"
                + "<p>" + Mailer.escape(inviterName) + " wants you to join them on " + Mailer.escape(appName)
                + " (" + Mailer.escape(siteName) + ").</p>"
                + "<p><a href=\"" + Mailer.escape(link) + "\">Join now</a></p>"
                + "<p>Or open this address: " + Mailer.escape(link) + "</p>"
                + "</body></html>";
        mailer.send(java.util.List.of(invitee.email), subject, html);
    }
}
