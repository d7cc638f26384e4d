package io.quarry.auth;

import io.quarry.core.Caller;
import io.quarry.user.User;
import io.quarry.web.body.UnreadBodies;
import io.quarry.web.security.CallerFactory;
import io.quarry.web.security.Credentials;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.ext.Provider;
import java.util.ArrayList;
import java.util.List;

/**
 * Works out who is calling, in Metabase's order: the {@code metabase.SESSION} cookie, the {@code X-Metabase-Session}
 * header, then an {@code X-Api-Key}. Credentials that do not check out leave the caller anonymous; the endpoint's
 * {@link io.quarry.web.security.Access} decides whether that is enough. Pre-matching, because Jersey builds resources (and injects their
 * {@link Caller}) while routing, before any post-matching filter runs.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION)
public final class AuthFilter implements ContainerRequestFilter {

    private final SessionService sessions;
    private final ApiKeyService apiKeys;

    @Inject
    public AuthFilter(SessionService sessions, ApiKeyService apiKeys) {
        this.sessions = sessions;
        this.apiKeys = apiKeys;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        CallerFactory.forgetOnThisThread();
        if (isHealthCheck(request)) {
            // Public, and must answer within a second or two when the application database does not: resolving a
            // session would wait on that database first. (Resolving only when asked does not work here: Jersey builds
            // a resource, and injects its caller, while routing, where a failing look-up escapes the exception
            // mappers as a 500.)
            return;
        }
        String locale = request.getHeaderString("X-Metabase-Locale");
        // Every session cookie sent, most specific path first (two contexts on one host send two), then the header.
        List<String> keys = new ArrayList<>(Credentials.sessionCookies(request.getHeaderString("Cookie")));
        if (keys.isEmpty()) {
            Cookie cookie = request.getCookies().get(Credentials.SESSION_COOKIE);
            if (cookie != null) {
                keys.add(cookie.getValue());
            }
        }
        int cookies = keys.size();
        keys.add(request.getHeaderString(Credentials.SESSION_HEADER));
        for (int i = 0; i < keys.size(); i++) {
            User user = sessions.resolve(keys.get(i));
            if (user != null) {
                CallerFactory.setCaller(request, new Caller(user.id, user.isSuperuser, keys.get(i), false, locale != null ? locale : user.locale));
                Credentials.setVia(request, i < cookies ? Credentials.Via.COOKIE : Credentials.Via.SESSION_HEADER);
                return;
            }
        }
        String apiKey = request.getHeaderString(Credentials.API_KEY_HEADER);
        if (apiKey != null) {
            User user = apiKeys.authenticate(apiKey, clientAddress(request));
            if (user != null) {
                CallerFactory.setCaller(request, new Caller(user.id, user.isSuperuser, null, true, locale != null ? locale : user.locale));
                Credentials.setVia(request, Credentials.Via.API_KEY);
            }
        }
    }

    /** The client's IP, as sign-in records it (the servlet request's remote address); null outside a servlet. */
    private static String clientAddress(ContainerRequestContext request) {
        return request.getProperty(UnreadBodies.SERVLET_REQUEST) instanceof HttpServletRequest servlet ? servlet.getRemoteAddr() : null;
    }

    private static boolean isHealthCheck(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        return path.equals("health") || path.equals("health/") || path.equals("/health");
    }
}
