package io.quarry.embed;

import io.quarry.setting.Settings;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.Locale;

/**
 * CORS for the embedding SDK, as Metabase's {@code security.clj} sends it. The headers go out when
 * {@code enable-embedding-sdk} (or {@code enable-embedding-simple}) is on, or when the {@code Origin} is loopback and
 * {@code disable-cors-on-localhost} is off: {@code Access-Control-Allow-Origin} (the request's origin) and
 * {@code Vary: Origin} only for an approved origin, and always the allowed headers, methods, exposed headers and max
 * age (no credentials). Approved: loopback (unless disabled), or an entry of {@code embedding-app-origins-sdk} (or the
 * deprecated {@code embedding-app-origin}, {@code MB_EMBEDDING_APP_ORIGIN}): space-separated, host {@code *} or
 * {@code *.example.com}, port {@code *}; an entry without a scheme matches http and https only. A preflight
 * ({@code OPTIONS} with an {@code Origin}) is answered here, before sign-in and routing.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public final class SdkCors implements ContainerRequestFilter, ContainerResponseFilter {
    private final Settings settings;

    @Inject
    public SdkCors(Settings settings) {
        this.settings = settings;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        if ("OPTIONS".equals(request.getMethod()) && request.getHeaderString("Origin") != null) {
            request.abortWith(Response.ok().build());
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        String origin = request.getHeaderString("Origin");
        if (origin == null) {
            // CORS headers speak only to browsers, which send an Origin on every cross-origin request: a request
            // without one (most of them) costs no settings read
            return;
        }
        boolean loopback = isLoopback(origin);
        boolean allowOrigin;
        try {
            boolean localhostAllowed = !settings.bool("disable-cors-on-localhost");
            boolean sdk = settings.bool("enable-embedding-sdk") || settings.bool("enable-embedding-simple");
            if (!sdk && !(loopback && localhostAllowed)) {
                return;
            }
            allowOrigin = (loopback && localhostAllowed) || (sdk && approved(origin));
        } catch (RuntimeException settingsUnreadable) {
            // the application database is down: the answer (its 503) goes out without CORS headers rather than
            // turning into a 500 here
            return;
        }
        MultivaluedMap<String, Object> headers = response.getHeaders();
        if (allowOrigin) {
            headers.putSingle("Access-Control-Allow-Origin", origin);
            headers.add("Vary", "Origin");
        }
        headers.putSingle("Access-Control-Allow-Headers", "*");
        headers.putSingle("Access-Control-Allow-Methods", "*");
        headers.putSingle("Access-Control-Expose-Headers", "Content-Disposition, X-Metabase-Anti-CSRF-Token, X-Metabase-Version");
        headers.putSingle("Access-Control-Max-Age", "60");
    }

    private boolean approved(String origin) {
        return EmbeddingOrigins.listed(settings.string("embedding-app-origins-sdk"), origin)
                || EmbeddingOrigins.listed(settings.string("embedding-app-origin"), origin);
    }

    /** Whether an origin ({@code scheme://host[:port]}) matches an entry ({@code [scheme://]host[:port]}). */
    static boolean matches(String entry, String origin) {
        Parts o = Parts.of(origin);
        Parts e = Parts.of(entry.contains("://") ? entry : "//" + entry);
        if (o == null || e == null) {
            return false;
        }
        if (e.scheme == null ? !(o.scheme.equals("http") || o.scheme.equals("https")) : !e.scheme.equals(o.scheme)) {
            return false;
        }
        boolean host = e.host.equals("*") || e.host.equals(o.host)
                || (e.host.startsWith("*.") && o.host.endsWith(e.host.substring(1)));
        boolean port = e.port.equals("*") || e.port.equals(o.port)
                || (e.port.isEmpty() && o.port.equals(defaultPort(o.scheme)));
        return host && port;
    }

    private static String defaultPort(String scheme) {
        return scheme.equals("https") ? "443" : scheme.equals("http") ? "80" : "";
    }

    static boolean isLoopback(String origin) {
        Parts o = Parts.of(origin);
        return o != null && (o.host.equals("localhost") || o.host.equals("127.0.0.1") || o.host.equals("[::1]"));
    }

    /** Scheme (null when absent), lower-case host, port text (empty when absent, {@code *} kept). */
    private record Parts(String scheme, String host, String port) {
        static Parts of(String text) {
            String rest = text.trim().toLowerCase(Locale.ROOT);
            String scheme = null;
            int sep = rest.indexOf("//");
            if (sep < 0) {
                return null;
            }
            if (sep > 0) {
                if (!rest.substring(sep - 1, sep).equals(":")) {
                    return null;
                }
                scheme = rest.substring(0, sep - 1);
            }
            rest = rest.substring(sep + 2);
            int slash = rest.indexOf('/');
            if (slash >= 0) {
                rest = rest.substring(0, slash);
            }
            String host = rest;
            String port = "";
            int colon = rest.lastIndexOf(':');
            if (colon >= 0 && !rest.endsWith("]")) {
                host = rest.substring(0, colon);
                port = rest.substring(colon + 1);
            }
            if (host.isEmpty()) {
                return null;
            }
            if (scheme != null && port.isEmpty()) {
                port = defaultPort(scheme);
            }
            return new Parts(scheme, host, port);
        }
    }
}
