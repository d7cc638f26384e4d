package io.quarry.testing;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A real SMTP server (GreenMail) on a free port of 127.0.0.1, and what Quarry needs to send through it. */
public final class Mailbox implements AutoCloseable {
    private static final Pattern RESET_LINK = Pattern.compile("/auth/reset_password/(\\d+_[0-9a-f-]{36})");

    public final GreenMail smtp;

    public Mailbox() {
        smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
    }

    /** The MB_EMAIL_SMTP_* configuration pointing at this server. */
    public Map<String, String> config() {
        return Map.of("MB_EMAIL_SMTP_HOST", "127.0.0.1", "MB_EMAIL_SMTP_PORT", String.valueOf(smtp.getSmtp().getPort()));
    }

    /** Waits until {@code count} messages in total have arrived, and returns them all. */
    public MimeMessage[] await(int count) {
        if (!smtp.waitForIncomingEmail(15_000, count)) {
            throw new AssertionError("expected " + count + " emails, got " + smtp.getReceivedMessages().length);
        }
        return smtp.getReceivedMessages();
    }

    public int count() {
        return smtp.getReceivedMessages().length;
    }

    public static String html(MimeMessage message) {
        try {
            return message.getContent().toString();
        } catch (IOException | MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String to(MimeMessage message) {
        try {
            return message.getAllRecipients()[0].toString();
        } catch (MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The reset token in the message's {@code /auth/reset_password/<token>} link, or null when there is none. */
    public static String resetToken(MimeMessage message) {
        Matcher m = RESET_LINK.matcher(html(message));
        return m.find() ? m.group(1) : null;
    }

    @Override
    public void close() {
        smtp.stop();
    }
}
