package io.quarry.mail;

import io.quarry.setting.Settings;
import java.time.Duration;

/** The mail module: sending mail through the SMTP settings, and testing those settings. */
public record MailModule(Mailer mailer, EmailService email) {
    public static MailModule create(Settings settings) {
        return new MailModule(new Mailer(settings), new EmailService(settings, Duration.ofSeconds(5), Duration.ofSeconds(15)));
    }
}
