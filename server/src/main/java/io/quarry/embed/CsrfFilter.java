package io.quarry.embed;

import io.quarry.core.Caller;
import io.quarry.setting.Settings;
import io.quarry.web.body.UnreadBodies;
import io.quarry.web.security.AntiCsrfToken;
import io.quarry.web.security.CallerFactory;
import io.quarry.web.security.Credentials;
import io.quarry.web.security.OpensSession;
import io.quarry.web.security.RequestOrigins;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Map;
import org.glassfish.jersey.server.ExtendedUriInfo;

/**
 * Refuses what another site's page makes a signed-in browser do (CSRF), by where the browser says the request comes
 * from. A state-changing request ({@code POST}, {@code PUT}, {@code PATCH}, {@code DELETE}) authenticated by the
 * session cookie, and any request to an endpoint that {@link OpensSession} (login CSRF), is refused with a 403 when
 * <ul>
 *   <li>its {@code Origin} is not Quarry's own (scheme, host and port all compared: another port of the same host is
 *   another origin; {@code Origin: null} is no origin) and not one the embedding settings accept
 *   ({@link EmbeddingOrigins}), or</li>
 *   <li>it carries {@code Sec-Fetch-Site: cross-site} or {@code same-site} (the browser's word that another origin asked),
 *   unless its {@code Origin} is an accepted embedding origin.</li>
 * </ul>
 * Quarry's own origins are those the request reached it at ({@link RequestOrigins#own}) and that of {@code site-url}.
 * A request without {@code Origin} or {@code Sec-Fetch-Site} (a script, {@code curl}) passes: browsers send them on
 * every cross-origin write.
 *
 * <p>While the session cookie is {@code SameSite=None} ({@code session-cookie-samesite}), browsers attach it to any
 * site's requests; a cookie-authenticated write must then also send the session's {@link AntiCsrfToken} in
 * {@code X-Metabase-Anti-CSRF-Token}, which sign-in hands out and which every cookie-authenticated answer from Quarry's
 * own origin repeats (so that a page open before the setting changed learns it, from the refusal of its write at the
 * latest).
 *
 * <p>Requests that carry an {@code X-Metabase-Session} or {@code X-Api-Key} header are not checked: no form can send
 * such a header, and a page's script can send it to another origin only after a CORS preflight, which Quarry never
 * grants to a request with cookies.
 */
@Priority(Priorities.AUTHENTICATION + 100)
public final class CsrfFilter implements ContainerRequestFilter, ContainerResponseFilter {
    /**
     * The request property marking a request refused as another origin's: its answer repeats no token. (A write
     * refused only for a missing token came from Quarry's own pages: its answer carries the token, for the page to
     * send the write again with it.)
     */
    private static final String REFUSED = CsrfFilter.class.getName() + ".refused";

    private final Settings settings;

    @Inject
    public CsrfFilter(Settings settings) {
        this.settings = settings;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        if (!stateChanging(request.getMethod())) {
            return;
        }
        boolean cookieWrite = Credentials.via(request) == Credentials.Via.COOKIE && !carriesHeaderCredentials(request);
        if (!cookieWrite && !opensSession(request)) {
            return;
        }
        String refusal = crossSiteRefusal(request);
        if (refusal != null) {
            request.setProperty(REFUSED, Boolean.TRUE);
            refuse(request, refusal);
            return;
        }
        if (cookieWrite && sameSiteNone()) {
            Caller caller = CallerFactory.callerOf(request);
            if (!AntiCsrfToken.matches(caller.sessionKey(), request.getHeaderString(AntiCsrfToken.HEADER))) {
                refuse(request, "This session's cookie is sent with other sites' requests (SameSite=None): "
                        + "writes must send its anti-CSRF token in " + AntiCsrfToken.HEADER + ".");
            }
        }
    }

    /** Repeats the anti-CSRF token on every cookie-authenticated answer while the cookie is {@code SameSite=None}. */
    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (Credentials.via(request) != Credentials.Via.COOKIE || request.getProperty(REFUSED) != null
                || response.getHeaders().containsKey(AntiCsrfToken.HEADER)) {
            return;
        }
        try {
            if (!sameSiteNone()) {
                return;
            }
        } catch (RuntimeException settingsUnreadable) {
            // the application database is down: the answer (its 503) goes out without the token
            return;
        }
        String session = CallerFactory.callerOf(request).sessionKey();
        if (session != null) {
            response.getHeaders().putSingle(AntiCsrfToken.HEADER, AntiCsrfToken.of(session));
        }
    }

    /**
     * Why the request must be taken for another site's, or null when it comes from Quarry's own pages, an accepted
     * embedding origin, or no browser. Quarry's own origin is settled first, without reading any setting.
     */
    private String crossSiteRefusal(ContainerRequestContext request) {
        String originHeader = request.getHeaderString("Origin");
        String fetchSite = request.getHeaderString("Sec-Fetch-Site");
        fetchSite = fetchSite == null ? null : fetchSite.trim().toLowerCase(Locale.ROOT);
        boolean anotherOrigin = "cross-site".equals(fetchSite) || "same-site".equals(fetchSite);
        String bySecFetchSite = "Cross-site request refused: the browser says another site's page sent it (Sec-Fetch-Site: "
                + fetchSite + ").";
        if (originHeader == null) {
            return anotherOrigin ? bySecFetchSite : null;
        }
        String origin = RequestOrigins.normalize(originHeader);
        if (origin == null) {
            return "Cross-site request refused: Origin " + originHeader + " is not this site's.";
        }
        boolean own = own(request, origin);
        if ((own && !anotherOrigin) || EmbeddingOrigins.accepted(settings, origin)) {
            return null;
        }
        return own ? bySecFetchSite : "Cross-site request refused: Origin " + originHeader + " is not this site's.";
    }

    private boolean own(ContainerRequestContext request, String origin) {
        if (request.getProperty(UnreadBodies.SERVLET_REQUEST) instanceof HttpServletRequest servletRequest
                && RequestOrigins.own(servletRequest).contains(origin)) {
            return true;
        }
        return origin.equals(RequestOrigins.normalize(settings.string("site-url")));
    }

    /**
     * Whether the matched endpoint {@link OpensSession}: read from the request's own routing result (an injected
     * {@code ResourceInfo} is a proxy HK2 cannot build in a WAR's class loader).
     */
    private static boolean opensSession(ContainerRequestContext request) {
        if (request.getUriInfo() instanceof ExtendedUriInfo uri && uri.getMatchedResourceMethod() != null) {
            Method method = uri.getMatchedResourceMethod().getInvocable().getDefinitionMethod();
            return method.isAnnotationPresent(OpensSession.class);
        }
        return false;
    }

    private boolean sameSiteNone() {
        return "none".equalsIgnoreCase(settings.string("session-cookie-samesite"));
    }

    private static boolean stateChanging(String method) {
        return switch (method) {
            case "POST", "PUT", "PATCH", "DELETE" -> true;
            default -> false;
        };
    }

    private static boolean carriesHeaderCredentials(ContainerRequestContext request) {
        return request.getHeaderString(Credentials.SESSION_HEADER) != null || request.getHeaderString(Credentials.API_KEY_HEADER) != null;
    }

    /** Answers 403 with {@code {"message": ...}}, before anything is read or done. */
    private static void refuse(ContainerRequestContext request, String message) {
        request.abortWith(Response.status(403).type(MediaType.APPLICATION_JSON_TYPE).entity(Map.of("message", message)).build());
    }
}
