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

    /** Records who is calling; done once per request, by the authentication filter. */
    public static void setCaller(ContainerRequestContext request, Caller caller) {
        request.setProperty(CALLER, caller);
    }

    /** The request's caller: {@link Caller#ANONYMOUS} until authentication has named one. */
    public static Caller callerOf(ContainerRequestContext request) {
        Object caller = request.getProperty(CALLER);
        return caller instanceof Caller c ? c : Caller.ANONYMOUS;
    }
}
