package io.quarry.web.security;

import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Where a request came from and where it arrived, as origins ({@code scheme://host[:port]}, lower case, default port
 * left out) that compare as browsers compare them.
 *
 * <p>Proxies: Quarry believes {@code X-Forwarded-Proto} (as it always has for HSTS) and {@code X-Forwarded-Host}. Neither
 * can be forged by the pages this guards against: a browser adds such a header to a cross-origin request only after a
 * CORS preflight, which Quarry never grants to a request that carries cookies.
 */
public final class RequestOrigins {
    private RequestOrigins() {
    }

    /**
     * Whether the browser's request was made over HTTPS: directly, or through a proxy saying so in
     * {@code X-Forwarded-Proto}. The one rule for HSTS and for {@code Secure} cookies.
     */
    public static boolean overHttps(HttpServletRequest request) {
        return request.isSecure() || "https".equalsIgnoreCase(firstValue(request.getHeader("X-Forwarded-Proto")));
    }

    /**
     * The origins the request reached Quarry at: as the browser addressed it (scheme by {@link #overHttps}, host from
     * {@code X-Forwarded-Host} or {@code Host}) and as the container saw it (which a container configured for forwarded
     * headers has already rewritten).
     */
    public static Set<String> own(HttpServletRequest request) {
        Set<String> origins = new LinkedHashSet<>(2);
        String scheme = overHttps(request) ? "https" : request.getScheme();
        String forwardedHost = firstValue(request.getHeader("X-Forwarded-Host"));
        String host = forwardedHost != null ? forwardedHost : request.getHeader("Host");
        if (host != null) {
            add(origins, normalize(scheme + "://" + host));
        }
        add(origins, normalize(request.getScheme() + "://" + hostForUri(request.getServerName()) + ":" + request.getServerPort()));
        return origins;
    }

    /**
     * An origin as browsers compare them ({@code scheme://host[:port]}, lower case, default port left out), from an
     * {@code Origin} header or a URL (its path dropped); null when it is not one ({@code null}, a bare word, a
     * {@code file:} URL).
     */
    public static String normalize(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (java.net.URISyntaxException notAnOrigin) {
            return null;
        }
        String scheme = uri.getScheme();
        String host = uri.getHost();
        if (scheme == null || host == null || host.isEmpty()) {
            return null;
        }
        scheme = scheme.toLowerCase(Locale.ROOT);
        int port = uri.getPort();
        boolean defaultPort = port < 0 || ("http".equals(scheme) && port == 80) || ("https".equals(scheme) && port == 443);
        return scheme + "://" + host.toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
    }

    /** The first entry of a header a chain of proxies may have extended ({@code a, b}); null when absent or blank. */
    private static String firstValue(String header) {
        if (header == null) {
            return null;
        }
        int comma = header.indexOf(',');
        String first = (comma < 0 ? header : header.substring(0, comma)).trim();
        return first.isEmpty() ? null : first;
    }

    private static String hostForUri(String host) {
        return host != null && host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    private static void add(Set<String> origins, String origin) {
        if (origin != null) {
            origins.add(origin);
        }
    }
}
