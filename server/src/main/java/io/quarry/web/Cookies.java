package io.quarry.web;

import io.quarry.web.security.AntiCsrfToken;
import io.quarry.web.security.RequestOrigins;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Response;
import java.util.Locale;

/** Metabase's session cookies, written as exact Set-Cookie headers (SameSite is not in every cookie API). */
public final class Cookies {
    public static final String SESSION = "metabase.SESSION";
    public static final String DEVICE = "metabase.DEVICE";
    public static final String TIMEOUT = "metabase.TIMEOUT";
    public static final String EMBEDDED_SESSION = "metabase.EMBEDDED_SESSION";

    private Cookies() {
    }

    /**
     * Adds the session cookie. With {@code rememberSeconds} it persists that long; otherwise it is a browser-session
     * cookie, as Metabase does when the login did not ask to be remembered. It is {@code Secure} when the request came
     * over HTTPS, directly or through a proxy saying so ({@link RequestOrigins#overHttps}, the rule HSTS follows), and
     * always with {@code SameSite=None} (browsers refuse it otherwise); a {@code SameSite=None} cookie, which browsers
     * send along with other sites' requests, comes with the session's {@link AntiCsrfToken} in its header, which
     * cookie-authenticated writes must send back.
     */
    public static Response.ResponseBuilder withSession(Response.ResponseBuilder response, String sessionId, Long rememberSeconds,
                                                       String sameSite, HttpServletRequest request) {
        String site = sameSite == null ? "Lax" : capitalize(sameSite);
        StringBuilder cookie = new StringBuilder(SESSION + "=" + sessionId + "; Path=" + path(request) + "; HttpOnly; SameSite=" + site);
        if (rememberSeconds != null) {
            cookie.append("; Max-Age=").append(rememberSeconds);
        }
        if ("None".equals(site) || (request != null && RequestOrigins.overHttps(request))) {
            cookie.append("; Secure");
        }
        if ("None".equals(site)) {
            response.header(AntiCsrfToken.HEADER, AntiCsrfToken.of(sessionId));
        }
        return response.header("Set-Cookie", cookie.toString());
    }

    public static Response.ResponseBuilder clearSession(Response.ResponseBuilder response) {
        return clearSession(response, null);
    }

    /** Expires the session cookies, on the path they were set with. */
    public static Response.ResponseBuilder clearSession(Response.ResponseBuilder response, HttpServletRequest request) {
        for (String name : new String[]{SESSION, EMBEDDED_SESSION, TIMEOUT}) {
            response.header("Set-Cookie", name + "=; Path=" + path(request) + "; Expires=Thu, 1 Jan 1970 00:00:00 GMT");
        }
        return response;
    }

    /** Cookies belong to the context Quarry is deployed under, so that two deployments on one host keep their own. */
    static String path(HttpServletRequest request) {
        String context = request == null ? null : request.getContextPath();
        return context == null || context.isEmpty() ? "/" : context;
    }

    private static String capitalize(String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        return Character.toUpperCase(lower.charAt(0)) + lower.substring(1);
    }
}
