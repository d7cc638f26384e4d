package io.quarry.mail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarry.setting.Settings;
import io.quarry.core.Json;
import io.quarry.web.error.ApiException;
import io.quarry.web.param.Body;
import io.quarry.web.param.ParamRule;
import io.quarry.web.param.Validation;
import io.quarry.core.Caller;
import jakarta.mail.AuthenticationFailedException;
import jakarta.mail.MessagingException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code PUT /api/email}: Metabase's way of setting up email. The SMTP settings are tried first (connect and sign in,
 * nothing sent); only settings that work are stored. When the chosen security fails, the other modes are tried in
 * Metabase's order and a working one is stored with a note in {@code with-corrections}.
 */
public final class EmailService {
    private static final Logger log = LoggerFactory.getLogger(EmailService.class);

    public static final String HOST = "email-smtp-host";
    public static final String PORT = "email-smtp-port";
    public static final String SECURITY = "email-smtp-security";
    public static final String USERNAME = "email-smtp-username";
    public static final String PASSWORD = "email-smtp-password";
    public static final String FROM_ADDRESS = "email-from-address";
    public static final String FROM_NAME = "email-from-name";
    public static final String REPLY_TO = "email-reply-to";
    /** Every setting {@code /api/email} writes, in Metabase's order. */
    public static final List<String> KEYS = List.of(HOST, USERNAME, PASSWORD, PORT, SECURITY, FROM_NAME, FROM_ADDRESS, REPLY_TO);

    private static final List<String> SECURITY_ORDER = List.of("tls", "starttls", "ssl");
    private static final Pattern CANNOT_CONNECT = Pattern.compile("(?is).*(could not|couldn't) connect to (smtp )?host.*");
    private static final Pattern BAD_CREDENTIALS = Pattern.compile(
            "(?is)^(invalid addresses|failed to connect, no password specified\\?|435 4\\.7\\.8 error: authentication failed:.*)$");

    private final Settings settings;
    private final Duration attemptTimeout;
    private final Duration budget;

    /**
     * @param attemptTimeout bound on each network wait of one connection attempt
     * @param budget         no further security mode is tried once this much time has passed
     */
    public EmailService(Settings settings, Duration attemptTimeout, Duration budget) {
        this.settings = settings;
        this.attemptTimeout = attemptTimeout;
        this.budget = budget;
    }

    /** Validates, tests and stores the SMTP settings in {@code json}; answers what is now stored. */
    public Map<String, Object> update(Caller caller, JsonNode json) {
        Body body = Body.of(withoutBlanks(json));
        Map<String, JsonNode> sent = new LinkedHashMap<>();
        for (String key : KEYS) {
            if (body.has(key) && !settings.isEnvSet(key)) {
                sent.put(key, body.get(key));
            }
        }
        SmtpServer server = validate(body, sent);
        body.throwIfInvalid();

        String working = findWorkingSecurity(server);
        Map<String, Object> corrections = new LinkedHashMap<>();
        if (!working.equals(server.security())) {
            sent.put(SECURITY, Json.MAPPER.valueToTree(working));
            corrections.put(SECURITY, "security was autocorrected to " + working.toUpperCase(Locale.ROOT));
        }
        settings.setAllAs(caller, sent);

        Map<String, Object> result = new LinkedHashMap<>();
        for (String key : KEYS) {
            Object value = settings.get(key);
            result.put(key, PASSWORD.equals(key) ? Settings.obfuscate(value) : value);
        }
        result.put("with-corrections", corrections);
        return result;
    }

    /** {@code DELETE /api/email}: forgets every SMTP setting not fixed by the environment. */
    public void clear(Caller caller) {
        Map<String, JsonNode> none = new LinkedHashMap<>();
        for (String key : KEYS) {
            if (!settings.isEnvSet(key)) {
                none.put(key, NullNode.instance);
            }
        }
        settings.setAllAs(caller, none);
    }

    /** The server the request describes (environment values win, as they would when sending); field errors in body. */
    private SmtpServer validate(Body body, Map<String, JsonNode> sent) {
        String host = settings.isEnvSet(HOST) ? settings.string(HOST) : body.nonBlank(HOST);
        Long port = settings.isEnvSet(PORT) ? settings.integer(PORT) : port(body);
        String security = settings.isEnvSet(SECURITY) ? settings.string(SECURITY) : body.optEnum(SECURITY, "none", "ssl", "tls", "starttls");
        String username = settings.isEnvSet(USERNAME) ? settings.string(USERNAME) : textOrNull(body, USERNAME);
        String password = password(body);
        if (!settings.isEnvSet(FROM_ADDRESS)) {
            body.optEmail(FROM_ADDRESS);
        }
        if (!settings.isEnvSet(FROM_NAME)) {
            textOrNull(body, FROM_NAME);
        }
        if (sent.containsKey(REPLY_TO)) {
            checkReplyTo(body, sent.get(REPLY_TO));
        }
        return new SmtpServer(host, port == null ? 0 : port, security == null ? "none" : security, username, password);
    }

