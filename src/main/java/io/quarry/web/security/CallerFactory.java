package io.quarry.web.security;

import io.quarry.auth.AuthFilter;
import io.quarry.core.Caller;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.util.function.Supplier;

/** Supplies the request's {@link Caller} to resources (request scope). */
public final class CallerFactory implements Supplier<Caller> {
    private final Provider<ContainerRequestContext> request;

    @Inject
    public CallerFactory(Provider<ContainerRequestContext> request) {
        this.request = request;
    }

    @Override
    public Caller get() {
        return AuthFilter.callerOf(request.get());
    }
}
