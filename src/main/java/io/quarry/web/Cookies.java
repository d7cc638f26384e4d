package io.quarry.web;

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
     * cookie, as Metabase does when the login did not ask to be remembered.
     */
    public static Response.ResponseBuilder withSession(Response.ResponseBuilder response, String sessionId, Long rememberSeconds,
                                                       String sameSite, HttpServletRequest request) {
        String site = sameSite == null ? "Lax" : capitalize(sameSite);
        StringBuilder cookie = new StringBuilder(SESSION + "=" + sessionId + "; Path=/; HttpOnly; SameSite=" + site);
        if (rememberSeconds != null) {
            cookie.append("; Max-Age=").append(rememberSeconds);
        }
        if (request != null && (request.isSecure() || "None".equals(site))) {
            cookie.append("; Secure");
        }
        return response.header("Set-Cookie", cookie.toString());
    }

    public static Response.ResponseBuilder clearSession(Response.ResponseBuilder response) {
        for (String name : new String[]{SESSION, EMBEDDED_SESSION, TIMEOUT}) {
            response.header("Set-Cookie", name + "=; Path=/; Expires=Thu, 1 Jan 1970 00:00:00 GMT");
        }
        return response;
    }

    private static String capitalize(String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        return Character.toUpperCase(lower.charAt(0)) + lower.substring(1);
    }
}
