package io.quarry.mail;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarry.setting.Settings;
import java.time.Duration;

/** The mail module: sending mail through the SMTP settings (counted in {@code meters}), and testing those settings. */
public record MailModule(Mailer mailer, EmailService email) {
    public static MailModule create(Settings settings, MeterRegistry meters) {
        return new MailModule(new Mailer(settings, meters), new EmailService(settings, Duration.ofSeconds(5), Duration.ofSeconds(15)));
    }
}
