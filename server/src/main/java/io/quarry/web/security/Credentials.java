package io.quarry.web.security;

import io.quarry.web.Cookies;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.util.ArrayList;
import java.util.List;

/** Where a request carries its credentials, in Metabase's names: a session cookie or header, or an API key. */
public final class Credentials {
    public static final String SESSION_COOKIE = Cookies.SESSION;
    public static final String SESSION_HEADER = "X-Metabase-Session";
    public static final String API_KEY_HEADER = "X-Api-Key";

    /** The request property under which authentication records what the caller was recognised by. */
    private static final String VIA = "quarry.credentials";

    /** What authenticated a caller. */
    public enum Via {
        /** The session cookie, which a browser attaches on its own, whichever page asks: the one to guard. */
        COOKIE,
        /** The {@code X-Metabase-Session} header, which only the client's own code sets. */
        SESSION_HEADER,
        /** An {@code X-Api-Key}. */
        API_KEY
    }

    private Credentials() {
    }

    /** Records what authenticated the request's caller; done once per request, by the authentication filter. */
    public static void setVia(ContainerRequestContext request, Via via) {
        request.setProperty(VIA, via);
    }

    /** What authenticated the request's caller; null for an anonymous request. */
    public static Via via(ContainerRequestContext request) {
        return request.getProperty(VIA) instanceof Via via ? via : null;
    }

    /**
     * Every {@code metabase.SESSION} value in a {@code Cookie} header, in the order sent. A browser signed in to two
     * contexts on one host (ROOT and {@code /quarry}) sends both cookies, the one with the longer (more specific) path
     * first (RFC 6265, 5.4), so the first is the one this context set; the others are tried after it.
     */
    public static List<String> sessionCookies(String cookieHeader) {
        List<String> values = new ArrayList<>();
        if (cookieHeader == null) {
            return values;
        }
        for (String part : cookieHeader.split("[;,]")) {
            int eq = part.indexOf('=');
            if (eq > 0 && part.substring(0, eq).trim().equals(SESSION_COOKIE)) {
                String value = part.substring(eq + 1).trim();
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                if (!value.isEmpty() && !values.contains(value)) {
                    values.add(value);
                }
            }
        }
        return values;
    }

    /** Whether the request carries any credentials (checked or not): its answer is for that caller only. */
    public static boolean present(HttpServletRequest request) {
        if (request.getHeader(SESSION_HEADER) != null || request.getHeader(API_KEY_HEADER) != null) {
            return true;
        }
        if (request.getCookies() != null) {
            for (var cookie : request.getCookies()) {
                if (SESSION_COOKIE.equals(cookie.getName())) {
                    return true;
                }
            }
        }
        return false;
    }
}
