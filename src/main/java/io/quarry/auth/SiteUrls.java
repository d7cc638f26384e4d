package io.quarry.auth;

import io.quarry.setting.Settings;
import jakarta.servlet.http.HttpServletRequest;

/** The base URL that links in emails start with. */
public final class SiteUrls {
    private SiteUrls() {
    }

    /**
     * The {@code site-url} setting; until an administrator sets it, the address this request reached the server at
     * (Metabase, likewise, takes the site URL from the first requests it sees).
     */
    public static String of(Settings settings, HttpServletRequest request) {
        String configured = settings.string("site-url");
        if (configured != null) {
            return configured;
        }
        StringBuilder url = new StringBuilder(request.getScheme()).append("://").append(request.getServerName());
        int port = request.getServerPort();
        boolean defaultPort = port <= 0 || ("http".equals(request.getScheme()) && port == 80)
                || ("https".equals(request.getScheme()) && port == 443);
        if (!defaultPort) {
            url.append(':').append(port);
        }
        return url.toString();
    }
}
