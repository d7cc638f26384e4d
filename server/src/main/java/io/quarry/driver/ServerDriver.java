package io.quarry.driver;

import io.quarry.web.error.ApiException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Engines reached over the network with host, port, database name, user and password ({@code postgres},
 * {@code mysql}). The URL carries only host, port and database name, each checked or encoded so that nothing a user
 * types can add URL parameters; user, password and every option travel as connection properties. User-supplied
 * {@code additional-options} may name only the options the engine lists ({@link #allowedConnectionOptions()}): a JDBC
 * driver's options also load classes, read local files or fetch URLs (key stores, certificates, public-key files,
 * cloud config files), open proxies or deserialise data, and a blocklist always misses the next one a driver adds.
 */
public abstract class ServerDriver extends JdbcDriver {
    /** A host name, an IPv4 address, or an IPv6 address with or without brackets. */
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9._-]{0,252})|\\[?[0-9A-Fa-f:.]+\\]?");
    private static final Pattern OPTION_KEY = Pattern.compile("[A-Za-z][A-Za-z0-9._-]{0,99}");

    /** An engine's features and dialect ({@link JdbcDriver#JdbcDriver(Set, SqlDialect)}). */
    protected ServerDriver(java.util.Set<Feature> features, SqlDialect dialect) {
        super(features, dialect);
    }

    /** The engine's default port. */
    protected abstract int defaultPort();

    /** {@code jdbc:postgresql://}. */
    protected abstract String urlPrefix();

    protected abstract String driverClass();

    /** Placeholder text of the additional-options field (an example). */
    protected abstract String optionsExample();

    /**
     * The engine's own connection properties, set after the user's additional options: those it must control are set
     * (overriding), those that are only defaults are put if absent.
     */
    protected abstract void engineProperties(Map<String, Object> details, Properties properties);

    @Override
    public List<DetailField> detailFields() {
        return List.of(
                DetailField.text("host", "Host", true, "name.database.com"),
                DetailField.integer("port", "Port", defaultPort()),
                DetailField.text("dbname", "Database name", true, "birds_of_the_world"),
                DetailField.text("user", "Username", true, "username"),
                DetailField.password("password", "Password"),
                DetailField.bool("ssl", "Use a secure connection (SSL)", false),
                DetailField.text("additional-options", "Additional JDBC connection string options", false, optionsExample()));
    }

    @Override
    public ConnectionSpec connectionSpec(Map<String, Object> details) {
        String host = host(details);
        int port = port(details);
        String dbname = text(details, "dbname");
        if (dbname == null) {
            throw ApiException.invalidField("dbname", "value must be a non-blank string.");
        }
        String user = text(details, "user");
        if (user == null) {
            throw ApiException.invalidField("user", "value must be a non-blank string.");
        }
        Properties properties = new Properties();
        addOptions(text(details, "additional-options"), properties);
        engineProperties(details, properties);
        properties.setProperty("user", user);
        Object password = details.get("password");
        if (password != null && !password.toString().isEmpty()) {
            properties.setProperty("password", password.toString());
        }
        String url = urlPrefix() + host + ":" + port + "/" + URLEncoder.encode(dbname, StandardCharsets.UTF_8).replace("+", "%20");
        return new ConnectionSpec(driverClass(), url, properties);
    }

    /** The host as it goes into the URL (IPv6 addresses in brackets); 400 on anything else. */
    static String host(Map<String, Object> details) {
        String host = text(details, "host");
        if (host == null) {
            throw ApiException.invalidField("host", "value must be a non-blank string.");
        }
        if (!HOST.matcher(host).matches() || (host.startsWith("[") != host.endsWith("]"))) {
            throw ApiException.invalidField("host", "value must be a host name or an IP address.");
        }
        boolean ipv6 = host.indexOf(':') >= 0;
        if (ipv6 && !host.startsWith("[")) {
            return "[" + host + "]";
        }
        if (!ipv6 && host.startsWith("[")) {
            throw ApiException.invalidField("host", "value must be a host name or an IP address.");
        }
        return host;
    }

    int port(Map<String, Object> details) {
        Object value = details.get("port");
        if (value == null || (value instanceof String s && s.isBlank())) {
            return defaultPort();
        }
        long port;
        if (value instanceof Number n && n.doubleValue() == n.longValue()) {
            port = n.longValue();
        } else if (value instanceof String s && s.trim().matches("\\d{1,5}")) {
            port = Long.parseLong(s.trim());
        } else {
            port = -1;
        }
        if (port < 1 || port > 65_535) {
            throw ApiException.invalidField("port", "value must be an integer between 1 and 65535.");
        }
        return (int) port;
    }

    /**
     * The options a user may put in {@code additional-options}, spelled as the JDBC driver spells them (matched without
     * regard to case, passed on in this spelling). Each engine lists options that change how values are read, time
     * zones, fetching, timeouts and TLS modes; none names a file, a URL, a class, a proxy or a callback.
     */
    @Override
    public abstract Set<String> allowedConnectionOptions();

    /**
     * Parses {@code additional-options} as a JDBC query string ({@code a=1&b=two}, percent-encoding allowed) into
     * properties; an option the engine does not allow ({@link #allowedConnectionOptions()}) is a 400 naming the field.
     */
    void addOptions(String options, Properties into) {
        if (options == null) {
            return;
        }
        Map<String, String> allowed = new java.util.HashMap<>();
        for (String option : allowedConnectionOptions()) {
            allowed.put(option.toLowerCase(Locale.ROOT), option);
        }
        String text = options.startsWith("?") ? options.substring(1) : options;
        for (String pair : text.split("&")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key;
            String value;
            try {
                key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8).trim();
                value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw ApiException.invalidField("additional-options", "The connection options are not a valid query string.");
            }
            if (!OPTION_KEY.matcher(key).matches()) {
                throw ApiException.invalidField("additional-options", "The connection options are not a valid query string.");
            }
            String known = allowed.get(key.toLowerCase(Locale.ROOT));
            if (known == null) {
                throw ApiException.invalidField("additional-options", "The connection option " + key + " is not allowed.");
            }
            into.setProperty(known, value);
        }
    }
}
