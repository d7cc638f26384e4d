package io.quarry.web.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;

/**
 * The security headers Metabase sends on every response: no MIME sniffing, no framing except for the embedding and
 * public paths (anyone may frame those) and, when interactive embedding is on, for the origins of
 * {@code embedding-app-origins-interactive} ({@link FrameAncestors}: {@code frame-ancestors <origins>} and
 * {@code X-Frame-Options: ALLOW-FROM <first origin>} as Metabase sends them), a referrer policy, HSTS when the request came over HTTPS (directly or through a proxy saying so), and
 * {@code Cache-Control: no-store} on API answers to a signed-in caller, which a shared cache must never keep. A
 * resource that sets its own {@code Cache-Control} (exports, public metadata) replaces the default.
 */
public final class SecurityHeadersFilter extends HttpFilter {
    public static final String CONTENT_SECURITY_POLICY = "frame-ancestors 'none'";
    private static final java.util.regex.Pattern ORIGIN = java.util.regex.Pattern.compile(
            "([A-Za-z][A-Za-z0-9+.-]*://)?(\\*|(\\*\\.)?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*|\\[[0-9A-Fa-f:.]+])(:([0-9]{1,5}|\\*))?/?");
    /** The request attribute holding the framing directive this filter sent (absent on embeddable paths). */
    private static final String FRAMING = SecurityHeadersFilter.class.getName() + ".framing";
    static final String HSTS = "max-age=31536000";

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws IOException, ServletException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Permitted-Cross-Domain-Policies", "none");
        response.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
        if (!embeddable(path)) {
            String origins = frameOrigins();
            String directive = origins == null ? CONTENT_SECURITY_POLICY : "frame-ancestors " + origins;
            response.setHeader("X-Frame-Options", origins == null ? "DENY" : "ALLOW-FROM " + origins.split(" ")[0]);
            response.setHeader("Content-Security-Policy", directive);
            request.setAttribute(FRAMING, directive);
        }
        if (RequestOrigins.overHttps(request)) {
            response.setHeader("Strict-Transport-Security", HSTS);
        }
        HttpServletResponse answer = response;
        if (path.startsWith("/api/") && Credentials.present(request)) {
            response.setHeader("Cache-Control", "no-store");
            answer = new CacheControlReplacing(response);
        }
        chain.doFilter(request, answer);
    }

    /**
     * The framing directive this filter chose for the request ({@code frame-ancestors ...}), for a servlet that sends
     * a fuller policy of its own; null on the paths anyone may frame.
     */
    public static String framing(HttpServletRequest request) {
        return (String) request.getAttribute(FRAMING);
    }

    /** The interactive-embedding origins, cleaned to CSP source expressions; null when none may frame. */
    private String frameOrigins() {
        Object ancestors = getServletContext().getAttribute(FrameAncestors.ATTRIBUTE);
        if (!(ancestors instanceof FrameAncestors frameAncestors)) {
            return null;
        }
        String origins;
        try {
            origins = frameAncestors.origins();
        } catch (RuntimeException unreadable) {
            // the application database is down: refuse framing rather than fail the answer
            return null;
        }
        return sourceList(origins);
    }

    /**
     * The whitespace-separated entries that are origins ({@code [scheme://]host[:port]}, host {@code *} or
     * {@code *.domain}, port {@code *}: nothing that could end the directive or name a keyword), joined by single
     * spaces; null if none.
     */
    static String sourceList(String origins) {
        if (origins == null) {
            return null;
        }
        StringBuilder list = new StringBuilder();
        for (String entry : origins.trim().split("\\s+")) {
            if (ORIGIN.matcher(entry).matches()) {
                list.append(list.isEmpty() ? "" : " ").append(entry);
            }
        }
        return list.isEmpty() ? null : list.toString();
    }

    /** Pages and API calls meant to be shown inside other sites' frames. */
    public static boolean embeddable(String path) {
        return path.startsWith("/api/embed/") || path.startsWith("/api/public/") || path.startsWith("/embed/")
                || path.startsWith("/public/");
    }

    /** A resource's own Cache-Control replaces the default instead of being added beside it. */
    private static final class CacheControlReplacing extends HttpServletResponseWrapper {
        CacheControlReplacing(HttpServletResponse response) {
            super(response);
        }

        @Override
        public void addHeader(String name, String value) {
            if ("Cache-Control".equalsIgnoreCase(name)) {
                super.setHeader(name, value);
            } else {
                super.addHeader(name, value);
            }
        }
    }
}
