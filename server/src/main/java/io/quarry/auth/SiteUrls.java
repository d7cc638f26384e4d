package io.quarry.auth;

import io.quarry.setting.Settings;
import jakarta.servlet.http.HttpServletRequest;

/** The base URL that links in emails start with. */
public final class SiteUrls {
    private SiteUrls() {
    }

    /**
     * The {@code site-url} setting; until an administrator sets it, the address this request reached the server at.
     * Only for requests from signed-in administrators (or setup): the Host header of an anonymous request is the
     * caller's to choose, and must never end up in a link emailed to someone else.
     */
    public static String of(Settings settings, HttpServletRequest request) {
        String configured = settings.string("site-url");
        return configured != null ? configured : fromRequest(request);
    }

    /** The {@code site-url} setting alone (null when unset): for links sent on behalf of anonymous callers. */
    public static String configured(Settings settings) {
        return settings.string("site-url");
    }

    /** The address a request reached the server at, with the context path Quarry is deployed under (links go there). */
    public static String fromRequest(HttpServletRequest request) {
        StringBuilder url = new StringBuilder(request.getScheme()).append("://").append(request.getServerName());
        int port = request.getServerPort();
        boolean defaultPort = port <= 0 || ("http".equals(request.getScheme()) && port == 80)
                || ("https".equals(request.getScheme()) && port == 443);
        if (!defaultPort) {
            url.append(':').append(port);
        }
        return url.append(request.getContextPath()).toString();
    }
}