    /** A positive whole number, also as a numeric string ({@code "587"}), as Metabase accepts. */
    private static Long port(Body body) {
        JsonNode value = body.get(PORT);
        if (value.isTextual()) {
            Long parsed = Validation.parsePosInt(value.asText());
            if (parsed != null && parsed <= 65535) {
                return parsed;
            }
        } else if (value.isIntegralNumber() && value.canConvertToInt() && value.asInt() > 0 && value.asInt() <= 65535) {
            return value.asLong();
        }
        if (value.isNull()) {
            body.addError(PORT, ParamRule.POS_INT.message(false), "missing required key, received: nil");
        } else {
            body.addError(PORT, ParamRule.POS_INT.message(false), ParamRule.POS_INT.specific(value.isTextual() ? value.asText() : value.toString()));
        }
        return null;
    }

    /** The password to test with: the stored one when the client sent back its obfuscated form. */
    private String password(Body body) {
        if (settings.isEnvSet(PASSWORD)) {
            return settings.string(PASSWORD);
        }
        String sent = textOrNull(body, PASSWORD);
        String stored = settings.string(PASSWORD);
        return sent != null && stored != null && sent.equals(Settings.obfuscate(stored)) ? stored : sent;
    }

    private static String textOrNull(Body body, String key) {
        String value = body.optString(key);
        return value == null || value.isBlank() ? null : value;
    }

    private static void checkReplyTo(Body body, JsonNode value) {
        if (value.isNull()) {
            return;
        }
        List<String> addresses = new ArrayList<>();
        if (value.isArray()) {
            value.forEach(item -> addresses.add(item.isTextual() ? item.asText().trim() : item.toString()));
        } else if (value.isTextual()) {
            for (String part : value.asText().split(",")) {
                addresses.add(part.trim());
            }
        } else {
            addresses.add(value.toString());
        }
        for (String address : addresses) {
            if (!Validation.isEmail(address)) {
                body.addError(REPLY_TO, "nullable sequence of " + ParamRule.EMAIL.message(false),
                        ParamRule.EMAIL.specific(address));
                return;
            }
        }
    }

    /** The admin form sends "" for a field left empty: that means "none", as null does. */
    private static JsonNode withoutBlanks(JsonNode json) {
        if (json == null || !json.isObject()) {
            return json;
        }
        ObjectNode copy = json.deepCopy();
        for (String key : KEYS) {
            JsonNode value = copy.get(key);
            if (value != null && value.isTextual() && value.asText().isBlank()) {
                copy.putNull(key);
            }
        }
        return copy;
    }

    /** The security mode that connects: the one asked for, else the first of Metabase's order that works. */
    private String findWorkingSecurity(SmtpServer server) {
        long deadline = System.nanoTime() + budget.toNanos();
        MessagingException first;
        try {
            server.checkConnection(attemptTimeout);
            return server.security();
        } catch (MessagingException e) {
            first = e;
        }
        for (String other : SECURITY_ORDER) {
            if (other.equals(server.security()) || System.nanoTime() > deadline) {
                continue;
            }
            try {
                new SmtpServer(server.host(), server.port(), other, server.username(), server.password())
                        .checkConnection(attemptTimeout);
                return other;
            } catch (MessagingException ignored) {
                // try the next mode
            }
        }
        throw humanize(first);
    }

    /** Metabase's translation of a failed connection into field errors. */
    static ApiException humanize(MessagingException e) {
        String message = chainMessage(e);
        log.warn("Problem connecting to mail server: {}", message);
        Map<String, Object> body = new LinkedHashMap<>();
        if (isCredentialProblem(e)) {
            Map<String, Object> errors = new LinkedHashMap<>();
            errors.put(USERNAME, "Wrong username or password");
            errors.put(PASSWORD, "Wrong username or password");
            body.put("errors", errors);
        } else if (isConnectionProblem(e, message)) {
            Map<String, Object> errors = new LinkedHashMap<>();
            errors.put(HOST, "Wrong host or port");
            errors.put(PORT, "Wrong host or port");
            body.put("errors", errors);
        } else {
            body.put("message", "Sorry, something went wrong. Please try again. Error: " + message);
        }
        return new ApiException(400, "Problem connecting to mail server", body);
    }

    private static boolean isCredentialProblem(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof AuthenticationFailedException
                    || t.getMessage() != null && BAD_CREDENTIALS.matcher(t.getMessage().trim()).matches()) {
                return true;
            }
        }
        return false;
    }

    private static boolean isConnectionProblem(Throwable e, String message) {
        if (CANNOT_CONNECT.matcher(message).matches() || message.startsWith("Unknown SMTP host")) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof SocketTimeoutException
                    || t instanceof NoRouteToHostException) {
                return true;
            }
        }
        return false;
    }

    private static String chainMessage(Throwable e) {
        List<String> parts = new ArrayList<>();
        for (Throwable t = e; t != null && parts.size() < 5; t = t.getCause()) {
            parts.add(t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName());
        }
        return String.join(": ", parts);
    }
}
