package io.quarry.web.security;

import io.quarry.web.Cookies;
import jakarta.servlet.http.HttpServletRequest;

/** Where a request carries its credentials, in Metabase's names: a session cookie or header, or an API key. */
public final class Credentials {
    public static final String SESSION_COOKIE = Cookies.SESSION;
    public static final String SESSION_HEADER = "X-Metabase-Session";
    public static final String API_KEY_HEADER = "X-Api-Key";

    private Credentials() {
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
