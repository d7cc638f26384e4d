package io.quarry.embed;

import io.quarry.setting.Settings;

/**
 * The other sites whose pages may make a signed-in browser write to Quarry: those embedding it, as configured for
 * interactive embedding ({@code embedding-app-origins-interactive}, while {@code enable-embedding-interactive} is on)
 * and for the SDK ({@code embedding-app-origins-sdk} and the deprecated {@code embedding-app-origin}, while
 * {@code enable-embedding-sdk} or {@code enable-embedding-simple} is on). Entries are matched as CORS matches them
 * ({@link SdkCors#matches}: host {@code *} or {@code *.example.com}, port {@code *}, no scheme for http and https).
 * Loopback origins, which CORS lets through for development, are not among them: another port of the same host is
 * exactly the page CSRF comes from.
 */
public final class EmbeddingOrigins {
    private EmbeddingOrigins() {
    }

    /** Whether {@code origin} ({@code scheme://host[:port]}) is one the embedding settings name. */
    public static boolean accepted(Settings settings, String origin) {
        if (settings.bool("enable-embedding-interactive") && listed(settings.string("embedding-app-origins-interactive"), origin)) {
            return true;
        }
        boolean sdk = settings.bool("enable-embedding-sdk") || settings.bool("enable-embedding-simple");
        return sdk && (listed(settings.string("embedding-app-origins-sdk"), origin) || listed(settings.string("embedding-app-origin"), origin));
    }

    /** Whether one of the space-separated CORS-style entries ({@code embedding-app-origins-sdk}'s form) matches the origin. */
    static boolean listed(String entries, String origin) {
        if (entries == null) {
            return false;
        }
        for (String entry : entries.trim().split("\\s+")) {
            if (!entry.isEmpty() && SdkCors.matches(entry, origin)) {
                return true;
            }
        }
        return false;
    }
}
