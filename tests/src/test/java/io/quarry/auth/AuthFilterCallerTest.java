package io.quarry.auth;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.quarry.core.Caller;
import io.quarry.web.security.CallerFactory;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.UriInfo;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The caller kept on a container thread for its request: a request that names no one, served next by the same thread,
 * must not find the previous request's caller there.
 */
class AuthFilterCallerTest {
    private static final Caller ADMIN = new Caller(1L, true, "admin-session", false, "en");
    private static final Caller FALLBACK = new Caller(null, false, null, false, null);

    @AfterEach
    void clean() {
        CallerFactory.forgetOnThisThread();
    }

    @Test
    void authenticationForgetsThePreviousRequestsCallerBeforeAnythingElse() {
        AuthFilter filter = new AuthFilter(mock(SessionService.class), mock(ApiKeyService.class));
        CallerFactory.setCaller(mock(ContainerRequestContext.class), ADMIN);
        assertSame(ADMIN, CallerFactory.current(() -> FALLBACK));

        filter.filter(request("card/1"));
        assertSame(FALLBACK, CallerFactory.current(() -> FALLBACK), "an anonymous request after the administrator's");

        CallerFactory.setCaller(mock(ContainerRequestContext.class), ADMIN);
        filter.filter(request("health"));
        assertSame(FALLBACK, CallerFactory.current(() -> FALLBACK), "the health check, which authentication skips");
    }

    @Test
    void theNamedCallerIsTheOneOnTheThread() {
        CallerFactory.setCaller(mock(ContainerRequestContext.class), ADMIN);
        assertSame(ADMIN, CallerFactory.current(() -> FALLBACK));
        CallerFactory.forgetOnThisThread();
        assertSame(FALLBACK, CallerFactory.current(() -> FALLBACK));
    }

    private static ContainerRequestContext request(String path) {
        ContainerRequestContext request = mock(ContainerRequestContext.class);
        UriInfo uri = mock(UriInfo.class);
        when(uri.getPath()).thenReturn(path);
        when(request.getUriInfo()).thenReturn(uri);
        when(request.getCookies()).thenReturn(Map.of());
        return request;
    }
}
