package io.quarry.web.security;

import io.quarry.core.Caller;
import io.quarry.web.error.ApiException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;

/** Attaches the check that {@link Access} declares to each resource method. */
@Provider
public final class AccessFeature implements DynamicFeature {
    @Override
    public void configure(ResourceInfo info, FeatureContext context) {
        Method method = info.getResourceMethod();
        Access access = accessOf(info.getResourceClass(), method);
        if (access == null) {
            if (info.getResourceClass().getName().startsWith("io.quarry.")) {
                throw new IllegalStateException("Resource method without @Access: " + info.getResourceClass().getSimpleName()
                        + "." + method.getName());
            }
            return;
        }
        switch (access.value()) {
            case PUBLIC -> { }
            case USER -> context.register(new Check(false), Priorities.AUTHORIZATION);
            case SUPERUSER -> context.register(new Check(true), Priorities.AUTHORIZATION);
        }
    }

    public static Access accessOf(Class<?> type, Method method) {
        Access access = method.getAnnotation(Access.class);
        return access != null ? access : type.getAnnotation(Access.class);
    }

    @Priority(Priorities.AUTHORIZATION)
    private record Check(boolean superuser) implements ContainerRequestFilter {
        @Override
        public void filter(jakarta.ws.rs.container.ContainerRequestContext request) {
            Caller caller = CallerFactory.callerOf(request);
            if (!caller.authenticated()) {
                throw ApiException.unauthenticated();
            }
            if (superuser && !caller.superuser()) {
                throw ApiException.forbidden();
            }
        }
    }
}
