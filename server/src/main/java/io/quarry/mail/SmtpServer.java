package io.quarry.mail;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import java.time.Duration;
import java.util.Properties;

/**
 * Where and how to reach an SMTP server. {@code security} is Metabase's: {@code none}, {@code ssl} (TLS from the first
 * byte, "smtps"), {@code tls} or {@code starttls} (plain connection upgraded with STARTTLS, which must succeed).
 */
public record SmtpServer(String host, long port, String security, String username, String password) {

    public boolean ssl() {
        return "ssl".equals(security);
    }

    public String protocol() {
        return ssl() ? "smtps" : "smtp";
    }

    /** A Jakarta Mail session for this server, every network wait bounded by {@code timeout}. */
    public Session session(Duration timeout) {
        String protocol = protocol();
        String millis = String.valueOf(timeout.toMillis());
        Properties p = new Properties();
        p.put("mail.transport.protocol", protocol);
        p.put("mail." + protocol + ".host", host);
        p.put("mail." + protocol + ".port", String.valueOf(port));
        p.put("mail." + protocol + ".connectiontimeout", millis);
        p.put("mail." + protocol + ".timeout", millis);
        p.put("mail." + protocol + ".writetimeout", millis);
        if ("tls".equals(security) || "starttls".equals(security)) {
            p.put("mail.smtp.starttls.enable", "true");
            p.put("mail.smtp.starttls.required", "true");
        }
        if (username != null) {
            p.put("mail." + protocol + ".auth", "true");
        }
        return Session.getInstance(p);
    }

    /** Connects (and authenticates, when a user name is set) without sending anything; throws when that fails. */
    public void checkConnection(Duration timeout) throws MessagingException {
        try (Transport transport = session(timeout).getTransport(protocol())) {
            transport.connect(host, (int) port, username, password);
        }
    }

    @Override
    public String toString() {
        // never the password
        return "SmtpServer[" + host + ":" + port + ", security=" + security + ", username=" + username + "]";
    }
}
