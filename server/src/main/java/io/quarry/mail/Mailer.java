package io.quarry.mail;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarry.core.Problem;
import io.quarry.setting.Settings;
import io.quarry.web.error.ApiException;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import jakarta.mail.util.ByteArrayDataSource;
import java.io.UnsupportedEncodingException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Sends email over SMTP with the {@code email-smtp-*} settings, read at each send so a change applies at once.
 * {@link #send(List, String, String)} sends plain HTML; {@link #send(Letter)} a message with inline images and
 * attachments (subscriptions and alerts).
 */
public final class Mailer {
    private final Settings settings;
    private final Counter messages;
    private final Counter errors;
    private volatile Problem lastFailure;
    private volatile Instant lastSent;

    /**
     * {@code meters}: every message handed to the SMTP server is counted as Metabase counts it,
     * {@code metabase_email_messages_total}, every one that failed as {@code metabase_email_message_errors_total}.
     */
    public Mailer(Settings settings, MeterRegistry meters) {
        this.settings = settings;
        messages = Counter.builder("metabase.email.messages").description("Number of emails sent.").register(meters);
        errors = Counter.builder("metabase.email.message.errors").description("Number of errors when sending emails.").register(meters);
    }

    /** The last message the SMTP server refused or could not be given, or null when none failed since start-up. */
    public Problem lastFailure() {
        return lastFailure;
    }

    /** When the last message was handed to the SMTP server, or null. */
    public Instant lastSent() {
        return lastSent;
    }

    /** Hands a message to the SMTP server, counting it and its failure. */
    private void transport(MimeMessage message) throws MessagingException {
        String user = settings.string("email-smtp-username");
        String password = settings.string("email-smtp-password");
        try {
            if (user != null) {
                Transport.send(message, user, password);
            } else {
                Transport.send(message);
            }
        } catch (MessagingException | RuntimeException e) {
            errors.increment();
            lastFailure = Problem.of(e);
            throw e;
        }
        messages.increment();
        lastSent = Instant.now();
    }

    public boolean configured() {
        return settings.string("email-smtp-host") != null;
    }

    /** Sends one message; a 400 with Metabase's wording when email is not set up, a 500-free failure otherwise. */
    public void send(List<String> to, String subject, String html) {
        if (!configured()) {
            throw ApiException.badRequest("Email is not configured. Please set up email in the admin settings.");
        }
        try {
            MimeMessage message = new MimeMessage(session());
            String fromName = settings.string("email-from-name");
            String fromAddress = settings.string("email-from-address");
            message.setFrom(fromName == null ? new InternetAddress(fromAddress) : new InternetAddress(fromAddress, fromName, "UTF-8"));
            for (String recipient : to) {
                message.addRecipient(Message.RecipientType.TO, new InternetAddress(recipient));
            }
            Object replyTo = settings.get("email-reply-to");
            if (replyTo instanceof List<?> list && !list.isEmpty()) {
                message.setReplyTo(InternetAddress.parse(String.join(",", list.stream().map(Object::toString).toList())));
            }
            message.setSubject(subject, "UTF-8");
            message.setContent(html, "text/html; charset=utf-8");
            transport(message);
        } catch (MessagingException | UnsupportedEncodingException e) {
            throw new ApiException(500, "Sending email failed: " + e.getMessage());
        }
    }

    /** An inline image of an HTML body, referenced as {@code cid:<contentId>}. */
    public record Inline(String contentId, String contentType, byte[] bytes) {
    }

    /** A file attached to a message. */
    public record Attachment(String filename, String contentType, byte[] bytes) {
    }

    /**
     * A message with parts: visible {@code to} and blind {@code bcc} recipients, an HTML body whose images are inline
     * parts ({@code multipart/related}), and attachments ({@code multipart/mixed}).
     */
    public record Letter(List<String> to, List<String> bcc, String subject, String html, List<Inline> inline,
                         List<Attachment> attachments) {
        public Letter {
            to = List.copyOf(to);
            bcc = List.copyOf(bcc);
            inline = List.copyOf(inline);
            attachments = List.copyOf(attachments);
        }
    }

    /**
     * Sends a letter. Failures are {@link MessagingException}s for the caller to retry or record (a scheduled send has
     * no HTTP client to answer).
     */
    public void send(Letter letter) throws MessagingException {
        if (!configured()) {
            throw new MessagingException("Email is not configured. Please set up email in the admin settings.");
        }
        try {
            MimeMessage message = new MimeMessage(session());
            String fromName = settings.string("email-from-name");
            String fromAddress = settings.string("email-from-address");
            message.setFrom(fromName == null ? new InternetAddress(fromAddress) : new InternetAddress(fromAddress, fromName, "UTF-8"));
            for (String recipient : letter.to()) {
                message.addRecipient(Message.RecipientType.TO, new InternetAddress(recipient));
            }
            for (String recipient : letter.bcc()) {
                message.addRecipient(Message.RecipientType.BCC, new InternetAddress(recipient));
            }
            Object replyTo = settings.get("email-reply-to");
            if (replyTo instanceof List<?> list && !list.isEmpty()) {
                message.setReplyTo(InternetAddress.parse(String.join(",", list.stream().map(Object::toString).toList())));
            }
            message.setSubject(letter.subject(), "UTF-8");
            MimeMultipart related = new MimeMultipart("related");
            MimeBodyPart html = new MimeBodyPart();
            html.setContent(letter.html(), "text/html; charset=utf-8");
            related.addBodyPart(html);
            for (Inline image : letter.inline()) {
                MimeBodyPart part = new MimeBodyPart();
                part.setDataHandler(new jakarta.activation.DataHandler(new ByteArrayDataSource(image.bytes(), image.contentType())));
                part.setContentID("<" + image.contentId() + ">");
                part.setDisposition(MimeBodyPart.INLINE);
                part.setFileName(image.contentId() + ".png");
                related.addBodyPart(part);
            }
            MimeMultipart mixed = new MimeMultipart("mixed");
            MimeBodyPart body = new MimeBodyPart();
            body.setContent(related);
            mixed.addBodyPart(body);
            for (Attachment attachment : letter.attachments()) {
                MimeBodyPart part = new MimeBodyPart();
                part.setDataHandler(new jakarta.activation.DataHandler(new ByteArrayDataSource(attachment.bytes(), attachment.contentType())));
                part.setFileName(attachment.filename());
                part.setDisposition(MimeBodyPart.ATTACHMENT);
                mixed.addBodyPart(part);
            }
            message.setContent(mixed);
            transport(message);
        } catch (UnsupportedEncodingException e) {
            throw new MessagingException("Bad sender name: " + e.getMessage(), e);
        }
    }

    private Session session() {
        return configuredServer().session(Duration.ofSeconds(20));
    }

    /** The SMTP server the email-smtp-* settings describe (port defaults to 465 for ssl, 25 otherwise). */
    public SmtpServer configuredServer() {
        String security = settings.string("email-smtp-security");
        Long port = settings.integer("email-smtp-port");
        return new SmtpServer(settings.string("email-smtp-host"), port != null ? port : "ssl".equals(security) ? 465 : 25,
                security, settings.string("email-smtp-username"), settings.string("email-smtp-password"));
    }

    /** Escapes text for inclusion in an HTML email body. */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
