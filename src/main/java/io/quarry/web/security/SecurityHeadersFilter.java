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
 * public paths, a referrer policy, HSTS when the request came over HTTPS (directly or through a proxy saying so), and
 * {@code Cache-Control: no-store} on API answers to a signed-in caller, which a shared cache must never keep. A
 * resource that sets its own {@code Cache-Control} (exports, public metadata) replaces the default.
 */
public final class SecurityHeadersFilter extends HttpFilter {
    public static final String CONTENT_SECURITY_POLICY = "frame-ancestors 'none'";
    static final String HSTS = "max-age=31536000";

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws IOException, ServletException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Permitted-Cross-Domain-Policies", "none");
        response.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
        if (!embeddable(path)) {
            response.setHeader("X-Frame-Options", "DENY");
            response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        }
        if (overHttps(request)) {
            response.setHeader("Strict-Transport-Security", HSTS);
        }
        HttpServletResponse answer = response;
        if (path.startsWith("/api/") && Credentials.present(request)) {
            response.setHeader("Cache-Control", "no-store");
            answer = new CacheControlReplacing(response);
        }
        chain.doFilter(request, answer);
    }

    /** Pages and API calls meant to be shown inside other sites' frames. */
    public static boolean embeddable(String path) {
        return path.startsWith("/api/embed/") || path.startsWith("/api/public/") || path.startsWith("/embed/")
                || path.startsWith("/public/");
    }

    static boolean overHttps(HttpServletRequest request) {
        return request.isSecure() || "https".equalsIgnoreCase(request.getHeader("X-Forwarded-Proto"));
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
