package io.quarry.web.security;

import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.util.function.Supplier;

/** Supplies the request's {@link Caller} to resources (request scope). */
public final class CallerFactory implements Supplier<Caller> {
    /** The request property under which authentication leaves the caller it worked out. */
    private static final String CALLER = "quarry.caller";

    private final Provider<ContainerRequestContext> request;

    @Inject
    public CallerFactory(Provider<ContainerRequestContext> request) {
        this.request = request;
    }

    @Override
    public Caller get() {
        return callerOf(request.get());
    }

    /**
     * Records how to work out who is calling; done once per request, by the authentication filter. The credentials
     * are checked (a session or API-key look-up in the application database) only when something first asks for the
     * caller — an endpoint's access check, a resource that takes the caller — so public endpoints that never ask, such
     * as {@code /api/health}, do not wait on that database.
     */
    public static void setCaller(ContainerRequestContext request, Supplier<Caller> resolve) {
        request.setProperty(CALLER, resolve);
    }

    /** The request's caller: {@link Caller#ANONYMOUS} when its credentials name nobody (or it sent none). */
    public static Caller callerOf(ContainerRequestContext request) {
        Object caller = request.getProperty(CALLER);
        if (caller instanceof Caller c) {
            return c;
        }
        if (caller instanceof Supplier<?> resolve) {
            Object resolved = resolve.get();
            Caller c = resolved instanceof Caller known ? known : Caller.ANONYMOUS;
            request.setProperty(CALLER, c);
            return c;
        }
        return Caller.ANONYMOUS;
    }
}
