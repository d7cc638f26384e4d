package io.quarry.auth;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a User-Agent header into the short description login history shows, in Metabase's form
 * {@code "<device type> (<browser>/<OS>)"}, e.g. {@code "Browser (Firefox/Linux)"}. A few rules for the common cases,
 * not a full user-agent database.
 */
public final class UserAgents {
    /** Clients that are programs rather than browsers: the product token names them. */
    private static final List<String> LIBRARIES = List.of("curl", "wget", "java-http-client", "java", "python-requests",
            "python-urllib", "python-httpx", "aiohttp", "okhttp", "apache-httpclient", "go-http-client", "node-fetch", "node",
            "axios", "undici", "postmanruntime", "insomnia", "httpie", "ruby", "faraday", "libwww-perl", "dart", "rest-assured");
    private static final Pattern PRODUCT = Pattern.compile("^([A-Za-z][A-Za-z0-9._-]*)(?:/\\S*)?");

    private UserAgents() {
    }

    /** The description, or null when there is no User-Agent to describe. */
    public static String describe(String userAgent) {
        if (userAgent == null || userAgent.isBlank()) {
            return null;
        }
        String ua = userAgent.trim();
        Matcher product = PRODUCT.matcher(ua);
        if (product.find() && !ua.startsWith("Mozilla/") && !ua.startsWith("Opera/")) {
            String name = product.group(1);
            String type = LIBRARIES.contains(name.toLowerCase(Locale.ROOT)) ? "Library" : "Unknown device type";
            return type + " (" + name + "/" + os(ua) + ")";
        }
        return deviceType(ua) + " (" + browser(ua) + "/" + os(ua) + ")";
    }

    private static String deviceType(String ua) {
        if (ua.contains("iPad") || ua.contains("Tablet")) {
            return "Tablet Browser";
        }
        if (ua.contains("Mobile") || ua.contains("iPhone") || ua.contains("Android")) {
            return "Mobile Browser";
        }
        return "Browser";
    }

    private static String browser(String ua) {
        if (ua.contains("Edg/") || ua.contains("EdgA/") || ua.contains("EdgiOS/")) {
            return "Edge";
        }
        if (ua.contains("OPR/") || ua.startsWith("Opera/")) {
            return "Opera";
        }
        if (ua.contains("Firefox/") || ua.contains("FxiOS/")) {
            return "Firefox";
        }
        if (ua.contains("Chrome/") || ua.contains("CriOS/") || ua.contains("Chromium/")) {
            return "Chrome";
        }
        if (ua.contains("Safari/") && ua.contains("Version/")) {
            return "Safari";
        }
        if (ua.contains("Trident/") || ua.contains("MSIE ")) {
            return "Internet Explorer";
        }
        return "Unknown browser";
    }

    private static String os(String ua) {
        if (ua.contains("iPhone") || ua.contains("iPad") || ua.contains("iPod")) {
            return "iOS";
        }
        if (ua.contains("Android")) {
            return "Android";
        }
        if (ua.contains("Windows")) {
            return "Windows";
        }
        if (ua.contains("CrOS")) {
            return "Chrome OS";
        }
        if (ua.contains("Mac OS X") || ua.contains("Macintosh")) {
            return "Mac OS X";
        }
        if (ua.contains("Linux")) {
            return "Linux";
        }
        return "Unknown OS";
    }
}
